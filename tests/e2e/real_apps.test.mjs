// Real single-page apps nobody here wrote, shipped ready to serve on npm
// (pinned in package.json, served from node_modules), driven the way an agent
// would: the generic page tools and the form tools, each task through the
// shortest sequence, asserted on what the page shows (snapshot) and cross-
// checked in the real DOM through DevTools.
//   * TodoMVC (todomvc 0.1.1) in its React and AngularJS builds: add three
//     todos (type + Enter), complete one (its toggle), filter Active and
//     Completed (hash-route links).
//   * swagger-ui-dist 5.35.0 on our own OpenAPI document of 220 operations
//     (fixtures/swagger.html, lib/openapi_fixture.mjs; its list is virtual,
//     only what is on screen is in the DOM): filter to a tag, expand an
//     operation, "Try it out", fill its path, query and body parameters,
//     Execute; the response the page shows is our server's echo of them.
//     And its Authorize dialog, a <form> with named fields, becomes a form
//     tool of the page: signing in through it, the next Execute is echoed
//     with the user (the password reaches no answer).
// Each task's calls and the bytes of text the model read are printed as test
// diagnostics (the figures bench/ quotes), with the bytes of tools/list.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness, waitFor } from './harness.mjs';
import { waitOwnNames } from './own_tools_helpers.mjs';
import { allText, bodyText, el, refOf, startPageBrowser, textBytes } from './page_helpers.mjs';

/** What a task cost the model: one line per call, the bytes of the text it read. */
class Ledger {
  constructor(s) {
    this.s = s;
    this.calls = [];
    this.texts = []; // every result's text, as the model read it
  }

  /** Counts a result already in hand (open_tab's, made by env.open). */
  note(tool, result) {
    this.calls.push({ tool, bytes: textBytes(result) });
    this.texts.push(allText(result));
    return result;
  }

  /** A page tool that must succeed, counted. */
  async ok(tool, args = {}) {
    return this.note(tool, await this.s.pageOk(tool, args));
  }

  /** snapshot, counted: its body text. */
  async snapshot(args = {}) {
    return bodyText(await this.ok('snapshot', args));
  }

  /** Bytes of the tools/list the model holds while it works here. */
  async toolsListBytes() {
    const { tools } = await this.s.client.listTools();
    return Buffer.byteLength(JSON.stringify(tools), 'utf8');
  }

  report(t, toolsList) {
    const total = this.calls.reduce((n, c) => n + c.bytes, 0);
    t.diagnostic(`${this.calls.length} calls, ${total} bytes read; tools/list ${toolsList} bytes`);
    t.diagnostic(this.calls.map((c) => `${c.tool} ${c.bytes}`).join(', '));
  }
}

/** The todo list as the DOM has it: [title, completed] of every shown row. */
const TODO_ROWS = `[...document.querySelectorAll('#todo-list li')]
  .filter((li) => li.offsetParent !== null)
  .map((li) => [li.querySelector('label').textContent.trim(), li.classList.contains('completed')])`;

const TODOS = ['Buy milk', 'Walk the dog', 'Pay the rent'];

/** The todo titles a snapshot shows: the `text:` lines that are one of TODOS. */
const shownTodos = (snap) => [...snap.matchAll(/^\s*- text: (.+)$/gm)].map((m) => m[1]).filter((line) => TODOS.includes(line));

/**
 * The ref of the nearest line carrying one before (step -1) or after (step 1)
 * the line `- ${line}`: how an agent pairs a control without a name with the
 * text next to it.
 */
function refNear(snap, line, step) {
  const lines = snap.split('\n');
  const at = lines.findIndex((l) => l.trim() === `- ${line}`);
  assert.ok(at >= 0, `no line "- ${line}" in the snapshot:\n${snap}`);
  for (let i = at + step; i >= 0 && i < lines.length; i += step) {
    const m = /\[ref=([\w:.-]+)\]/.exec(lines[i]);
    if (m) return m[1];
  }
  assert.fail(`no ref ${step < 0 ? 'before' : 'after'} "- ${line}" in the snapshot:\n${snap}`);
}

/** The JSON of the first ```json block in a markdown text after `heading`. */
function jsonBlockAfter(markdown, heading) {
  const from = markdown.indexOf(heading);
  assert.ok(from >= 0, `no "${heading}" in:\n${markdown}`);
  const m = /```json\n([\s\S]*?)\n```/.exec(markdown.slice(from));
  assert.ok(m, `no json block after "${heading}" in:\n${markdown}`);
  return JSON.parse(m[1]);
}

/** What the operation under test is sent, and so what the echo the page shows must hold. */
const SHIPMENT_ID = '42';
const SHIPMENT_PATCH = { name: 'Crate of tea', status: 'shipped', quantity: 3 };

/** Who signs in through swagger-ui's Authorize dialog (HTTP Basic: our echo names the user, never the password). */
const API_USER = { username: 'dispatcher', password: 'crate-of-tea-7' };

describe('real apps from npm', { timeout: 110_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'apps' });
    s = env.s;
  });

  for (const framework of ['react', 'angularjs']) {
    it(`TodoMVC (${framework}): add three todos, complete one, filter Active and Completed`, async (t) => {
      const ledger = new Ledger(s);
      const tab = await env.open(`/node_modules/todomvc/examples/${framework}/index.html`, { t });
      ledger.note('open_tab', tab.opened);
      let snap = await ledger.snapshot();
      const input = refOf(snap, el('textbox', 'What needs to be done?'));
      for (const todo of TODOS) await ledger.ok('type', { ref: input, text: todo, submit: true });
      snap = await ledger.snapshot();
      for (const todo of TODOS) assert.match(snap, new RegExp(`text: ${todo}$`, 'm'), `the snapshot shows "${todo}"`);
      assert.match(snap, /3 items left/);
      assert.deepEqual(await tab.eval(TODO_ROWS), TODOS.map((todo) => [todo, false]));

      // A row's toggle has no name of its own (its label is a sibling): it is the checkbox just before the title.
      await ledger.ok('click', { ref: refNear(snap, `text: ${TODOS[1]}`, -1) });
      await ledger.ok('click', { ref: refOf(snap, el('link', 'Active')) });
      snap = await ledger.snapshot();
      assert.deepEqual(shownTodos(snap), [TODOS[0], TODOS[2]]);
      assert.match(snap, /2 items left/);
      assert.deepEqual(await tab.eval(TODO_ROWS), [[TODOS[0], false], [TODOS[2], false]]);
      assert.match(await tab.eval('location.hash'), /^#\/active$/);

      await ledger.ok('click', { ref: refOf(snap, el('link', 'Completed')) });
      snap = await ledger.snapshot();
      assert.deepEqual(shownTodos(snap), [TODOS[1]]);
      assert.match(snap, /checkbox \[checked\]/, 'the completed row\'s toggle shows checked');
      assert.deepEqual(await tab.eval(TODO_ROWS), [[TODOS[1], true]]);
      ledger.report(t, await ledger.toolsListBytes());
    });
  }

  it('swagger-ui: filter to a tag, expand an operation, Try it out, fill path, query and body, Execute: the page shows our echo', async (t) => {
    const ledger = new Ledger(s);
    const tab = await env.open('/swagger.html', { t });
    ledger.note('open_tab', tab.opened);
    let snap = await ledger.snapshot();
    // 220 operations in a virtual list: only the first few are in the page. The filter box brings the tag's.
    assert.doesNotMatch(snap, /\/api\/shipments/, 'the shipments operations are not rendered before filtering');
    await ledger.ok('type', { ref: refOf(snap, el('textbox', 'Filter by tag')), text: 'shipments' });
    // The box is debounced (250 ms): wait for the page to show what was filtered.
    await ledger.ok('wait_for', { text: '/api/shipments/{id}' });
    snap = await ledger.snapshot();
    await ledger.ok('click', { ref: refOf(snap, el('button', 'PATCH /api/shipments/{id}')) });
    snap = await ledger.snapshot();
    await ledger.ok('click', { ref: refOf(snap, el('button', 'Try it out')) });
    snap = await ledger.snapshot();
    const filled = allText(await ledger.ok('fill_form', {
      fields: [
        { ref: refOf(snap, 'textbox "id"'), value: SHIPMENT_ID },
        { ref: refNear(snap, 'text: Tell the shipment\'s watchers', 1), value: 'true' }, // notify: a <select> without a name
        { ref: refOf(snap, /textbox \[value="\{/), value: JSON.stringify(SHIPMENT_PATCH, null, 2) }, // the body's <textarea>
      ],
      submitRef: refOf(snap, el('button', 'Execute')),
    }));
    assert.match(filled, /filled 3 fields.*clicked button "Execute"/);
    // The response body: snapshot cuts text lines at 160 characters, read_page shows it whole.
    const page = bodyText(await ledger.ok('read_page'));
    const expected = {
      echoedBy: 'tabbridge-fixture-api', method: 'PATCH', path: `/api/shipments/${SHIPMENT_ID}`, query: { notify: 'true' }, body: SHIPMENT_PATCH, user: null,
    };
    assert.deepEqual(jsonBlockAfter(page, 'Response body'), expected);
    assert.match(page, new RegExp(`Request URL[\\s\\S]*/api/shipments/${SHIPMENT_ID}\\?notify=true`));
    // Ground truth: what our server got, and what the page's response panel holds.
    const got = env.web.requests.filter((r) => r.path.startsWith('/api/shipments'));
    assert.deepEqual(got.map((r) => [r.method, r.path, r.query, JSON.parse(r.body)]), [['PATCH', expected.path, expected.query, SHIPMENT_PATCH]]);
    assert.deepEqual(JSON.parse(await tab.eval(`document.querySelector('.live-responses-table .response-col_description pre').textContent`)), expected);
    ledger.report(t, await ledger.toolsListBytes());
  });

  it('swagger-ui: sign in through the Authorize dialog\'s form tool, then Execute an operation: the page shows our echo of the user', async (t) => {
    const ledger = new Ledger(s);
    const tab = await env.open('/swagger.html', { t });
    ledger.note('open_tab', tab.opened);
    const plainList = await ledger.toolsListBytes();
    let snap = await ledger.snapshot();
    await ledger.ok('click', { ref: refOf(snap, el('button', 'Authorize')) });
    // The dialog is a <form> with named fields (username, password): the page now offers a tool for it
    // (and its Authorize button one of its own: docs/page_tools.md "Buttons").
    const own = await waitOwnNames(s, ['form_apply_credentials', 'press_authorize'], 'the Authorize dialog\'s form tool');
    const form = own.find((x) => x.name === 'form_apply_credentials');
    assert.deepEqual(Object.keys(form.inputSchema.properties).sort(), ['password', 'username']);
    const withForm = await ledger.toolsListBytes(); // the client lists again after list_changed
    const signedIn = allText(await ledger.ok('form_apply_credentials', API_USER));
    assert.match(signedIn, /filled 2 fields/);
    snap = await ledger.snapshot();
    assert.match(snap, new RegExp(`heading "Authorized"[^]*text: Username: ${API_USER.username}\n`), 'swagger-ui took the credentials');
    await ledger.ok('click', { ref: refOf(snap, el('button', 'Close')) });
    await ledger.ok('click', { ref: refOf(snap, el('button', 'GET /api/orders List orders')) });
    snap = await ledger.snapshot();
    await ledger.ok('click', { ref: refOf(snap, el('button', 'Try it out')) });
    snap = await ledger.snapshot();
    await ledger.ok('click', { ref: refOf(snap, el('button', 'Execute')) });
    const page = bodyText(await ledger.ok('read_page'));
    const got = await waitFor(() => env.web.requests.find((r) => r.path === '/api/orders'), { what: 'the list request at the server' });
    const expected = { echoedBy: 'tabbridge-fixture-api', method: 'GET', path: '/api/orders', query: got.query, body: null, user: API_USER.username };
    assert.deepEqual(jsonBlockAfter(page, 'Response body'), expected);
    assert.deepEqual(JSON.parse(await tab.eval(`document.querySelector('.live-responses-table .response-col_description pre').textContent`)), expected);
    // The password went into the page, never into what the model read.
    assert.ok(!ledger.texts.some((text) => text.includes(API_USER.password)), 'no result holds the password');
    ledger.report(t, withForm);
    t.diagnostic(`tools/list before the dialog ${plainList} bytes`);
  });
});
