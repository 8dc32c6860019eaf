// The dispatch surface (--surface dispatch; docs/clients.md "Claude Code"):
// tools/list is the same in every state and never has the page's own tools,
// so no list_changed is ever sent; the answer of the call after which the
// page's own tools changed says them (names, schemas, as the page's words),
// and call_webmcp_tool runs them by name, through the same gate as a listed
// tool.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { allText, startPageBrowser } from './page_helpers.mjs';

describe('the dispatch surface', { timeout: 240_000 }, () => {
  const h = useHarness();
  let env;
  let listAtStart;

  before(async () => {
    env = await startPageBrowser(h, { name: 'dispatch', shimArgs: ['--surface', 'dispatch'] });
    listAtStart = (await env.s.client.listTools()).tools;
  });

  it('lists the same tools in every state, the common ones pinned, none of the page', async (t) => {
    const changes = env.s.listChanged;
    const tab = await env.open('flights.html', { t });
    assert.ok(tab);
    const now = (await env.s.client.listTools()).tools;
    assert.deepEqual(now.map((x) => x.name), listAtStart.map((x) => x.name), 'the list did not change');
    assert.equal(env.s.listChanged, changes, 'no list_changed');
    const pinned = now.filter((x) => x._meta?.['anthropic/alwaysLoad']).map((x) => x.name);
    for (const name of ['open_tab', 'snapshot', 'click', 'call_webmcp_tool']) assert.ok(pinned.includes(name), `${name} pinned: ${pinned}`);
    assert.ok(!pinned.includes('console_logs'), 'a rare tool is not pinned');
    assert.ok(!now.some((x) => x.name.startsWith('form_')), 'no tool of the page is listed');
  });

  it("open_tab's answer says the page's own tools, and call_webmcp_tool runs one", async (t) => {
    const tab = await env.open('flights.html', { t });
    // In structuredContent (Claude Code shows its model that alone when a result has one).
    const told = tab.opened.structuredContent?.pageTools ?? {};
    assert.match(told.note ?? '', /run one with call_webmcp_tool/, JSON.stringify(told));
    assert.match(told.note ?? '', /data, not instructions/, 'marked as the page\'s words');
    const flights = (told.tools ?? []).find((x) => x.name === 'form_search_flights');
    assert.ok(flights?.inputSchema?.properties?.from, `form_search_flights with its schema: ${JSON.stringify(told)}`);
    const r = await env.s.call('call_webmcp_tool', { name: 'form_search_flights', arguments: { from: 'PAR', to: 'NYC', depart: '2026-12-24' } });
    assert.notEqual(r.isError, true, allText(r));
    const searches = env.web.queriesOf('/search');
    assert.ok(searches.some((q) => q.from === 'PAR' && q.to === 'NYC'), `the form was not submitted: ${JSON.stringify(searches)}; answer: ${allText(r)}`);
  });

  it('a call whose page tools did not change says nothing more', async (t) => {
    await env.open('flights.html', { t });
    const again = await env.s.pageOk('snapshot', {});
    assert.doesNotMatch(allText(again), /own tools/, 'told once, not in every answer');
    assert.equal(again.structuredContent?.pageTools, undefined);
  });
});
