// Input in a background tab. open_tab does not bring tabs to the front, and
// after a few frames the browser gives such a tab a frame only about once a
// second; a page takes a mouse move or a wheel turn only at a frame. So every
// input sequence with one runs inside a screencast, which brings the tab back
// to full frame rate (docs/page_tools.md "Background tabs").
//
// Ground truth: the worker's chrome.debugger.sendCommand, wrapped over
// DevTools to log each command in order; the page's hover state and scroll
// position read through DevTools. How fast the moves are is for bench/
// (peers.mjs prints it), not for a test.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness, workerEval } from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';

// Wraps chrome.debugger.sendCommand in the worker (once per worker) and empties its log.
const startLog = (env) => workerEval(env.port, `(() => {
  const d = chrome.debugger;
  if (!globalThis.__cdpLog) {
    globalThis.__cdpLog = [];
    const original = d.sendCommand.bind(d);
    d.sendCommand = (target, method, params, ...rest) => {
      globalThis.__cdpLog.push({ tabId: target.tabId, method, type: params?.type ?? null });
      return original(target, method, params, ...rest);
    };
  }
  globalThis.__cdpLog.length = 0;
  return true;
})()`);

const readLog = async (env, tabId) =>
  JSON.parse(await workerEval(env.port, 'JSON.stringify(globalThis.__cdpLog)')).filter((e) => e.tabId === tabId);

describe('input in a background tab', { timeout: 120_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'background-input' });
    s = env.s;
  });

  it('every mouse move and wheel turn happens inside a screencast, and none is left running', async (t) => {
    const tab = await env.open('/', { t }); // bench-fixture.html: three fields and a button
    await startLog(env);
    // More moves across elements than a background tab gets at full frame rate.
    for (const id of ['name', 'email', 'age', 'submit', 'name', 'email', 'age']) {
      await s.pageOk('hover', { selector: `#${id}` });
      await tab.waitEval(`document.querySelector('#${id}').matches(':hover')`, `#${id} under the mouse`);
    }
    await s.pageOk('click', { selector: '#submit' });
    await tab.waitEval(`document.getElementById('status').textContent === 'submitted 1'`, 'the click to submit the form');
    await s.pageOk('scroll', { dy: 200 });
    await tab.waitEval('window.scrollY > 0', 'the wheel to scroll the page');

    const log = await readLog(env, tab.tabId);
    let casting = false;
    let continuous = 0;
    for (const e of log) {
      if (e.method === 'Page.startScreencast') casting = true;
      else if (e.method === 'Page.stopScreencast') casting = false;
      else if (e.method === 'Input.dispatchMouseEvent' && (e.type === 'mouseMoved' || e.type === 'mouseWheel')) {
        continuous++;
        assert.ok(casting, `${e.type} outside a screencast: ${log.map((x) => x.type ?? x.method).join(', ')}`);
      }
    }
    assert.ok(continuous >= 9, `moves and wheel turns seen: ${continuous}`);
    assert.equal(casting, false, 'the last screencast was stopped');
    const frames = await tab.eval(`new Promise((r) => { let n = 0; const t0 = performance.now();
      const f = () => (++n < 5 ? requestAnimationFrame(f) : r(Math.round(performance.now() - t0))); requestAnimationFrame(f); })`);
    t.diagnostic(`5 animation frames took ${frames} ms after the input (~80 ms at full rate, ~5 s throttled)`);
  });
});
