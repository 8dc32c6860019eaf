// Scale (issue 22): a page of 10,000 interactive rows (fixtures/rows-10k.html:
// a link, a checkbox and a button each, between landmarks, headings and a
// filter form). snapshot's first page, scrolled to the middle, is within
// maxChars and shows what is on screen and the page's landmarks and headings,
// with a cursor; the cursor walks the whole page in document order to the last
// row, whose ref clicks row 10,000 (a trusted click the page recorded);
// read_page, wait_for, fill_form and the page's own form tool work there; and
// list_tabs lists 100 open tabs. Timings are printed (t.diagnostic), never
// asserted: bench/ measures speed.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { stepper, useHarness, waitFor, workerEval } from './harness.mjs';
import { bodyText, el, nextCursor, refOf, startPageBrowser, textBytes } from './page_helpers.mjs';
import { waitOwnNames } from './own_tools_helpers.mjs';
import { unfold } from '../../extension/tools/shared/snapshot_unfold.js';

const ROWS = 10_000;
const MAX_CHARS = 20_000; // snapshot's default maxChars (common/tool_catalog.cpp)
const openButton = (n) => el('button', `Open order ${n}`);

describe('a page of 10,000 rows', { timeout: 240_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let env;
  let tab;
  let overview; // the first snapshot page's text
  const opened = []; // ids of the tabs the list_tabs test opened

  before(async () => {
    // Tabs share two renderers: opening the list_tabs test's 100 tabs then takes seconds, not tens.
    env = await startPageBrowser(h, { name: 'scale', extraBrowserArgs: ['--renderer-process-limit=2'] });
    tab = await env.open('/rows-10k.html');
  });
  const closeOpened = () => workerEval(env.port, `chrome.tabs.remove(${JSON.stringify(opened.splice(0))})`);
  after(async () => {
    if (opened.length) await closeOpened().catch(() => {});
  });

  const timed = async (t, what, call) => {
    const t0 = Date.now();
    const r = await call();
    t.diagnostic(`${what}: ${Date.now() - t0} ms${r?.content ? `, ${textBytes(r)} bytes` : ''}`);
    return r;
  };

  it('the first snapshot page, scrolled to row 5,000, fits maxChars and shows the rows on screen and the landmarks and headings', step(async (t) => {
    await tab.eval(`document.querySelector('button[data-n="5000"]').scrollIntoView({ block: 'center' })`);
    // The rows whose button the viewport shows, by the page's own measure.
    const onScreen = await tab.eval(`[...document.querySelectorAll('button[data-n]')]
      .filter((b) => { const r = b.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })
      .map((b) => +b.dataset.n)`);
    assert.ok(onScreen.includes(5000) && onScreen.length < 100, `rows on screen: ${onScreen}`);
    const r = await timed(t, 'snapshot, first page', () => env.s.pageOk('snapshot', {}));
    overview = bodyText(r);
    assert.ok(overview.length <= MAX_CHARS, `the first page is ${overview.length} chars (maxChars ${MAX_CHARS})`);
    for (const n of onScreen) refOf(overview, openButton(n)); // each on-screen row's button, with a ref
    for (const n of [1, 200, 4000, 6000, ROWS]) assert.doesNotMatch(overview, openButton(n), `row ${n} is off screen`);
    for (const line of ['- banner:', '- heading "Orders" [level=1]', '- navigation "Sections":', '- form "Filter orders":',
      '- heading "All orders" [level=2]', '- heading "Summary" [level=2]', '- contentinfo:']) {
      assert.ok(overview.includes(line), `the outline has ${line}:\n${overview}`);
    }
    refOf(overview, el('link', 'Summary')); // a small landmark (the navigation) is shown whole
    assert.match(overview, /what is on screen/);
    assert.ok(nextCursor(r), `a cursor for the rest:\n${overview.slice(-400)}`);
  }));

  // 1,500 rows are 7,500 elements, under maxChars / 2: walked whole, too long
  // for one page even folded (a line per row).
  it('a page of 1,500 rows, walked whole, also opens on its overview, with its line count', step(async (t) => {
    const small = await env.open('/rows-10k.html?n=1500', { t });
    await small.eval(`document.querySelector('button[data-n="150"]').scrollIntoView({ block: 'center' }); true`);
    const r = await timed(t, 'snapshot of 1,500 rows, first page', () => env.s.pageOk('snapshot', {}));
    const text = bodyText(r);
    refOf(text, openButton(150));
    assert.doesNotMatch(text, openButton(1));
    assert.match(text, /\(the whole page, 1,5\d\d lines in document order: call snapshot with cursor "s\d+:0"/);
    await env.s.callOk('focus_tab', { tabId: tab.tabId });
  }));

  it('the cursor walks the whole page in document order; the last row\'s ref clicks row 10,000', step(async (t) => {
    const first = await timed(t, 'snapshot again, first page', () => env.s.pageOk('snapshot', {}));
    const screenRef = refOf(bodyText(first), openButton(5000));
    let cursor = nextCursor(first);
    let pages = 0;
    let text = '';
    const t0 = Date.now();
    while (cursor) {
      const r = pages ? await env.s.pageOk('snapshot', { cursor }) // the first walks the whole page
        : await timed(t, 'snapshot, the cursor\'s first page', () => env.s.pageOk('snapshot', { cursor }));
      const body = bodyText(r);
      assert.ok(body.length <= MAX_CHARS, `page ${pages + 1} is ${body.length} chars`);
      text += body;
      cursor = nextCursor(r);
      assert.ok(++pages <= 200, 'more than 200 pages: the cursor does not advance');
    }
    t.diagnostic(`the cursor's ${pages} pages: ${Date.now() - t0} ms`);
    const full = unfold(text).join('\n'); // the rows are folded (page/agent/fold.js): read as the lines they stand for
    assert.ok(full.indexOf('- heading "Orders"') < full.indexOf('"Open order 1"'), 'document order: the header comes first');
    assert.equal(refOf(text, openButton(5000)), screenRef, 'row 5,000 keeps its ref on the cursor\'s pages');
    const last = refOf(text, openButton(ROWS));
    await timed(t, 'click on row 10,000', () => env.s.pageOk('click', { ref: last }));
    assert.deepEqual(await tab.eval('window.opened'), [ROWS], 'the page got one trusted click, on row 10,000');
  }));

  it('read_page: markdown, text and links answer their first page with a cursor', step(async (t) => {
    const md = await timed(t, 'read_page markdown', () => env.s.pageOk('read_page', {}));
    assert.match(bodyText(md), /\[Order 1\]\(/);
    assert.ok(nextCursor(md), 'markdown has more pages');
    const text = await timed(t, 'read_page text', () => env.s.pageOk('read_page', { mode: 'text' }));
    assert.match(bodyText(text), /Open order 1\b/);
    const links = await timed(t, 'read_page links', () => env.s.pageOk('read_page', { mode: 'links' }));
    assert.match(bodyText(links), /\[Order 1\]/);
  }));

  it('wait_for finds text that appears at the end of the page', step(async (t) => {
    await tab.eval(`document.getElementById('end').textContent = '';
      setTimeout(() => { document.getElementById('end').textContent = 'Checked all 10000 orders'; }, 300); true`);
    const r = await timed(t, 'wait_for text', () => env.s.pageOk('wait_for', { text: 'Checked all 10000 orders' }));
    assert.equal(r.structuredContent?.matched, true, JSON.stringify(r.structuredContent));
    assert.match(r.structuredContent.element, /<p id="end">/);
  }));

  it('fill_form fills the filter form by refs from the first snapshot page', step(async (t) => {
    const customer = refOf(overview, el('textbox', 'Customer'));
    const status = refOf(overview, el('combobox', 'Status'));
    await timed(t, 'fill_form', () => env.s.pageOk('fill_form', { fields: [{ ref: customer, value: 'Ann' }, { ref: status, value: 'Shipped' }] }));
    const values = await tab.eval(`[document.querySelector('[name=customer]').value, document.querySelector('[name=status]').value]`);
    assert.deepEqual(values, ['Ann', 'shipped']);
  }));

  it('the page\'s own form tool submits the filter form', step(async (t) => {
    await waitOwnNames(env.s, ['form_filter_orders'], 'form_filter_orders in tools/list');
    await timed(t, 'form_filter_orders', () => env.s.pageOk('form_filter_orders', { customer: 'Bo', status: 'open' }));
    await waitFor(() => env.web.queriesOf('/search').length > 0, { what: 'the filter form to reach /search' });
    assert.deepEqual(env.web.queriesOf('/search').at(-1), { customer: 'Bo', status: 'open' });
  }));

  // Not a step: it needs none of the above.
  it('list_tabs lists all of 100 open tabs', async (t) => {
    const have = (await env.s.listTabs()).tabs.length;
    const urls = Array.from({ length: 100 - have }, (_, i) => env.web.url(`/a.html?tab=${i + 1}`));
    // In one call, in the background, as a user opening tabs (not a tool call each).
    opened.push(...await workerEval(env.port,
      `Promise.all(${JSON.stringify(urls)}.map((url) => chrome.tabs.create({ url, active: false }).then((tab) => tab.id)))`));
    await waitFor(async () => {
      const { tabs } = await env.s.listTabs();
      return urls.every((u) => tabs.some((x) => x.url === u));
    }, { what: 'list_tabs to show the 100 tabs' });
    const r = await timed(t, 'list_tabs with 100 tabs', () => env.s.pageOk('list_tabs', {}));
    assert.equal(r.structuredContent.tabs.length, 100);
    await closeOpened();
  });
});
