// One change, told once, in time (issue 41 item 2): a client that re-fetches
// tools/list at every notifications/tools/list_changed (Claude Code does, and
// tells the model each tool "now available" or "no longer available") hears
// exactly one per real change of the focused tab's tools — a navigation is
// one, a page adding a tool later one more, an idle page none — and is never
// offered a page's tools in a form they do not keep: a declarative
// <form toolname> in a browser with WebMCP is listed with the browser's
// schema from the first list on, never first from tabbridge's own reading
// of the form. Every list_changed is followed, as a client does, by a fetch
// of tools/list, and each fetch is recorded; the flow runs in one tab of a
// browser `connect_browser {launch: true}` started (WebMCP on).

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { stepper, useHarness, waitFor } from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';
import { listTools, ownOf, pageIndex, webmcpList, webmcpName } from './own_tools_helpers.mjs';

// How long an idle page is watched, once it reported its tools: longer than
// the host's settle window after a navigation (kNavigationSettleMs, 3 s) and
// the page script's late looks for a WebMCP runtime (1 s and 3 s after load).
const IDLE_WATCH_MS = 4_000;

describe('list_changed: one per real change, the final tools from the first list', { timeout: 240_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let env;
  let s;
  let tab;
  let phase = 'start';
  // Every list_changed with the tools/list fetched right after it (as a client does).
  const heard = [];
  const fetches = [];

  before(async () => {
    env = await startPageBrowser(h, { name: 'once' });
    s = env.s;
    const counted = s._onListChanged.bind(s);
    s._onListChanged = () => {
      counted();
      const entry = { n: s.listChanged, phase, own: null };
      heard.push(entry);
      fetches.push(listTools(s).then((tools) => { entry.own = ownOf(tools); }, (e) => { entry.own = String(e); }));
    };
  });

  /** The list_changed heard in `name`, once their tools/list fetches are in. */
  const heardIn = async (name) => {
    await Promise.all(fetches);
    return heard.filter((e) => e.phase === name);
  };
  const shown = (entries) => JSON.stringify(entries.map((e) => ({ n: e.n, own: Array.isArray(e.own) ? e.own.map((t) => t.name) : e.own })));

  /**
   * Runs `act` as phase `name` and checks the session was told exactly once
   * by the time it is done (open_tab, navigate and a click that navigates:
   * before their answer).
   */
  const once = async (name, act) => {
    await s.barrier();
    phase = name;
    const base = s.listChanged;
    const result = await act();
    assert.equal(s.listChanged, base + 1, `${name}: one list_changed by now, have ${s.listChanged - base}: ${shown(await heardIn(name))}`);
    return result;
  };

  /**
   * Waits until the focused page's tools are all in (list_webmcp_tools says
   * no longer loading), then watches tools/list for IDLE_WATCH_MS: the count
   * must not move, nor the list.
   */
  const idle = async (name) => {
    await waitFor(async () => (await webmcpList(s)).loading !== true, { what: `${name}: the page's tools reported` });
    const before = s.listChanged;
    const list = JSON.stringify(await listTools(s));
    const until = Date.now() + IDLE_WATCH_MS;
    while (Date.now() < until) {
      assert.equal(s.listChanged, before, `${name}: an idle page sent list_changed: ${shown(await heardIn(name))}`);
      assert.equal(JSON.stringify(await listTools(s)), list, `${name}: an idle page's tools/list changed`);
      await new Promise((resolve) => setTimeout(resolve, 100)); // the poll's pace
    }
    assert.equal(s.listChanged, before, `${name}: an idle page sent list_changed`);
  };

  it('open_tab of a plain page: one list_changed, before the answer', step(async () => {
    tab = await once('open', () => env.open('/a.html', { waitLoad: false }));
    assert.deepEqual((await heardIn('open')).map((e) => e.own.length), [0], 'a.html brings no tools of its own');
    await tab.ready();
    await idle('open');
  }));

  it('navigate to a page with a form: one list_changed, with the form tool as it stays', step(async () => {
    const url = env.web.url('/flights.html');
    await once('forms', () => s.pageOk('navigate', { url }));
    const [entry] = await heardIn('forms');
    const final = ownOf(await listTools(s));
    assert.deepEqual(final.map((t) => t.name), ['form_search_flights']);
    assert.deepEqual(entry.own, final, 'the list fetched after the notification is the final one');
    await idle('forms');
  }));

  it("navigate to a declarative <form toolname> (WebMCP browser): one list_changed, the browser's tool from the first list", step(async () => {
    const url = env.web.url('/told-once.html');
    await once('declarative', () => s.pageOk('navigate', { url }));
    const name = webmcpName(env.web.port, await pageIndex(s, tab.tabId), 'book_table');
    const sc = await webmcpList(s);
    assert.deepEqual(sc.tools.map((t) => [t.name, t.source]), [['book_table', 'native']], JSON.stringify(sc));
    const final = ownOf(await listTools(s));
    assert.deepEqual(final.map((t) => t.name), [name]);
    const [entry] = await heardIn('declarative');
    assert.deepEqual(entry.own, final, "the list fetched after the notification has the browser's tool as it stays");
    await idle('declarative');
  }));

  it('a click that navigates: one list_changed, before the answer, with the new page\'s tools', step(async () => {
    await once('click', () => s.pageOk('click', { selector: '#leave' }));
    // The click answers once the new page reported: its tools are listed by then.
    const [entry] = await heardIn('click');
    assert.ok(entry.own.some((t) => t.name.startsWith('press_')), `the late form page's button tool: ${shown([entry])}`);
    assert.deepEqual(ownOf(await listTools(s)), entry.own, 'the list fetched after the notification is the final one');
    await idle('click');
  }));

  it('a page adding a tool later: one list_changed more', step(async () => {
    await once('later', async () => {
      await s.pageOk('click', { selector: '#show' });
      await waitFor(async () => ownOf(await listTools(s)).some((t) => t.name.startsWith('form_')), { what: 'the newsletter form tool' });
    });
    await idle('later');
  }));

  it('the whole flow, as heard', async (t) => {
    await Promise.all(fetches);
    t.diagnostic(`list_changed heard: ${shown(heard)}`);
  });
});
