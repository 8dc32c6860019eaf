// The doors loop of tests/e2e/browser_survives.test.mjs WITHOUT tabbridge
// (issue 30): DOORS_BROWSERS headless Chromiums (default 3), no extension,
// each with --enable-features=WebMCP and a DevTools port, each looping at
// once over CDP: the page calls its own declarative tool
// (document.modelContext.executeTool of openDoor1, or
// navigator.modelContextTesting.executeTool where that is what the browser
// has), the tab loads doors-forest.html, its text is read, the targets are
// listed, Page.navigate goes back to the hallway. Prints, per browser, the
// iterations done and how the browser ended (signal 4 is the CHECK's SIGILL).
// The loop alone loses no browser; a page that lists its tools
// (DOORS_GETTOOLS below) makes Chromium 156 kill its browser process
// (SIGILL, a CHECK) whenever a getTools() comes from a document after its
// pagehide, on its way into the back/forward cache (issue 30,
// docs/behaviour.md). A lost browser's profile (and its log) is kept.
// DOORS_DEBUGGER=1 keeps a second CDP session attached to the page through
// the browser endpoint (Target.attachToTarget, flatten) with Network and
// Page enabled on it, as chrome.debugger does for an extension.
// A diagnostic, not a test: nothing here fails on time.
// Usage: node bench/doors_cdp.mjs   (DOORS_BROWSERS=3 DOORS_ITERATIONS=60 DOORS_RUNS=1)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const { BASE_BROWSER_ARGS, BROWSER_PATH, CdpConnection, devToolsPort, devToolsTargets, startFixtureServer, targetWsUrl, waitFor } =
  await import('../tests/e2e/harness.mjs');

const BROWSERS = Number(process.env.DOORS_BROWSERS || 3);
const ITERATIONS = Number(process.env.DOORS_ITERATIONS || 60);
const RUNS = Number(process.env.DOORS_RUNS || 1);
const DEBUGGER = process.env.DOORS_DEBUGGER === '1';
const STEP_MS = 60_000;
// DOORS_GETTOOLS=1 (or =hidden, below): every document lists its tools the way a WebMCP client in
// the page would (tabbridge's own_tools_main.js did): document.modelContext.getTools()
// at DOMContentLoaded, at load, and 150 ms after each toolchange event.
// DOORS_GETTOOLS=hidden: also on pagehide and in the 300 ms after it, from
// the document on its way out (what tabbridge's lister could do before issue
// 30's fix: a debounced relist firing after pagehide); =guarded: as 1, but
// nothing between pagehide and pageshow (the fix, own_tools_main.js).
const GETTOOLS = process.env.DOORS_GETTOOLS ?? '';
const LISTER = `(() => {
  const mc = document.modelContext;
  if (!mc) return;
  let hidden = false;
  if (${JSON.stringify(GETTOOLS)} === 'guarded') {
    addEventListener('pagehide', () => { hidden = true; });
    addEventListener('pageshow', () => { hidden = false; });
  }
  const list = () => { if (!hidden) mc.getTools().catch(() => {}); };
  let t = null;
  mc.addEventListener('toolchange', () => { clearTimeout(t); t = setTimeout(list, 150); });
  document.addEventListener('DOMContentLoaded', list);
  addEventListener('load', list);
  if (${JSON.stringify(GETTOOLS)} === 'hidden') {
    addEventListener('pagehide', () => { list(); for (const ms of [0, 20, 50, 100, 150, 300]) setTimeout(list, ms); });
  }
})()`;

// The page's own call, not awaited: the submit replaces the document that runs it.
const CALL_DOOR = (knock) => `(() => {
  const args = { knock: ${JSON.stringify(knock)}, lantern: 'yes' };
  const t = navigator.modelContextTesting;
  if (t && typeof t.executeTool === 'function') {
    t.executeTool('openDoor1', JSON.stringify(args)).catch(() => {});
    return 'modelContextTesting';
  }
  const mc = document.modelContext;
  if (!mc) throw new Error('no WebMCP here');
  mc.getTools().then((tools) => mc.executeTool(tools.find((x) => x.name === 'openDoor1'), args)).catch(() => {});
  return 'modelContext';
})()`;

async function evaluateSoft(cdp, expression) {
  try {
    return await cdp.evaluate(expression);
  } catch {
    return undefined; // between documents
  }
}

async function oneBrowser(web, k, run) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tb-doors-cdp-'));
  const hallway = web.url('/doors-hallway.html');
  const child = spawn(BROWSER_PATH, [...BASE_BROWSER_ARGS, '--enable-features=WebMCP', '--remote-debugging-port=0',
    `--user-data-dir=${profile}`, '--enable-logging=stderr', '--v=0', 'about:blank'], { stdio: ['ignore', 'ignore', fs.openSync(path.join(profile, 'browser.log'), 'a')] });
  let exit = null;
  child.on('exit', (code, signal) => { exit = { code, signal }; });
  const out = { browser: k, run, done: 0, api: null, exit: null, error: null, log: path.join(profile, 'browser.log') };
  let cdp = null;
  let watcher = null;
  try {
    const port = await devToolsPort({ profileDir: profile, browserPid: child.pid });
    const page = await waitFor(async () => (await devToolsTargets(port)).find((t) => t.type === 'page'), { what: 'a page target' });
    cdp = await CdpConnection.open(targetWsUrl(port, page), { timeoutMs: STEP_MS });
    if (GETTOOLS) {
      await cdp.send('Page.enable');
      await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: LISTER });
    }
    await cdp.send('Page.navigate', { url: hallway });
    if (DEBUGGER) {
      const version = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
      watcher = await CdpConnection.open(version.webSocketDebuggerUrl, { timeoutMs: STEP_MS });
      const { sessionId } = await watcher.send('Target.attachToTarget', { targetId: page.id, flatten: true });
      watcher.ws.send(JSON.stringify({ id: 900001, sessionId, method: 'Network.enable', params: {} }));
      watcher.ws.send(JSON.stringify({ id: 900002, sessionId, method: 'Page.enable', params: {} }));
    }
    for (let i = 0; i < ITERATIONS; i++) {
      if (exit) break;
      await waitFor(async () => (await evaluateSoft(cdp, `location.pathname === '/doors-hallway.html' && document.readyState === 'complete'`)) === true,
        { timeoutMs: STEP_MS, what: 'the hallway' });
      const knock = `b${k}r${run}i${i}`;
      out.api = await cdp.evaluate(CALL_DOOR(knock));
      await waitFor(async () => exit || (await evaluateSoft(cdp, `location.search.includes(${JSON.stringify(knock)}) && document.readyState === 'complete'`)) === true,
        { timeoutMs: STEP_MS, what: `the forest (${knock})` });
      if (exit) break;
      await cdp.evaluate('document.body.innerText');
      await devToolsTargets(port);
      await cdp.send('Page.navigate', { url: hallway });
      out.done = i + 1;
    }
  } catch (err) {
    out.error = err.message.split('\n')[0];
  } finally {
    cdp?.close();
    watcher?.close();
    if (!exit) {
      child.kill('SIGKILL');
      await waitFor(() => exit, { what: 'the browser to exit' }).catch(() => {});
    } else {
      out.exit = exit.signal ?? `status ${exit.code}`;
    }
    if (!out.exit) fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
  return out;
}

const web = await startFixtureServer();
let lost = 0;
let total = 0;
for (let run = 1; run <= RUNS; run++) {
  const results = await Promise.all(Array.from({ length: BROWSERS }, (_, k) => oneBrowser(web, k + 1, run)));
  for (const r of results) {
    total++;
    if (r.exit) lost++;
    console.log(`run ${run} browser ${r.browser}: ${r.done}/${ITERATIONS} iterations (${r.api}), ` +
      `${r.exit ? `LOST (${r.exit}), log ${r.log}` : 'alive'}${r.error ? `; ${r.error}` : ''}`);
  }
}
console.log(`browsers lost: ${lost} of ${total} (${BROWSERS} at once, ${ITERATIONS} iterations, debugger ${DEBUGGER ? 'attached' : 'not attached'}, getTools ${{ hidden: 'on every load and pagehide', guarded: 'on every load, none after pagehide', 1: 'on every load' }[GETTOOLS] ?? 'only before the call'})`);
await web.close();
