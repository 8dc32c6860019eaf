// Deadlines and cancellation (issue 8): a call on a hung renderer answers
// isError by its deadline and what it would have done does not happen once the
// page runs again; a click cancelled (MCP notifications/cancelled, through the
// SDK's AbortSignal) or timed out while the page was hung does not click
// afterwards. The page is hung by a script that spins forever and freed by the
// test through DevTools (Runtime.terminateExecution); the page counts clicks.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { CdpConnection, errorText, useHarness, waitFor } from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';

const HUNG = /not respond|did not answer|did not take|busy|hung|timed out|ran out of time/i;

describe('deadlines and cancellation', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'deadlines' });
    s = env.s;
  });

  /**
   * A DevTools session on the tab, attached while the page still runs (a hung
   * page cannot take a new one): its unhang() ends whatever script the page is
   * stuck in and resolves once the page answers again.
   */
  async function devtools(tab, t) {
    const c = await CdpConnection.open(tab.wsUrl);
    t.after(() => c.close());
    await c.evaluate('1');
    return {
      send: (method, params) => c.send(method, params),
      async unhang() {
        await c.send('Runtime.terminateExecution');
        await tab.waitEval('true', 'the page to answer again');
      },
    };
  }

  /** Opens clicks.html whose first mousemove over #target hangs the page; returns [tab, devtools, waitHung]. */
  async function openHangOnMove(t) {
    const key = `hang-${Date.now()}-${Math.random()}`;
    const tab = await env.open(`/clicks.html?hang=${encodeURIComponent(key)}`, { t });
    const hung = () => waitFor(() => env.web.queriesOf('/status/204').some((q) => q.mark === key),
      { what: 'the page to hang in its mousemove handler' });
    return [tab, await devtools(tab, t), hung];
  }

  /** After the page runs again: a hover elsewhere is the next event it takes; no click on #target before it. */
  async function assertNoClickAfter(tab) {
    await s.pageOk('hover', { selector: '#other' });
    await tab.waitEval(`window.events.includes('mousemove other')`, 'the page took the later hover');
    const events = await tab.eval('window.events');
    assert.equal(await tab.eval('window.clicks'), 0, `the click did not land afterwards; events: ${events.join(', ')}`);
    assert.ok(!events.includes('mousedown target'), `no mousedown on #target: ${events.join(', ')}`);
  }

  it('a click cancelled while the page is hung does not click once the page runs again', async (t) => {
    const [tab, dt, hung] = await openHangOnMove(t);
    const abort = new AbortController();
    const call = s.client.callTool({ name: 'click', arguments: { selector: '#target' } }, undefined,
      { signal: abort.signal, timeout: 60_000 });
    await hung();
    abort.abort('the test cancels');
    await assert.rejects(call, 'the SDK ends the cancelled request');
    // notifications/cancelled reaches the extension before any later request on
    // the same links: open_tab is one the extension answers.
    const other = await s.callOk('open_tab', { url: env.web.url('/a.html'), focus: false });
    await s.call('close_tab', { tabId: other.tab.id });
    await dt.unhang();
    await assertNoClickAfter(tab);
  });

  it('a click that times out while the page is hung answers isError and does not click afterwards', async (t) => {
    const [tab, dt, hung] = await openHangOnMove(t);
    const call = s.call('click', { selector: '#target' }, { timeoutMs: 60_000 });
    await hung();
    const r = await call;
    assert.equal(r.isError, true, JSON.stringify(r));
    assert.match(errorText(r), HUNG, errorText(r));
    await dt.unhang();
    await assertNoClickAfter(tab);
  });

  it('calls on a hung renderer answer isError by their deadline; their effects do not happen later', async (t) => {
    const tab = await env.open('/clicks.html', { t });
    const dt = await devtools(tab, t);
    await dt.send('Runtime.evaluate', { expression: 'setTimeout(() => { for (;;) {} }, 0); 1' });
    const calls = {
      click: s.call('click', { selector: '#target' }, { timeoutMs: 60_000 }),
      select_option: s.call('select_option', { selector: '#pick', values: ['two'] }, { timeoutMs: 60_000 }),
      screenshot: s.call('screenshot', {}, { timeoutMs: 60_000 }),
      snapshot: s.call('snapshot', {}, { timeoutMs: 60_000 }),
    };
    for (const [name, call] of Object.entries(calls)) {
      const r = await call;
      assert.equal(r.isError, true, `${name} on a hung page: ${JSON.stringify(r).slice(0, 300)}`);
      assert.match(errorText(r), HUNG, `${name} says the page is not responding: ${errorText(r)}`);
    }
    await dt.unhang();
    // The scripts queued for the hung page run now; past their deadline they do nothing.
    await s.pageOk('snapshot');
    assert.equal(await tab.eval(`document.getElementById('pick').value`), 'one', 'the late select_option did not select');
    await assertNoClickAfter(tab);
  });

  it('navigate (reload) of a hung page answers by its timeout that the page is not responding, and what to do', async (t) => {
    const tab = await env.open('/clicks.html', { t });
    const dt = await devtools(tab, t);
    await dt.send('Runtime.evaluate', { expression: 'setTimeout(() => { for (;;) {} }, 0); 1' });
    const r = await s.call('navigate', { action: 'reload', timeoutMs: 3000 }, { timeoutMs: 60_000 });
    const text = errorText(r);
    assert.equal(r.isError, true, text);
    assert.match(text, /not responding/, text);
    assert.match(text, /close_tab/, `says how to get out: ${text}`);
    // (The tab, still hung, is closed after the test: that always works.)
  });
});
