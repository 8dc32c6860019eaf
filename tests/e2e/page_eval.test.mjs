// evaluate (behind `tabbridge --caps eval`) on a page with a strict CSP
// (script-src 'self': no inline scripts, no eval), and read_page mode html
// (behind --caps html).

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { PAGE_TOOLS_DEFAULT, allText, bodyText, evalValue, startPageBrowser } from './page_helpers.mjs';

describe('evaluate and read_page html (--caps eval,download,html)', { timeout: 120_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'eval', caps: 'eval,download,html' });
    s = env.s;
  });

  const openCsp = (t) => env.open('/csp/csp.html', { t });

  it('--caps eval,download,html lists evaluate and download_file, and read_page offers mode html', async (t) => {
    await openCsp(t);
    const { tools } = await s.client.listTools();
    const names = tools.map((x) => x.name);
    for (const n of [...PAGE_TOOLS_DEFAULT, 'evaluate', 'download_file']) assert.ok(names.includes(n), `${n} missing from ${names}`);
    assert.ok(tools.find((x) => x.name === 'read_page').inputSchema.properties.mode.enum.includes('html'));
  });

  it('precondition: the fixture really has a strict CSP (header sent, inline script and eval blocked)', async (t) => {
    const res = await fetch(env.web.url('/csp/csp.html'));
    assert.equal(res.headers.get('content-security-policy'), "script-src 'self'");
    const tab = await openCsp(t);
    assert.equal(await tab.eval('window.__externalRan === true'), true, "the 'self' script ran");
    assert.equal(await tab.eval('window.__inlineRan === undefined'), true, 'the inline script was blocked');
    // (Asked by the page's own script: DevTools' Runtime.evaluate lifts the eval ban while it runs.)
    assert.equal(await tab.eval('window.__evalFromPage'), 'EvalError', "the page's own eval was blocked");
  });

  it('evaluate 1+1 answers 2 on the strict-CSP page', async (t) => {
    await openCsp(t);
    assert.equal(evalValue(await s.pageOk('evaluate', { expression: '1+1' })), 2);
  });

  it("evaluate sees the page's own state", async (t) => {
    await openCsp(t);
    assert.equal(evalValue(await s.pageOk('evaluate', { expression: 'window.__cspAnswer' })), 42);
  });

  it('evaluate returns objects and arrays as JSON', async (t) => {
    await openCsp(t);
    const v = evalValue(await s.pageOk('evaluate', { expression: `({ title: document.title, list: [1, 'two', null], nested: { ok: true } })` }));
    assert.deepEqual(v, { title: 'Strict CSP', list: [1, 'two', null], nested: { ok: true } });
  });

  it('evaluate runs a function body with return', async (t) => {
    await openCsp(t);
    assert.equal(evalValue(await s.pageOk('evaluate', { expression: 'const a = 6; const b = 7; return a * b;' })), 42);
  });

  it('evaluate awaits a promise', async (t) => {
    await openCsp(t);
    const r = await s.pageOk('evaluate', { expression: `new Promise((resolve) => setTimeout(() => resolve('late-value'), 50))` });
    assert.equal(evalValue(r), 'late-value');
  });

  it('evaluate changes the page (seen through DevTools)', async (t) => {
    const tab = await openCsp(t);
    await s.pageOk('evaluate', { expression: `document.getElementById('marker').textContent = 'set by evaluate'` });
    assert.equal(await tab.eval(`document.getElementById('marker').textContent`), 'set by evaluate');
  });

  it('a thrown error is isError with its message', async (t) => {
    await openCsp(t);
    const [, text] = await s.pageErr('evaluate', { expression: `throw new Error('kaboom-4711')` });
    assert.match(text, /kaboom-4711/);
  });

  it('a rejected promise is isError with its message', async (t) => {
    await openCsp(t);
    const [, text] = await s.pageErr('evaluate', { expression: `Promise.reject(new Error('rejected-4712'))` });
    assert.match(text, /rejected-4712/);
  });

  it('a syntax error is isError', async (t) => {
    await openCsp(t);
    const [, text] = await s.pageErr('evaluate', { expression: '1 +* 2' });
    assert.match(text, /syntax/i);
  });

  it('the tab still works after a failed evaluate', async (t) => {
    await openCsp(t);
    await s.pageErr('evaluate', { expression: `throw new Error('first')` });
    assert.equal(evalValue(await s.pageOk('evaluate', { expression: '2+3' })), 5);
  });

  it('read_page mode html returns the HTML of the page', async (t) => {
    await openCsp(t);
    const text = bodyText(await s.pageOk('read_page', { mode: 'html' }));
    assert.match(text, /<h1[^>]*>Strict CSP<\/h1>/);
    assert.match(text, /<p id="marker"/);
  });

  it('read_page mode html with a selector returns that element', async (t) => {
    await openCsp(t);
    const r = await s.pageOk('read_page', { mode: 'html', selector: '#marker' });
    const text = allText(r);
    assert.match(text, /<p id="marker"/);
    assert.doesNotMatch(text, /<h1/);
  });
});
