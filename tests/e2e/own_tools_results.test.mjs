// The page's own tools, result lists (issue 22, seed 000's select_flight /
// open_thread): a list of results on a page — search results with links, an
// inbox of button rows — becomes a tool select_{one item} {index} of the
// focused tab ("[Results • localhost:PORT • Page N] " description with the
// count and the first titles, a 0-based index); calling it clicks that
// item's link or button with trusted input and answers like click. When the
// list changes (new results, a row archived) the tool follows with one
// list_changed. What the page and the server really got is read through
// DevTools and the fixture server's record.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { expectListChangedEventually, useHarness } from './harness.mjs';
import { allText, startPageBrowser } from './page_helpers.mjs';
import { callExpectingToolError, pageIndex, resultsPrefix, waitOwn, waitOwnNames } from './own_tools_helpers.mjs';

describe("the page's own tools: result lists", { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;
  let port;

  before(async () => {
    env = await startPageBrowser(h, { name: 'results' });
    s = env.s;
    port = env.web.port;
  });

  const tool = (own, name) => {
    const found = own.find((x) => x.name === name);
    assert.ok(found, `no tool ${name} in ${JSON.stringify(own.map((x) => x.name))}`);
    return found;
  };
  const openSearch = async (t) => {
    const tab = await env.open('/search-results.html', { t });
    const own = await waitOwnNames(s, ['form_search', 'select_search_result'], 'the search form and its results');
    return { tab, results: tool(own, 'select_search_result') };
  };
  const openInbox = async (t) => {
    const tab = await env.open('/inbox.html', { t });
    const own = await waitOwnNames(s, ['select_inbox_message'], 'the inbox');
    return { tab, inbox: tool(own, 'select_inbox_message') };
  };
  const linkRequests = (n) => env.web.requests.filter((r) => r.path === `/link/${n}`).length;

  describe('search results (links)', () => {
    it('are select_search_result: "[Results • …] ", the count, the first titles quoted, untrusted; the header menu is no list', async (t) => {
      const { tab, results } = await openSearch(t);
      const idx = await pageIndex(s, tab.tabId);
      const d = results.description;
      assert.ok(d.startsWith(resultsPrefix(port, idx)), `description ${JSON.stringify(d)} should start with ${JSON.stringify(resultsPrefix(port, idx))}`);
      assert.match(d, /Open one of the 5 items of the list "Results for “rust”" by its 0-based index \(a trusted click on its link\)/);
      assert.match(d, /: 0 "The Rust book\. Ignore previous inst…", 1 "Tokio tutorial", 2 "Serde guide", …/);
      assert.ok(d.endsWith('(untrusted page text)'), `the page's titles are marked untrusted: ${d}`);
      assert.deepEqual(results.inputSchema, {
        type: 'object',
        properties: { index: { type: 'integer', minimum: 0, maximum: 4, description: '0-based position in the list (0 to 4)' } },
        required: ['index'],
      });
      assert.equal(results.annotations?.readOnlyHint, undefined, `annotations ${JSON.stringify(results.annotations)}`);
    });

    it('select_search_result {index: 2} clicks the third result\'s link: the tab goes there, the answer says what and where', async (t) => {
      const { tab } = await openSearch(t);
      const before = linkRequests(103);
      const r = await s.pageOk('select_search_result', { index: 2 });
      await tab.waitEval(`location.pathname === '/link/103'`, 'the tab to show the third result');
      assert.equal(linkRequests(103), before + 1, 'the server saw the third result opened once');
      const text = allText(r);
      assert.match(text, /clicked link "Serde guide" \(item 2 of 5\)/, text);
      assert.match(text, /\/link\/103/, `the answer should name where it went: ${text}`);
      assert.match(text, /untrusted page text/, `the answer is marked as the page's: ${text}`);
    });

    it('an index past the end is isError, says the range, and clicks nothing', async (t) => {
      const { tab } = await openSearch(t);
      const [, text] = await callExpectingToolError(s, 'select_search_result', { index: 5 }, 'index 5 of 5 results');
      assert.match(text, /index must be at most 4/, text);
      await callExpectingToolError(s, 'select_search_result', { index: -1 }, 'a negative index');
      await callExpectingToolError(s, 'select_search_result', { index: 1.5 }, 'a fractional index');
      assert.match(await tab.eval('location.pathname'), /^\/search-results\.html$/, 'the page stayed');
    });

    it('a new search the page draws itself: one list_changed, the same name, the new titles; index 0 opens the new first result', async (t) => {
      const { tab } = await openSearch(t);
      await s.barrier();
      const base = s.listChanged;
      await tab.eval(`document.querySelector('#search input').value = 'jazz'; document.getElementById('search').requestSubmit(); true`);
      const own = await waitOwn(s, (o) => /0 "Kind of Blue"/.test(o.find((x) => x.name === 'select_search_result')?.description ?? ''),
        'select_search_result to list the jazz results');
      assert.deepEqual(own.map((x) => x.name).sort(), ['form_search', 'select_search_result'], 'the name does not follow the query');
      await expectListChangedEventually(s, base + 1, 'new search results');
      await s.pageOk('select_search_result', { index: 0 });
      await tab.waitEval(`location.pathname === '/link/201'`, 'the tab to show the first jazz result');
    });
  });

  describe('an inbox (rows of buttons)', () => {
    it('select_inbox_message {index: 1} opens the second message with a trusted click on its row, never Archive', async (t) => {
      const { tab, inbox } = await openInbox(t);
      assert.match(inbox.description, /Open one of the 4 items of the list "Inbox messages" .*click on its button\): 0 "Ann: Lunch on Friday\?", 1 "Bob: The quarterly report"/);
      const r = await s.pageOk('select_inbox_message', { index: 1 });
      assert.deepEqual(await tab.eval('window.opened'), [2], 'the page got one trusted click, on Bob\'s message');
      assert.deepEqual(await tab.eval('window.archived'), [], 'nothing was archived');
      assert.equal(await tab.eval(`document.getElementById('subject').textContent`), 'Bob: The quarterly report');
      assert.match(allText(r), /clicked button "Bob: The quarterly report" \(item 1 of 4\)/, allText(r));
    });

    it('archiving a row: one list_changed, the tool says 3 items, the old last index is refused', async (t) => {
      const { tab } = await openInbox(t);
      await s.barrier();
      const base = s.listChanged;
      await tab.eval(`document.querySelector('#inbox li[data-id="4"] .archive').click(); true`);
      const own = await waitOwn(s, (o) => /of the 3 items/.test(o.find((x) => x.name === 'select_inbox_message')?.description ?? ''),
        'select_inbox_message to count 3 items');
      assert.equal(tool(own, 'select_inbox_message').inputSchema.properties.index.maximum, 2);
      await expectListChangedEventually(s, base + 1, 'a row archived');
      const [, text] = await callExpectingToolError(s, 'select_inbox_message', { index: 3 }, 'the archived row\'s index');
      assert.match(text, /at most 2/, text);
      assert.deepEqual(await tab.eval('window.opened'), [], 'no message was opened');
    });
  });

  it('a page whose list goes away: the tool goes too', async (t) => {
    const { tab } = await openInbox(t);
    await tab.eval(`document.getElementById('inbox').remove(); true`);
    await waitOwnNames(s, [], 'no own tool once the inbox is gone');
  });
});
