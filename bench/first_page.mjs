// Time to the first page: from the MCP client spawning the server to the
// answer of its first page opened, tabbridge next to Playwright MCP and
// chrome-devtools-mcp (servers from peer_servers.mjs), each with a fresh
// headless browser and profile, BENCH_FIRST_RUNS (5) times each.
//   tabbridge: spawn, initialize, connect_browser {launch: true}, open_tab
//   the peers: spawn, initialize, their first navigate (which launches their browser)
// For ours it also prints the timeline of those steps, the median of each
// mark over the runs in ms from the spawn, read from the debug log both our
// programs write (TABBRIDGE_LOG_FILE, "timeline:" lines) and from the
// extension's own marks (hello's timing, tabs.create's timing).
//
// Usage: node bench/first_page.mjs [buildDir]
//   BENCH_FIRST_RUNS=5   BENCH_PEERS_ONLY=tabbridge,…  a subset   BENCH_KEEP_LOG=1: keep /tmp/bench-first-*/tabbridge.log
// Prints figures only: it never fails on time.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveBenchPages } from './fixture_server.mjs';
import { chosenServers, endSession, startSession } from './peer_servers.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = path.resolve(process.argv[2] || process.env.TABBRIDGE_BUILD_DIR || path.join(repo, 'build'));
const runs = Number(process.env.BENCH_FIRST_RUNS || 5);
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// spdlog's local time, "2026-11-28T01:44:22.327 program[pid] debug: text" -> {at (epoch ms), text}.
function logLines(file) {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').flatMap((line) => {
    const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}) (\S+)\[\d+\] \w+: (.*)$/.exec(line);
    return m ? [{ at: new Date(m[1]).getTime(), who: m[2], text: m[3] }] : [];
  });
}

// Our marks, each in epoch ms, from the log and the bench's own clock.
function ourMarks(lines, bench) {
  const marks = { ...bench };
  const first = (re) => lines.find((l) => re.test(l.text));
  const at = (name, re) => {
    const line = first(re);
    if (line) marks[name] = line.at;
    return line;
  };
  at('shim: launching the browser', /^timeline: launching the browser/);
  at('shim: browser spawned', /^launched /);
  at('shim: the browser loaded the extension (DevTools pipe)', /^timeline: the browser loaded the extension/);
  const worker = first(/^timeline: worker (\{.*\})/);
  if (worker) {
    const t = JSON.parse(/^timeline: worker (\{.*\})/.exec(worker.text)[1]);
    marks['extension: service worker started'] = t.workerStart;
    marks['extension: its modules began to run'] = t.evaluated;
    marks['extension: connectNative'] = t.connect;
    marks['extension: hello sent'] = t.hello;
  }
  at('host: started (connectNative)', /^timeline: host started/);
  at('host: listening on its socket', /^timeline: host listening/);
  at('shim: connected to the host', /^connected to /);
  const created = first(/^timeline: tabs\.create answered (\{.*\})/);
  if (created) {
    const timing = JSON.parse(/answered (\{.*\})/.exec(created.text)[1]);
    const begun = created.at - (timing.answered ?? 0);
    for (const [step, ms] of Object.entries(timing)) marks[`extension: tabs.create ${step}`] = begun + ms;
  }
  return marks;
}

async function firstPage(def, url, run) {
  const log = path.join(fs.mkdtempSync('/tmp/bench-first-'), 'tabbridge.log');
  if (def.name === 'tabbridge') Object.assign(process.env, { TABBRIDGE_LOG_FILE: log, TABBRIDGE_LOG_LEVEL: 'debug' });
  const bench = {};
  const t0 = Date.now();
  bench['client: spawned the server'] = t0;
  const s = await startSession(def, { build });
  bench['client: initialized, tools listed'] = Date.now();
  try {
    if (def.name === 'tabbridge') {
      bench['client: connect_browser sent'] = Date.now();
      s.state.browserPid = (await s.must('connect_browser', { launch: true })).structuredContent.browser.pid;
      bench['client: connect_browser answered'] = Date.now();
      bench['client: open_tab sent'] = Date.now();
      await s.must('open_tab', { url });
    } else {
      await def.open(s, url);
    }
    bench['client: the first page answered'] = Date.now();
  } finally {
    await endSession(s);
    delete process.env.TABBRIDGE_LOG_FILE;
    delete process.env.TABBRIDGE_LOG_LEVEL;
  }
  const marks = def.name === 'tabbridge' ? ourMarks(logLines(log), bench) : bench;
  if (!process.env.BENCH_KEEP_LOG) fs.rmSync(path.dirname(log), { recursive: true, force: true });
  if (process.env.BENCH_FIRST_VERBOSE) console.error(def.name, run, marks['client: the first page answered'] - t0);
  return Object.fromEntries(Object.entries(marks).map(([k, v]) => [k, v - t0]));
}

const { server, origin } = await serveBenchPages();
const url = `${origin}/rows?n=100`;
const results = [];
for (const def of chosenServers()) {
  const all = [];
  for (let r = 0; r < runs; r++) all.push(await firstPage(def, url, r));
  results.push({ def, all });
}
server.close();

console.log(`time to the first page (the 100-row page on 127.0.0.1), ms from spawning the server, median of ${runs}:`);
console.log('| server | first page p50 | min | max |');
console.log('|---|---|---|---|');
for (const { def, all } of results) {
  const t = all.map((m) => m['client: the first page answered']);
  console.log(`| ${def.name} | ${p50(t)} | ${Math.min(...t)} | ${Math.max(...t)} |`);
}
const ours = results.find((r) => r.def.name === 'tabbridge');
if (ours) {
  console.log('\ntabbridge timeline, ms from the spawn (median of each mark; the browser\'s marks are its own clock, the same machine):');
  console.log('| ms | step |');
  console.log('|---|---|');
  const names = Object.keys(ours.all[0]);
  const rows = names.map((n) => [p50(ours.all.map((m) => m[n]).filter((v) => v !== undefined)), n]);
  for (const [ms, n] of rows.sort((a, b) => a[0] - b[0])) console.log(`| ${ms} | ${n} |`);
}
process.exit(0);
