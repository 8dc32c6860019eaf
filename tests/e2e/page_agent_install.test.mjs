// The page agent (extension/page/agent/) goes to a document once: later calls
// send only a small function. And it lives as long as the document: a new
// document gets it again (old refs are stale), a document back from the
// back/forward cache keeps its refs, and so does every document when the
// service worker restarts.
//
// Ground truth: the extension's service worker, over the DevTools endpoint,
// has its chrome.scripting.executeScript wrapped to log each injection (func
// source + args bytes, or files); the page's state is read through DevTools.
// The byte and call counts are also printed (t.diagnostic) for the record.

import { statSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { CdpConnection, devToolsTargets, extensionWorker, useHarness, waitFor, workerEval } from './harness.mjs';
import { el, refOf, startPageBrowser } from './page_helpers.mjs';

// The most one agent call may send once the agent is installed: the call
// function and its args (the agent itself is ~50 KB).
const CALL_BYTES_MAX = 3000;

const worker = (env) => extensionWorker(env.port);
const swEval = (env, expression) => workerEval(env.port, expression);

// Wraps executeScript in the worker (once per worker) and empties its log.
const startLog = (env) => swEval(env, `(() => {
  const s = chrome.scripting;
  if (!globalThis.__execLog) {
    globalThis.__execLog = [];
    const original = s.executeScript.bind(s);
    s.executeScript = (injection) => {
      globalThis.__execLog.push({
        files: injection.files ?? null,
        func: injection.func?.name ?? null,
        bytes: injection.func ? String(injection.func).length + JSON.stringify(injection.args ?? []).length : 0,
      });
      return original(injection);
    };
  }
  globalThis.__execLog.length = 0;
  return true;
})()`);

// The log since startLog: {calls, installs, bytes (files counted by size on disk), perCall: [bytes]}.
async function readLog(env) {
  const log = JSON.parse(await swEval(env, 'JSON.stringify(globalThis.__execLog)'));
  const agentLog = log.filter((e) => e.func === 'callAgent' || e.func === 'pageAgent' || e.files?.some((f) => f.startsWith('page/agent/')));
  const fileBytes = (files) => files.reduce((n, f) => n + statSync(new URL(f, `file://${env.extensionDir}/`)).size, 0);
  return {
    calls: agentLog.filter((e) => e.func).length,
    installs: agentLog.filter((e) => e.files).length,
    bytes: agentLog.reduce((n, e) => n + (e.files ? fileBytes(e.files) : e.bytes), 0),
    perCall: agentLog.filter((e) => e.func).map((e) => e.bytes),
  };
}

const show = (what, l) => `${what}: ${l.calls + l.installs} executeScript (${l.calls} calls, ${l.installs} installs), ${l.bytes} bytes`;

async function stopWorker(env) {
  const w = await worker(env);
  const version = await (await fetch(`http://127.0.0.1:${env.port}/json/version`)).json();
  const b = await CdpConnection.open(version.webSocketDebuggerUrl);
  try {
    await b.send('Target.closeTarget', { targetId: w.id });
  } finally {
    b.close();
  }
  await waitFor(async () => !(await devToolsTargets(env.port)).some((t) => t.id === w.id), { what: 'the old service-worker target to go' });
}

describe('page agent installed once per document', { timeout: 180_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'agent-install', peer: true });
    env.extensionDir = `${process.env.TABBRIDGE_BUILD_DIR}/share/tabbridge/extension`;
    s = env.s;
  });

  it('snapshot and click: the agent goes to the document once, then each call sends a small function', async (t) => {
    const tab = await env.open('/clicks.html', { t });
    await startLog(env);
    const [snap] = await env.snapshot();
    const first = await readLog(env);
    t.diagnostic(show('first snapshot of a document', first));

    await startLog(env);
    await env.snapshot();
    const again = await readLog(env);
    t.diagnostic(show('snapshot again', again));

    await startLog(env);
    await s.pageOk('click', { ref: refOf(snap, el('button', 'Count me')) });
    const click = await readLog(env);
    t.diagnostic(show('click', click));
    assert.equal(await tab.eval('window.clicks'), 1, 'the click landed');

    assert.equal(first.installs, 1, 'the first snapshot installs the agent');
    assert.equal(first.calls, 1);
    assert.equal(again.installs, 0, 'a second snapshot installs nothing');
    assert.equal(again.calls, 1);
    assert.equal(click.installs, 0, 'a click installs nothing');
    assert.ok(click.calls >= 2, `a click asks the page where (prepare) and how it went (state): ${click.calls} calls`);
    for (const b of [...again.perCall, ...click.perCall]) assert.ok(b < CALL_BYTES_MAX, `one call sent ${b} bytes`);
  });

  it('a page with a cross-site frame: one install per document, then one call per snapshot', async (t) => {
    const tab = await env.open('/iframes.html', { t });
    await tab.frameEval('frame-cross', `document.readyState === 'complete'`);
    await startLog(env);
    const [snap] = await env.snapshot();
    const first = await readLog(env);
    t.diagnostic(show('first snapshot, page with frames', first));
    await startLog(env);
    await env.snapshot();
    const again = await readLog(env);
    t.diagnostic(show('snapshot again, page with frames', again));
    assert.match(snap, /\[ref=f\d+e\d+\]/, 'the cross-site frame is in the snapshot');
    assert.equal(again.installs, 0);
    for (const b of again.perCall) assert.ok(b < CALL_BYTES_MAX, `one call sent ${b} bytes`);
  });

  it('a new document gets the agent again, and the old document\'s refs are stale', async (t) => {
    const tab = await env.open('/clicks.html', { t });
    const [snap] = await env.snapshot();
    const oldRef = refOf(snap, el('button', 'Count me'));
    await s.pageOk('navigate', { url: env.web.url('/b.html') });
    await startLog(env);
    const [, err] = await s.pageErr('click', { ref: oldRef });
    assert.match(err, /stale ref/);
    await env.snapshot();
    const after = await readLog(env);
    t.diagnostic(show('stale click + snapshot of the new document', after));
    assert.equal(after.installs, 1, 'the new document got the agent once');
    assert.match(await tab.eval('location.pathname'), /\/b\.html$/);
  });

  it('a document back from the back/forward cache keeps its refs', async (t) => {
    const tab = await env.open('/clicks.html', { t });
    const [snap] = await env.snapshot();
    const ref = refOf(snap, el('button', 'Count me'));
    await tab.eval(`window.__restored = false; addEventListener('pageshow', (e) => { window.__restored = e.persisted; }); true`);
    await s.pageOk('navigate', { url: env.web.url('/b.html') });
    await s.pageOk('navigate', { action: 'back' });
    await tab.waitEval(`location.pathname === '/clicks.html'`, 'back on clicks.html');
    if (!(await tab.eval('window.__restored === true'))) {
      const why = await tab.eval(`JSON.stringify(performance.getEntriesByType('navigation')[0]?.notRestoredReasons ?? null)`);
      t.skip(`this browser did not restore the page from the back/forward cache: ${why}`);
      return;
    }
    await s.pageOk('click', { ref });
    assert.equal(await tab.eval('window.clicks'), 1, 'the old ref clicked its button');
  });

  it('after a service-worker restart, refs from before still work', async (t) => {
    const tab = await env.open('/clicks.html', { t });
    const [snap] = await env.snapshot();
    const ref = refOf(snap, el('button', 'Count me'));
    await stopWorker(env);
    // The worker's native port went with it, and the host: reconnect.
    await waitFor(async () => !(await s.call('connect_browser', {}, { timeoutMs: 10_000 })).isError,
      { timeoutMs: 30_000, intervalMs: 250, what: 'connect_browser {} to reach the host of the restarted worker' });
    await s.callOk('focus_tab', { tabId: tab.tabId });
    await startLog(env);
    await s.pageOk('click', { ref });
    const after = await readLog(env);
    t.diagnostic(show('first click after a worker restart', after));
    assert.equal(await tab.eval('window.clicks'), 1, 'the ref from before the restart clicked its button');
    assert.equal(after.installs, 1, 'the new worker installed its agent once, over the old one');
  });
});
