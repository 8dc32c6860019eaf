// Page-tool failures: each one a tool result with isError and a message that
// says what to do next, never a hang, never a wedged tab.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { closeTargetFromBrowser, useHarness } from './harness.mjs';
import { el, refOf, startPageBrowser } from './page_helpers.mjs';

describe('page tool errors', { timeout: 150_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'errors' });
    s = env.s;
  });

  it('a ref from before a navigation is stale: "stale ref … take a new snapshot"', async (t) => {
    const tab = await env.open('/controls.html', { t });
    const [snap] = await env.snapshot();
    const ref = refOf(snap, el('button', 'Add one'));
    // Navigate behind tabbridge's back (the page itself moves on).
    await tab.eval(`location.href = ${JSON.stringify(env.web.url('/b.html'))}`);
    await tab.waitEval(`location.pathname === '/b.html' && document.readyState === 'complete'`, 'the tab on /b.html');
    const [, text] = await s.pageErr('click', { ref });
    assert.match(text, /stale/i);
    assert.match(text, /snapshot/i);
  });

  it('after a new snapshot the refs work again', async (t) => {
    const tab = await env.open('/controls.html', { t });
    await env.snapshot();
    await tab.eval(`location.reload()`);
    await tab.waitEval(`document.readyState === 'complete' && performance.getEntriesByType('navigation')[0]?.type === 'reload'`, 'the reload');
    const [snap] = await env.snapshot();
    await s.pageOk('click', { ref: refOf(snap, el('button', 'Add one')) });
    await tab.waitEval(`document.getElementById('count').textContent === '1'`, 'count 1');
  });

  it('a ref never handed out is a tool error that points to snapshot', async (t) => {
    await env.open('/controls.html', { t });
    await env.snapshot();
    const [, text] = await s.pageErr('click', { ref: 'e987654' });
    assert.match(text, /snapshot/i);
  });

  it('a selector that matches nothing is a tool error naming the selector', async (t) => {
    await env.open('/controls.html', { t });
    const [, text] = await s.pageErr('click', { selector: '#no-such-element' });
    assert.match(text, /#no-such-element/);
  });

  it('an invalid CSS selector is a tool error', async (t) => {
    await env.open('/controls.html', { t });
    await s.pageErr('click', { selector: 'div[[' });
  });

  it('click with neither ref nor selector is a tool error', async (t) => {
    await env.open('/controls.html', { t });
    const [, text] = await s.pageErr('click', {});
    assert.match(text, /ref|selector/i);
  });

  it('select_option on an element that is not a <select> is a tool error', async (t) => {
    await env.open('/controls.html', { t });
    await s.pageErr('select_option', { selector: '#plus', values: ['x'] });
  });

  it('select_option with a value the select does not have is a tool error', async (t) => {
    const tab = await env.open('/controls.html', { t });
    const [, text] = await s.pageErr('select_option', { selector: '#color', values: ['purple'] });
    assert.match(text, /purple/);
    assert.equal(await tab.eval(`document.getElementById('color').value`), 'r', 'the selection did not move');
  });

  it('wait_for that never comes true fails with a timeout message after timeoutMs', async (t) => {
    await env.open('/a.html', { t });
    const [, text] = await s.pageErr('wait_for', { selector: '#never-there', timeoutMs: 300 });
    assert.match(text, /time(d)? ?out/i);
  });

  it('wait_for with neither selector nor text is a tool error', async (t) => {
    await env.open('/a.html', { t });
    await s.pageErr('wait_for', { timeoutMs: 300 });
  });

  it('navigate with neither url nor action is a tool error', async (t) => {
    await env.open('/a.html', { t });
    await s.pageErr('navigate', {});
  });

  it('navigate to a closed port is a tool error naming the network error', async (t) => {
    await env.open('/a.html', { t });
    const [, text] = await s.pageErr('navigate', { url: `http://127.0.0.1:${env.closedPort}/` });
    assert.match(text, /ERR_CONNECTION_REFUSED|refused/i);
  });

  it('an argument the tool does not take is a tool error naming it', async (t) => {
    await env.open('/a.html', { t });
    const [, text] = await s.pageErr('snapshot', { bogus: 1 });
    assert.match(text, /bogus/);
  });

  it('evaluate without --caps eval is a tool error naming --caps', async (t) => {
    await env.open('/a.html', { t });
    const [, text] = await s.pageErr('evaluate', { expression: '1' });
    assert.match(text, /--caps/);
  });

  it('read_page mode html without --caps html is a tool error', async (t) => {
    await env.open('/a.html', { t });
    const [, text] = await s.pageErr('read_page', { mode: 'html' });
    assert.match(text, /mode/);
  });

  it('a page tool on a tab the user closed fails at once (no hang), and the session goes on', async () => {
    const tab = await env.open('/a.html');
    await closeTargetFromBrowser(env.port, tab.targetId);
    await s.pageErr('snapshot', {});
    const fresh = await env.open('/b.html');
    await s.pageOk('snapshot', {});
    await fresh.close();
  });

  it('a page tool in flight when the user closes the tab fails (no hang)', async () => {
    const tab = await env.open('/a.html');
    const pending = s.call('wait_for', { selector: '#never-there', timeoutMs: 60_000 }, { timeoutMs: 30_000 });
    // Whether or not the request has reached the page yet, it must fail once
    // the tab is gone — the call is given 30 s, half its own timeoutMs.
    await closeTargetFromBrowser(env.port, tab.targetId);
    const r = await pending;
    assert.equal(r.isError, true, `the call should fail: ${JSON.stringify(r)}`);
  });

  it('the tab keeps working after a string of errors', async (t) => {
    const tab = await env.open('/controls.html', { t });
    await s.pageErr('click', { selector: '#nope' });
    await s.pageErr('wait_for', { selector: '#nope', timeoutMs: 200 });
    await s.pageOk('click', { selector: '#plus' });
    await tab.waitEval(`document.getElementById('count').textContent === '1'`, 'count 1');
  });
});
