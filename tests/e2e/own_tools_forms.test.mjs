// The page's own tools, forms (issue 7): a plain <form> becomes a tool of the
// focused tab (snake_case name from the form, "[Form • localhost:PORT • Page
// N] " description, parameters typed from its fields); calling it fills the
// fields with trusted input and submits. Declarative WebMCP forms
// (<form toolname>) are WebMCP tools. What the server really received is read
// from the fixture server's record; the page's state through DevTools.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { LOGIN, expectListChangedEventually, useHarness, waitFor } from './harness.mjs';
import { allText, startPageBrowser } from './page_helpers.mjs';
import {
  GENERIC_TOOLS,
  MAX_FORM_TOOLS,
  callExpectingToolError,
  formPrefix,
  listTools,
  ownOf,
  pageIndex,
  waitOwn,
  waitOwnNames,
  waitToolCounts,
  waitWebmcpList,
  webmcpName,
  webmcpPrefix,
} from './own_tools_helpers.mjs';

const FLIGHT_ARGS = { from: 'PAR', to: 'NYC', depart: '2026-12-24', passengers: 2, cabin: 'business', trip: 'return', flexible: true };

describe("the page's own tools: forms", { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;
  let port;

  before(async () => {
    env = await startPageBrowser(h, { name: 'forms' });
    s = env.s;
    port = env.web.port;
  });

  const tool = (tools, name) => {
    const found = tools.find((x) => x.name === name);
    assert.ok(found, `no tool ${name} in ${JSON.stringify(tools.map((x) => x.name))}`);
    return found;
  };
  const openFlights = async (t, opts) => {
    const tab = await env.open('/flights.html', { t, ...opts });
    const own = await waitOwnNames(s, ['form_search_flights'], 'search_flights in tools/list');
    return { tab, flights: tool(own, 'form_search_flights') };
  };

  describe('flight search (plain GET form)', () => {
    it('is listed as form_search_flights with "[Form • localhost:PORT • Page N] " and no read-only hint (the page\'s word is not ours)', async (t) => {
      const { tab, flights } = await openFlights(t);
      const idx = await pageIndex(s, tab.tabId);
      assert.ok(
        flights.description.startsWith(formPrefix(port, idx)),
        `description ${JSON.stringify(flights.description)} should start with ${JSON.stringify(formPrefix(port, idx))}`,
      );
      assert.equal(flights.annotations?.readOnlyHint, undefined, `annotations ${JSON.stringify(flights.annotations)}`);
    });

    it('parameters are typed from the fields: text, date, number with min/max, select and radio enums, checkbox boolean, required', async (t) => {
      const { flights } = await openFlights(t);
      const schema = flights.inputSchema;
      const p = schema?.properties ?? {};
      assert.equal(schema?.type, 'object');
      assert.deepEqual(Object.keys(p).sort(), ['cabin', 'depart', 'flexible', 'from', 'passengers', 'to', 'trip'], JSON.stringify(schema));
      assert.equal(p.from.type, 'string');
      assert.equal(p.to.type, 'string');
      assert.equal(p.depart.type, 'string');
      assert.equal(p.depart.format, 'date', `depart: ${JSON.stringify(p.depart)}`);
      assert.ok(['number', 'integer'].includes(p.passengers.type), `passengers: ${JSON.stringify(p.passengers)}`);
      assert.equal(p.passengers.minimum, 1, `passengers: ${JSON.stringify(p.passengers)}`);
      assert.equal(p.passengers.maximum, 9, `passengers: ${JSON.stringify(p.passengers)}`);
      assert.deepEqual(p.cabin.enum, ['economy', 'premium', 'business', 'first'], `cabin: ${JSON.stringify(p.cabin)}`);
      assert.deepEqual([...p.trip.enum].sort(), ['oneway', 'return'], `trip: ${JSON.stringify(p.trip)}`);
      assert.equal(p.flexible.type, 'boolean', `flexible: ${JSON.stringify(p.flexible)}`);
      assert.deepEqual(schema.required, ['depart']);
    });

    it('a call fills and submits: the server saw exactly the query, the answer says where it navigated', async (t) => {
      const { tab } = await openFlights(t);
      const before = env.web.queriesOf('/search').length;
      const r = await s.pageOk('form_search_flights', FLIGHT_ARGS);
      const queries = env.web.queriesOf('/search');
      assert.equal(queries.length, before + 1, 'exactly one search reached the server');
      assert.deepEqual(queries.at(-1), {
        from: 'PAR',
        to: 'NYC',
        depart: '2026-12-24',
        passengers: '2',
        cabin: 'business',
        trip: 'return',
        flexible: 'on',
      });
      const text = allText(r);
      assert.match(text, /navigat/i, `the answer should report the navigation like click does: ${text}`);
      assert.match(text, /\/search\?/, `the answer should name the new URL: ${text}`);
      await tab.waitEval(`location.pathname === '/search'`, 'the tab to show /search');
      assert.equal(await tab.eval('document.title'), 'Flights PAR to NYC');
    });

    it('a call without the required date is isError and submits nothing', async (t) => {
      const { tab } = await openFlights(t);
      const before = env.web.queriesOf('/search').length;
      const [, text] = await callExpectingToolError(s, 'form_search_flights', { from: 'PAR', to: 'NYC' }, 'missing depart');
      assert.match(text, /depart/, `the message should name the missing field: ${text}`);
      assert.equal(env.web.queriesOf('/search').length, before, 'no search reached the server');
      assert.equal(await tab.eval('location.pathname'), '/flights.html');
    });

    it('an unfocused tab with the form has toolCount 1 in list_tabs', async (t) => {
      const tab = await env.open('/flights.html', { t, focus: false });
      await waitToolCounts(s, { [tab.tabId]: 1 }, 'list_tabs toolCount 1 for the unfocused flights tab');
    });
  });

  // Issue 41 item 5: the answer says what the new page says, so the model
  // needs no read_page turn to see the results.
  describe('a form whose submit loads another page answers its main content', () => {
    const openShop = async (t) => {
      const tab = await env.open('/shop.html', { t });
      await waitOwnNames(s, ['form_search', 'press_checkout'], 'the shop\'s search form and Checkout');
      return tab;
    };

    it('the results page\'s main content, after where the tab went, as the page\'s words — not its navigation, sidebar or footer', async (t) => {
      const tab = await openShop(t);
      const r = await s.pageOk('form_search', { q: 'roses' });
      const text = allText(r);
      assert.match(r.content[0].text, /submitted on 127\.0\.0\.1:\d+; navigated to http:\/\/127\.0\.0\.1:\d+\/shop-results\.html\?q=roses \(Search results\)/, text);
      assert.match(r.content[1].text, /^the tab went to http:\/\/127\.0\.0\.1:\d+\/shop-results\.html — its main content:$/, text);
      const page = r.content[2].text;
      for (const line of ['Results for “roses”', 'roses seeds — 3 €', 'roses bush — 12 €', 'roses fertiliser — 7 €']) {
        assert.ok(page.includes(line), `${line} in the page's text: ${text}`);
      }
      assert.doesNotMatch(page, /Sidebar|footer|Blog/, `only the main content: ${text}`);
      assert.match(r.content.at(-1).text, /^\(untrusted page text: /, 'marked as the page\'s words');
      assert.equal(await tab.eval('location.pathname'), '/shop-results.html');
    });

    it('a long results page is cut: the answer stays small and says read_page reads the rest', async (t) => {
      await openShop(t);
      const r = await s.pageOk('form_search', { q: 'long' });
      const page = r.content[2].text;
      assert.ok(page.length <= 8000, `${page.length} characters of the page`);
      assert.match(page, /^Results for “long”\nLong result number 0\n/, page.slice(0, 200));
      assert.match(page, /… \(cut at 8000 characters: read_page reads the rest\)$/);
    });
  });

  describe('login form (POST with a password)', () => {
    it('sign_in logs in; the password is never echoed in the result', async (t) => {
      const tab = await env.open('/login.html', { t });
      const own = await waitOwnNames(s, ['form_sign_in'], 'sign_in in tools/list');
      const signIn = tool(own, 'form_sign_in');
      assert.deepEqual(Object.keys(signIn.inputSchema?.properties ?? {}).sort(), ['password', 'user'], JSON.stringify(signIn.inputSchema));
      assert.notEqual(signIn.annotations?.readOnlyHint, true, 'a POST form with a password is not read-only');
      const r = await s.pageOk('form_sign_in', { user: LOGIN.user, password: LOGIN.password });
      await tab.waitEval(`location.pathname === '/welcome'`, 'the tab to reach /welcome');
      assert.equal(await tab.eval(`document.getElementById('welcome').textContent`), `Welcome, ${LOGIN.user}!`);
      const post = env.web.requests.filter((x) => x.method === 'POST' && x.path === '/login').at(-1);
      assert.deepEqual(post?.form, { user: LOGIN.user, password: LOGIN.password }, 'the server received the credentials');
      assert.ok(!JSON.stringify(r).includes(LOGIN.password), `the result echoes the password: ${JSON.stringify(r)}`);
    });
  });

  describe('forms coming and going', () => {
    it('a form added after a click: its tool appears with exactly one list_changed', async (t) => {
      const tab = await env.open('/late-form.html', { t });
      // No form at load: only the button that shows it (a button tool).
      await waitOwnNames(s, ['press_show_the_newsletter_form'], 'no form at load, only the button\'s tool');
      await s.barrier();
      const base = s.listChanged;
      await s.pageOk('click', { selector: '#show' });
      await tab.waitEval(`!!document.getElementById('newsletter')`, 'the form to appear');
      const own = await waitOwnNames(s, ['form_subscribe', 'press_show_the_newsletter_form'], 'subscribe in tools/list');
      await expectListChangedEventually(s, base + 1, 'a form appeared');
      assert.equal(tool(own, 'form_subscribe').inputSchema?.properties?.email?.type, 'string');
      await s.pageOk('form_subscribe', { email: 'ada@example.org' });
      await waitFor(() => env.web.queriesOf('/subscribe').some((q) => q.email === 'ada@example.org'), { what: 'GET /subscribe?email=ada@example.org' });
    });

    it('navigating to another page with the same form: no list_changed', async (t) => {
      const { tab } = await openFlights(t);
      await s.barrier();
      const base = s.listChanged;
      const second = env.web.url('/flights.html?second=1');
      await s.pageOk('navigate', { url: second });
      await tab.waitEval(`location.search === '?second=1' && document.readyState === 'complete'`, 'the second flights page');
      await waitWebmcpList(s, (sc) => sc.url === second, 'the second document\'s tools reported');
      await waitOwnNames(s, ['form_search_flights'], 'search_flights still listed');
      await s.barrier();
      assert.equal(s.listChanged, base, 'the tools did not change: no list_changed');
    });

    it('navigating to a page with other form tools: exactly one list_changed', async (t) => {
      await openFlights(t);
      await s.barrier();
      const base = s.listChanged;
      await s.pageOk('navigate', { url: env.web.url('/login.html') });
      await waitOwnNames(s, ['form_sign_in'], 'sign_in replaces search_flights');
      await expectListChangedEventually(s, base + 1, 'flights → login');
    });
  });

  describe('limits and names', () => {
    it(`at most ${MAX_FORM_TOOLS} form tools a page: the first ones in document order`, async (t) => {
      await env.open('/many-forms.html', { t });
      const want = Array.from({ length: MAX_FORM_TOOLS }, (_, i) => `form_find_item_${i + 1}`);
      await waitOwnNames(s, want, `the first ${MAX_FORM_TOOLS} of 10 forms`);
    });

    it("forms whose names would be generic tools' names get other names; the generic tools stay", async (t) => {
      await env.open('/collide-form.html', { t });
      const own = await waitOwn(s, (o) => o.length === 2, 'two form tools');
      for (const x of own) assert.ok(!GENERIC_TOOLS.has(x.name), `a form tool is named ${x.name}`);
      const all = await listTools(s);
      const names = all.map((x) => x.name);
      assert.equal(new Set(names).size, names.length, `duplicate names in tools/list: ${JSON.stringify(names)}`);
      assert.match(tool(all, 'navigate').description, /^Go to url/, 'navigate is still the generic tool');
      assert.match(tool(all, 'click').description, /^Click an element/, 'click is still the generic tool');
    });
  });

  describe('field names a model API refuses as parameter keys', () => {
    it('user[email], items[]: clean unique keys ([A-Za-z0-9_.-], ≤ 64); a call fills the real fields', async (t) => {
      const tab = await env.open('/bracket-form.html', { t });
      const [save] = await waitOwnNames(s, ['form_save_account'], 'save_account in tools/list');
      // The SDK client's parsing of tools/list drops a "__proto__" key: list_webmcp_tools shows it.
      const want = ['__proto__', 'items__', 'user_email_', 'user_email__2'];
      const listed = Object.keys(save.inputSchema?.properties ?? {});
      assert.deepEqual(listed.sort(), want.filter((k) => k !== '__proto__'), JSON.stringify(save.inputSchema));
      const sc = await waitWebmcpList(s, (x) => x.tools?.some((y) => y.name === 'save_account'), 'save_account in list_webmcp_tools');
      const keys = Object.keys(sc.tools.find((y) => y.name === 'save_account').inputSchema?.properties ?? {});
      for (const k of keys) assert.match(k, /^[a-zA-Z0-9_.-]{1,64}$/, `parameter key ${JSON.stringify(k)}`);
      // A clean field name is its own key; the cleaned user[email] gets _2.
      assert.deepEqual(keys.sort(), want, JSON.stringify(sc));
      const before = env.web.queriesOf('/subscribe').length;
      await s.pageOk('form_save_account', { user_email__2: 'ada@example.org', user_email_: 'plain', ['__proto__']: 'proto', items__: ['a', 'b'] });
      await waitFor(() => env.web.queriesOf('/subscribe').length > before, { what: 'GET /subscribe' });
      await tab.waitEval(`location.pathname === '/subscribe'`, 'the tab to show /subscribe');
      const sent = new URLSearchParams(await tab.eval('location.search'));
      assert.equal(sent.get('user[email]'), 'ada@example.org', sent.toString());
      assert.equal(sent.get('user_email_'), 'plain', sent.toString());
      assert.equal(sent.get('__proto__'), 'proto', sent.toString());
      assert.deepEqual(sent.getAll('items[]'), ['a', 'b'], sent.toString());
    });
  });

  describe('declarative WebMCP form (<form toolname>)', () => {
    it('is a WebMCP tool: webmcp_…_book_table, its tooldescription and toolparamdescriptions', async (t) => {
      const tab = await env.open('/declarative-form.html', { t });
      const idx = await pageIndex(s, tab.tabId);
      const name = webmcpName(port, idx, 'book_table');
      await waitOwnNames(s, [name], 'book_table in tools/list');
      // A list read while the form was still being parsed lacks its last
      // fields; the one sent at DOMContentLoaded has them all.
      const fields = (tool) => Object.keys(tool?.inputSchema?.properties ?? {}).sort().join();
      const book = await waitFor(async () => {
        const own = ownOf(await listTools(s)).find((t) => t.name === name);
        return fields(own) === 'date,guests,name' ? own : null;
      }, { what: 'book_table with the fields date, guests and name' });
      assert.ok(book.description.startsWith(webmcpPrefix(port, idx)), book.description);
      assert.match(book.description, /Book a table at Chez Fixture/);
      const p = book.inputSchema.properties;
      assert.match(p.name.description ?? '', /Name the booking is under/);
      assert.match(p.guests.description ?? '', /How many people are coming/);
      const sc = await waitWebmcpList(s, (x) => x.total === 1, 'list_webmcp_tools to show book_table');
      assert.equal(sc.tools[0].name, 'book_table');
      assert.ok(['native', 'declarative'].includes(sc.tools[0].source), `source ${sc.tools[0].source}`);
    });

    it('a call (toolautosubmit) fills and submits: the server saw the booking', async (t) => {
      const tab = await env.open('/declarative-form.html', { t });
      const name = webmcpName(port, await pageIndex(s, tab.tabId), 'book_table');
      await waitOwnNames(s, [name], 'book_table in tools/list');
      const before = env.web.queriesOf('/book').length;
      await s.pageOk(name, { name: 'Ada', guests: 2, date: '2026-12-24' });
      await waitFor(() => env.web.queriesOf('/book').length > before, { what: 'GET /book' });
      assert.deepEqual(env.web.queriesOf('/book').at(-1), { name: 'Ada', guests: '2', date: '2026-12-24' });
      await tab.waitEval(`location.pathname === '/book'`, 'the tab to show /book');
    });

    it('a call without toolautosubmit fills the form and answers at once that it waits for the user', async (t) => {
      const tab = await env.open('/declarative-form.html?review', { t });
      const name = webmcpName(port, await pageIndex(s, tab.tabId), 'book_table');
      await waitOwnNames(s, [name], 'book_table in tools/list');
      const before = env.web.queriesOf('/book').length;
      const r = await s.pageOk(name, { name: 'Grace', guests: 3, date: '2026-12-24' });
      assert.match(allText(r), /pending form submission/);
      await tab.waitEval(`document.querySelector('[name=name]').value === 'Grace'`, 'the form filled');
      assert.equal(env.web.queriesOf('/book').length, before, 'nothing was submitted');
      assert.equal(await tab.eval('location.pathname'), '/declarative-form.html');
    });
  });

  // The french-bistro demo's ?crossdocument booking, on our own page pair
  // (fixtures/bistro.html → bistro-result.html): the browser's own WebMCP
  // runs the form, whose submit loads the confirmation page.
  describe('a declarative form whose submit loads a result page (native WebMCP)', () => {
    const BOOKING = { name: 'Ada Lovelace', date: '2026-12-24', time: '19:30', guests: '4', seating: 'Terrace' };
    const openBistro = async (t, query = '') => {
      const tab = await env.open(`/bistro.html${query}`, { t });
      const name = webmcpName(port, await pageIndex(s, tab.tabId), 'reserve_table');
      await waitOwnNames(s, [name], 'reserve_table in tools/list');
      return { tab, name };
    };
    const CONFIRMED = 'Hello Ada Lovelace, we look forward to welcoming you on 2026-12-24 at 19:30: party of 4, Terrace.';

    for (const [label, query] of [['the browser submits it', ''], ['its submit handler sends it by script, as the demo does', '?scripted']]) {
      it(`${label}: the call answers the result page's JSON-LD, as the page's words`, async (t) => {
        const { tab, name } = await openBistro(t, query);
        const r = await s.pageOk(name, BOOKING);
        const text = allText(r);
        assert.match(text, /the form was submitted and the tab went to http:\/\/127\.0\.0\.1:\d+\/bistro-result\.html;/, text);
        assert.ok(!text.includes('?name='), `the answer names the page without the form's query: ${text}`);
        const ld = JSON.parse(r.content[1].text);
        assert.equal(ld['@type'], 'FoodEstablishmentReservation', text);
        assert.equal(ld.text, CONFIRMED, text);
        assert.equal(ld.partySize, 4, text);
        assert.match(r.content.at(-1).text, /untrusted page text/, 'marked as the page\'s words');
        assert.doesNotMatch(text, /returned nothing/);
        await tab.waitEval(`location.pathname === '/bistro-result.html'`, 'the tab to show the result page');
        const { tbv, ...sent } = env.web.queriesOf('/bistro-result.html').at(-1); // tbv: the test's unique URL, passed on
        assert.ok(tbv);
        assert.deepEqual(sent, BOOKING);
      });
    }

    it('a result page without JSON-LD: the call answers its text', async (t) => {
      const { name } = await openBistro(t, '?format=text');
      const r = await s.pageOk(name, BOOKING);
      const text = allText(r);
      assert.match(text, /the result page has no JSON-LD — its text:/, text);
      assert.match(r.content[1].text, /^Reservation received\n/, text);
      assert.ok(r.content[1].text.includes(CONFIRMED), text);
    });
  });
});
