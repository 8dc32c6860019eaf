// The page's own tools, as real WebMCP apps write them (issue 22: patterns
// found in the Chrome team's demos, in fixtures of our own): enums of emoji,
// schemas of anyOf/const forms, registerTool's options (exposedTo), tools a
// framework registers when a view mounts and unregisters when it unmounts or
// renders again, and declarative forms whose submit handler answers the
// agent itself (respondWith) or sends the form by script to a result page.
// The page's state is read back through DevTools.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness, waitFor } from './harness.mjs';
import { allText, startPageBrowser } from './page_helpers.mjs';
import { callExpectingToolError, listTools, pageIndex, waitOwn, waitOwnNames, webmcpName } from './own_tools_helpers.mjs';

describe("the page's own tools: patterns of real WebMCP apps", { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;
  let port;

  before(async () => {
    env = await startPageBrowser(h, { name: 'patterns' });
    s = env.s;
    port = env.web.port;
  });

  const openPatterns = async (t, hash = '') => {
    const tab = await env.open(`/webmcp-patterns.html${hash}`, { t });
    await tab.waitEval('window.patternsReady === true', 'the page to register its tools');
    const idx = await pageIndex(s, tab.tabId);
    const name = (tool) => webmcpName(port, idx, tool);
    return { tab, name };
  };
  const boardOf = (tab) => tab.eval(`[...document.querySelectorAll('#board li')].map((li) => li.textContent)`);

  describe('schemas', () => {
    it('an emoji enum reaches tools/list intact, variation selector and ZWJ sequence included', async (t) => {
      const { name } = await openPatterns(t);
      const [tool] = await waitOwnNames(s, [name('add_sticker'), name('choose_delivery')], 'the sticker tools')
        .then((own) => own.filter((x) => x.name === name('add_sticker')));
      assert.deepEqual(tool.inputSchema.properties.sticker.enum, ['⭐', '🌙', '🔥', '🌶️', '👩‍🚀']);
    });

    it('a call with an emoji of the enum runs (🌶️ with its U+FE0F, 👩‍🚀 joined): the board shows them', async (t) => {
      const { tab, name } = await openPatterns(t);
      await waitOwnNames(s, [name('add_sticker'), name('choose_delivery')], 'the sticker tools');
      const r = await s.pageOk(name('add_sticker'), { sticker: '🌶️', count: 2 });
      assert.match(allText(r), /the board has 2 stickers/);
      await s.pageOk(name('add_sticker'), { sticker: '👩‍🚀' });
      assert.deepEqual(await boardOf(tab), ['🌶️', '🌶️', '👩‍🚀']);
    });

    it('an emoji outside the enum (🌶 without U+FE0F) is refused naming the allowed ones; the page runs nothing', async (t) => {
      const { tab, name } = await openPatterns(t);
      await waitOwnNames(s, [name('add_sticker'), name('choose_delivery')], 'the sticker tools');
      const [, text] = await callExpectingToolError(s, name('add_sticker'), { sticker: '🌶' }, 'a sticker not in the enum');
      assert.match(text, /sticker must be one of \["⭐","🌙","🔥","🌶️","👩‍🚀"\]/);
      assert.deepEqual(await boardOf(tab), []);
    });

    it('anyOf of const forms: listed as the page wrote it; a value of it runs, another is refused naming the choices', async (t) => {
      const { tab, name } = await openPatterns(t);
      const own = await waitOwnNames(s, [name('add_sticker'), name('choose_delivery')], 'the sticker tools');
      const tool = own.find((x) => x.name === name('choose_delivery'));
      assert.deepEqual(tool.inputSchema.properties.method.anyOf.map((f) => f.const), ['pickup', 'courier']);
      const r = await s.pageOk(name('choose_delivery'), { method: 'courier', slot: '18:30' });
      assert.match(allText(r), /delivery: courier/);
      assert.equal(await tab.eval(`document.getElementById('delivery').textContent`), 'courier at 18:30');
      const [, text] = await callExpectingToolError(s, name('choose_delivery'), { method: 'drone' }, 'a method none of the forms has');
      assert.match(text, /method must be one of \["pickup","courier"\]/);
      const [, slot] = await callExpectingToolError(s, name('choose_delivery'), { method: 'pickup', slot: 7 }, 'a slot of neither form');
      assert.match(slot, /slot fits none of its anyOf forms/);
      assert.equal(await tab.eval(`document.getElementById('delivery').textContent`), 'courier at 18:30', 'refused calls ran nothing');
    });
  });

  describe("a framework's lifecycle", () => {
    it('a view that registers a tool on mount: it appears when the view does, and runs', async (t) => {
      const { name } = await openPatterns(t);
      await waitOwnNames(s, [name('add_sticker'), name('choose_delivery')], 'the tools of the home view');
      await s.pageOk('click', { selector: '#to-orders' });
      await waitOwnNames(s, [name('add_sticker'), name('choose_delivery'), name('list_orders')], 'list_orders once the orders view mounted');
      const r = await s.pageOk(name('list_orders'), {});
      assert.match(allText(r), /\{"page":1,"orders":\["A-101 two stars","A-102 one moon"\]\}/);
    });

    it('rendered again (aborted and registered anew under the same name): a call reaches the new registration', async (t) => {
      const { name } = await openPatterns(t, '#/orders');
      await waitOwnNames(s, [name('add_sticker'), name('choose_delivery'), name('list_orders')], 'list_orders');
      await s.pageOk('click', { selector: '#to-orders-2' });
      // The list has the same names before and after: the answer tells the registrations apart.
      const text = await waitFor(async () => {
        const r = await s.call(name('list_orders'), {});
        return /"page":2/.test(allText(r)) ? allText(r) : null;
      }, { what: 'list_orders to answer for page 2' });
      assert.match(text, /\{"page":2,"orders":\["A-090 three flames"\]\}/);
    });

    it('the view unmounted: its tool leaves tools/list, and a call to it is a clear error', async (t) => {
      const { name } = await openPatterns(t, '#/orders');
      await waitOwnNames(s, [name('add_sticker'), name('choose_delivery'), name('list_orders')], 'list_orders');
      await s.pageOk('click', { selector: '#to-home' });
      await waitOwnNames(s, [name('add_sticker'), name('choose_delivery')], 'list_orders gone with its view');
      const r = await s.call(name('list_orders'), {});
      assert.equal(r.isError, true, allText(r));
      assert.ok(!(await listTools(s)).some((x) => x.name === name('list_orders')));
    });
  });

  // From the replay of the Chrome team's demos and web-platform-tests' webmcp/ pages.
  describe('arguments and schemas as pages write them', () => {
    it("the arguments reach the page's execute in the order the model wrote them, by its name and through call_webmcp_tool", async (t) => {
      const { tab, name } = await openPatterns(t);
      await tab.eval(
        `document.modelContext.registerTool({name: 'echo-keys', description: 'its arguments\\' keys, in order', ` +
          `inputSchema: {type: 'object', properties: {zeta: {type: 'string'}, alpha: {type: 'string'}, mid: {type: 'object'}}}, ` +
          `execute: async (args) => Object.keys(args).join(',') + '|' + Object.keys(args.mid ?? {}).join(',')}).then(() => true)`,
      );
      await waitOwn(s, (o) => o.some((x) => x.name === name('echo-keys')), 'echo-keys in tools/list');
      const r = await s.pageOk(name('echo-keys'), { zeta: 'z', alpha: 'a', mid: { y: 1, b: 2 } });
      assert.match(allText(r), /^zeta,alpha,mid\|y,b\n/, allText(r));
      const r2 = await s.pageOk('call_webmcp_tool', { name: 'echo-keys', arguments: { mid: {}, zeta: 'z', alpha: 'a' } });
      assert.match(allText(r2), /^mid,zeta,alpha\|\n/, allText(r2));
    });

    it('a tool whose input schema is not an object is listed as one property, input, and gets the value itself', async (t) => {
      const { tab, name } = await openPatterns(t);
      await tab.eval(
        `Promise.all([document.modelContext.registerTool({name: 'sum', description: 'adds numbers', ` +
          `inputSchema: {type: 'array', items: {type: 'number'}}, execute: async (v) => Array.isArray(v) + ' ' + v.reduce((a, b) => a + b, 0)}), ` +
          `document.modelContext.registerTool({name: 'shout', description: 'shouts a word', inputSchema: {type: 'string'}, ` +
          `execute: async (v) => String(v).toUpperCase()})]).then(() => true)`,
      );
      const own = await waitOwn(s, (o) => o.some((x) => x.name === name('shout')) && o.some((x) => x.name === name('sum')), 'sum and shout');
      const sum = own.find((x) => x.name === name('sum'));
      assert.equal(sum.inputSchema.type, 'object', JSON.stringify(sum.inputSchema));
      assert.deepEqual(sum.inputSchema.properties.input, { type: 'array', items: { type: 'number' } });
      assert.deepEqual(sum.inputSchema.required, ['input']);
      assert.match(allText(await s.pageOk(name('sum'), { input: [1, 2, 3] })), /^true 6\n/);
      assert.deepEqual(own.find((x) => x.name === name('shout')).inputSchema.properties.input, { type: 'string' });
      // The browser passes a tool only objects: the call says so.
      const [, text] = await callExpectingToolError(s, name('shout'), { input: 'hi' }, 'a string to the browser');
      assert.match(text, /the browser's WebMCP passes a tool only an object or an array, and this tool's input schema asks for "string"/);
      const [, bad] = await callExpectingToolError(s, name('shout'), { input: 5 }, 'not a string');
      assert.match(bad, /input must be a string/);
    });
  });

  describe('declarative forms with a submit handler', () => {
    it('a handler that answers the agent itself (respondWith): the call answers its text, the page stays', async (t) => {
      const tab = await env.open('/declarative-form.html?respond', { t });
      const name = webmcpName(port, await pageIndex(s, tab.tabId), 'book_table');
      await waitOwnNames(s, [name], 'book_table in tools/list');
      const before = env.web.queriesOf('/book').length;
      const r = await s.pageOk(name, { name: 'Ada', guests: 4, date: '2026-12-24' });
      assert.match(allText(r), /Booked for Ada, 4 guests/);
      assert.equal(await tab.eval(`document.getElementById('confirmation').textContent`), 'Booked for Ada, 4 guests');
      assert.equal(await tab.eval('location.pathname'), '/declarative-form.html');
      assert.equal(env.web.queriesOf('/book').length, before, 'nothing was sent');
    });

    it('a handler that sends the form by script: the server gets the booking and the tab shows the result page', async (t) => {
      const tab = await env.open('/declarative-form.html?scripted', { t });
      const name = webmcpName(port, await pageIndex(s, tab.tabId), 'book_table');
      await waitOwnNames(s, [name], 'book_table in tools/list');
      const before = env.web.queriesOf('/book').length;
      await s.pageOk(name, { name: 'Grace', guests: 2, date: '2026-12-24' });
      await tab.waitEval(`location.pathname === '/book'`, 'the tab to show /book');
      assert.equal(env.web.queriesOf('/book').length, before + 1);
      assert.deepEqual(env.web.queriesOf('/book').at(-1), { name: 'Grace', guests: '2', date: '2026-12-24' });
    });
  });
});
