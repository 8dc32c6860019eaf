// Whole tasks side by side: tabbridge, Playwright MCP and chrome-devtools-mcp
// each do the same scripted tasks (task_flows.mjs: TodoMVC, a sign-up form, a
// WebMCP shop) through the shortest sequence of calls an agent makes with that
// server, on pages served from 127.0.0.1 (fixture_server.mjs); then the bench
// reads the page's state for itself and prints PASS or FAIL.
//
// What the model reads, per server and task:
//   calls          the tool calls of the sequence
//   results        the bytes of the text of every result
//   tools/list     the bytes of every tools/list the client fetches: one when
//                  it connects, and one more after each
//                  notifications/tools/list_changed the server sends, as
//                  Claude Code does (it fetches the list again on each; no
//                  debounce). Notifications that follow the last call (within
//                  300 ms of quiet) are counted too.
//   total          results + tools/list
// and the wall time from the first call to the last answer (the server and
// its browser started before). A further row, for reference only, counts the
// tools' definitions as the model's API requests carry them: the list in force
// with each of the calls + 1 turns (no prompt caching); another, the fetches of
// a client that re-fetches at most once between two calls, however many
// notifications came.
//
// Servers: ours with its default capabilities (what `claude mcp add tabbridge
// -- tabbridge` gives; its launched browser has WebMCP on). The peers as
// installed; for the WebMCP task also with their WebMCP support on (Playwright
// MCP: a browser with --enable-features=WebMCP, its page tools then listed as
// webmcp_*; chrome-devtools-mcp: --categoryExperimentalWebmcp and that flag) —
// the best peer is the smallest total of any of their runs.
// The bench's own reads of the page go through a second session of ours
// (--caps eval, on the same browser), the peers' through their evaluate: none
// of them is counted.
//
// Usage: node bench/tasks.mjs [buildDir]
//   BENCH_TASKS_ONLY=todomvc,form,webmcp   a subset of tasks;  BENCH_PEERS_ONLY=tabbridge,…  of servers
//   BENCH_TASKS_RUNS=1                     runs of each (figures: the median)
// Prints figures only: nothing fails on time or bytes; FAIL is a task not done.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveBenchPages } from './fixture_server.mjs';
import { BROWSER, chosenServers, endSession, startSession } from './peer_servers.mjs';
import { TASKS } from './task_flows.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = path.resolve(process.argv[2] || process.env.TABBRIDGE_BUILD_DIR || path.join(repo, 'build'));
const runs = Number(process.env.BENCH_TASKS_RUNS || 1);
const onlyTasks = process.env.BENCH_TASKS_ONLY?.split(',');

// Reads the page's state through a second session of ours on the same browser and tab.
async function readOurPage(s, expression) {
  const reader = await startSession(s.def, { build, caps: ['eval'], tmp: s.tmp });
  try {
    await reader.must('connect_browser');
    await reader.must('focus_tab', { tabId: s.state.tabId });
    return await s.def.evaluate(reader, expression);
  } finally {
    await reader.close();
  }
}

async function runOnce(task, def, mode, origin) {
  const s = await startSession(def, { build, webmcp: mode === 'webmcp' });
  const out = { calls: [], lists: [] };
  try {
    const t0 = performance.now();
    await task.flow(s, def, origin + task.path, mode);
    out.wallMs = performance.now() - t0;
    await s.settle();
    out.calls = s.log.map(({ name, bytes }) => ({ name, bytes }));
    out.lists = [...s.lists];
    out.coalesced = s.coalesced.reduce((n, x) => n + x, 0);
    out.coalescedTimes = s.coalesced.length;
    // The definitions in force at each call, and after the last for the model's final turn.
    out.perTurn = s.log.reduce((sum, c) => sum + c.listBytes, 0) + s.lists.at(-1);
    const state = def.name === 'tabbridge' ? await readOurPage(s, task.verify) : await s.aside(() => def.evaluate(s, task.verify));
    out.pass = !!task.expect(state);
    if (!out.pass) out.detail = `page state: ${JSON.stringify(state).slice(0, 300)}`;
  } catch (e) {
    out.pass = false;
    out.detail = e.message.slice(0, 400);
    out.calls = s.log.map(({ name, bytes }) => ({ name, bytes }));
    out.lists = [...s.lists];
  } finally {
    await endSession(s);
  }
  const sum = (list) => list.reduce((n, x) => n + x, 0);
  out.resultBytes = sum(out.calls.map((c) => c.bytes));
  out.listBytes = sum(out.lists);
  out.total = out.resultBytes + out.listBytes;
  return out;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function runTask(task, origin) {
  const columns = [];
  for (const def of chosenServers()) {
    const modes = def.name === 'tabbridge' ? ['default'] : task.peerModes ?? ['default'];
    for (const mode of modes) {
      const all = [];
      for (let i = 0; i < runs; i++) all.push(await runOnce(task, def, mode, origin));
      // Each figure's median over the runs; the calls listed are the first run's.
      const pick = (key) => median(all.map((r) => r[key] ?? 0));
      columns.push({
        server: def.name, mode, title: `${def.name} (${def.version()})${mode === 'webmcp' ? ', WebMCP on' : ''}`,
        first: all[0], passes: all.filter((r) => r.pass).length,
        resultBytes: pick('resultBytes'), listBytes: pick('listBytes'), total: pick('total'), wallMs: pick('wallMs'), perTurn: pick('perTurn'),
        coalesced: pick('coalesced'),
      });
    }
  }
  return columns;
}

const { server, origin } = await serveBenchPages();
try {
  console.log(`Whole tasks side by side, ${path.basename(BROWSER)} headless, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? '?'}, ${runs} run(s) each`);
  console.log('tools/list rule: one fetch at connect + one per notifications/tools/list_changed (as Claude Code re-fetches on each)');
  for (const task of TASKS.filter((t) => !onlyTasks || onlyTasks.includes(t.name))) {
    const columns = await runTask(task, origin);
    const n = (x) => Math.round(x).toLocaleString('en');
    console.log(`\n### ${task.label}\n`);
    console.log(`| figure | ${columns.map((c) => c.title).join(' | ')} |`);
    console.log(`|---|${columns.map(() => '---|').join('')}`);
    const row = (figure, f) => console.log(`| ${figure} | ${columns.map(f).join(' | ')} |`);
    row('calls', (c) => c.first.calls.length);
    row('bytes of results read', (c) => n(c.resultBytes));
    row('tools/list fetched: times, bytes', (c) => `${c.first.lists.length}, ${n(c.listBytes)}`);
    row('**total bytes**', (c) => `**${n(c.total)}**`);
    row('wall time, ms', (c) => n(c.wallMs));
    row('final page state', (c) => (c.passes === runs ? 'PASS' : `FAIL (${runs - c.passes} of ${runs})`));
    row('(reference) tools/list fetched at most once between calls: times, bytes; total', (c) =>
      `${c.first.coalescedTimes}, ${n(c.coalesced)}; ${n(c.resultBytes + c.coalesced)}`);
    row('(reference) tools/list with every turn, uncached', (c) => n(c.perTurn));
    const ours = columns.find((c) => c.server === 'tabbridge');
    const peers = columns.filter((c) => c.server !== 'tabbridge');
    if (ours && peers.length) {
      const best = peers.reduce((a, b) => (b.total < a.total ? b : a));
      const share = ours.total / best.total;
      console.log(`\ntabbridge total / best peer's (${best.title}): ${(share * 100).toFixed(0)}% — goal at most 33%: ${share <= 1 / 3 ? 'met' : 'NOT met'}`);
    }
    console.log();
    for (const c of columns) {
      console.log(`- ${c.title}: ${c.first.calls.map((x) => `${x.name} ${n(x.bytes)}`).join(' · ')}; tools/list ${c.first.lists.map(n).join(' + ')}`);
      if (c.first.detail) console.log(`  ${c.first.pass ? '' : 'FAIL: '}${c.first.detail}`);
    }
  }
} finally {
  server.close();
}
