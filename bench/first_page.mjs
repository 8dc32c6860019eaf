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
// Chromium alone is timed in the same run (issue 43): the same browser and
// flags, no extension, launched with --remote-debugging-port=0 and driven
// over CDP — Page.navigate, then the document parsed (what open_tab waits
// for) — so that what tabbridge adds on top of the browser is its own figure.
//
// Ours also opens a second page on the browser now running and says when
// open_tab answered against that page's load event (needs --caps eval).
//
// Usage: node bench/first_page.mjs [buildDir]
//   BENCH_FIRST_RUNS=5   BENCH_PEERS_ONLY=tabbridge,…  a subset   BENCH_KEEP_LOG=1: keep /tmp/bench-first-*/tabbridge.log
// Prints figures only: it never fails on time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveBenchPages } from './fixture_server.mjs';
import { BENCH_BROWSER_ARGS } from './common.mjs';
import { BROWSER, chosenServers, endSession, startSession } from './peer_servers.mjs';
import { CdpConnection } from '../tests/e2e/lib/devtools.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = path.resolve(process.argv[2] || process.env.TABBRIDGE_BUILD_DIR || path.join(repo, 'build'));
const runs = Number(process.env.BENCH_FIRST_RUNS || 5);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const againAfterLoad = []; // ms from the load event to open_tab's answer, on a running browser
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
  const s = await startSession(def, { build, ...(def.name === 'tabbridge' ? { caps: ['eval'] } : {}) });
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
    if (def.name === 'tabbridge') {
      // On the browser now running (as the person's own is): when open_tab
      // answers against the page's load event (the page's own clock, epoch ms).
      await s.must('open_tab', { url: `${url}&again=${run}` });
      const answered = Date.now();
      let loadEnd = 0;
      for (let i = 0; i < 200 && !loadEnd; i++) {
        loadEnd = JSON.parse((await s.must('evaluate', { expression: 'performance.timing.loadEventEnd' })).content[0].text).result;
        if (!loadEnd) await sleep(10);
      }
      againAfterLoad.push(answered - loadEnd);
    }
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


// Chromium alone: spawn to the page parsed, over CDP (ms).
async function chromiumAlone(url) {
  const dir = fs.mkdtempSync('/tmp/bench-chromium-');
  const t0 = Date.now();
  const child = spawn(BROWSER, [...BENCH_BROWSER_ARGS.split(/\s+/).filter(Boolean), `--user-data-dir=${dir}`,
    '--remote-debugging-port=0', 'about:blank'], { stdio: 'ignore', detached: true }); // its own group: all its processes go
  try {
    let port = 0;
    while (!port) {
      try {
        port = Number(fs.readFileSync(path.join(dir, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
      } catch {
        await sleep(5);
      }
    }
    let page;
    while (!page) {
      const list = await fetch(`http://127.0.0.1:${port}/json/list`).then((r) => r.json(), () => []);
      page = list.find((t) => t.type === 'page');
      if (!page) await sleep(5);
    }
    const c = await CdpConnection.open(page.webSocketDebuggerUrl);
    try {
      await c.send('Page.navigate', { url });
      while ((await c.evaluate(`location.href === ${JSON.stringify(url)} && document.readyState !== 'loading'`)) !== true) await sleep(5);
    } finally {
      c.close();
    }
    return Date.now() - t0;
  } finally {
    const exited = new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    await exited;
    // Its other processes may still be writing the profile as they go.
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

const { server, origin } = await serveBenchPages();
const url = `${origin}/rows?n=100`;
const results = [];
const alone = [];
for (let r = 0; r < runs; r++) alone.push(await chromiumAlone(url));
for (const def of chosenServers()) {
  const all = [];
  for (let r = 0; r < runs; r++) all.push(await firstPage(def, url, r));
  results.push({ def, all });
}
server.close();

console.log(`time to the first page (the 100-row page on 127.0.0.1), ms from spawning the server, median of ${runs}:`);
console.log('| server | first page p50 | min | max |');
console.log('|---|---|---|---|');
console.log(`| Chromium alone (CDP: launch, navigate, parsed) | ${p50(alone)} | ${Math.min(...alone)} | ${Math.max(...alone)} |`);
for (const { def, all } of results) {
  const t = all.map((m) => m['client: the first page answered']);
  console.log(`| ${def.name} | ${p50(t)} | ${Math.min(...t)} | ${Math.max(...t)} |`);
}
const oursFirst = results.find((r) => r.def.name === 'tabbridge');
if (againAfterLoad.length) {
  console.log(`\nopen_tab on the running browser answered ${p50(againAfterLoad)} ms after the page's load event (p50; ` +
    `each: ${againAfterLoad.join(', ')}; negative: before it)`);
}
if (oursFirst) {
  const t = p50(oursFirst.all.map((m) => m['client: the first page answered']));
  const best = Math.min(...results.filter((r) => r.def.name !== 'tabbridge').map((r) => p50(r.all.map((m) => m['client: the first page answered']))));
  console.log(`\ntabbridge's own part on top of Chromium alone: ${t - p50(alone)} ms (p50 ${t} − ${p50(alone)});` +
    (Number.isFinite(best) ? ` the best peer's p50 / ours: ${(best / t).toFixed(2)}×` : ''));
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
