// Issue 29, finding 6: invisible characters reached the model through the
// page tools' results. A page hides an instruction in Unicode tag characters
// (U+E0000–E007F: invisible in most renderers, read by the model), turns text
// around with U+202E, breaks lines with U+2028/U+2029, adds zero-width and
// bidi characters and a terminal escape — in its title, text, a link, a form
// label, a field's value, its options, console messages, an alert, a WebMCP
// tool's description and result. Before the fix read_page, console_logs,
// wait_for, click's dialog text, list_tabs' titles and more passed them on.
// Now every answer leaves the host through one cleaner (common/page_text.h,
// applied in host/session.cpp where a result or notification is sent), and
// this test runs every tool on that page and finds none in any answer.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness, waitFor } from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';
import { listTools, ownOf } from './own_tools_helpers.mjs';

// What must never reach the model: tag characters, bidi embeddings,
// overrides, isolates and marks, line and paragraph separators, zero-width
// characters (the joiner is kept inside emoji only: the page has none), the
// byte-order mark, and C0/C1 controls but tab and newline.
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u{E0000}-\u{E007F}\u202A-\u202E\u2066-\u2069\u200B-\u200F\u061C\u2028\u2029\uFEFF\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;

const brief = (s, max = 300) => (s.length > max ? `${s.slice(0, max)}…` : s);
const codes = (s) => [...s].filter((c) => HIDDEN.test(c)).slice(0, 8).map((c) => `U+${c.codePointAt(0).toString(16).toUpperCase()}`);

/** Every string of an answer (keys included) except an image's base64 `data`, with where it sits. */
function stringsOf(value, where = '', out = []) {
  if (typeof value === 'string') out.push([where, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => stringsOf(v, `${where}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([`${where} key`, k]);
      if (k === 'data' && (value.type === 'image' || value.type === 'audio')) continue;
      stringsOf(v, `${where}.${k}`, out);
    }
  }
  return out;
}

describe('attack: invisible characters in what the page tools answer', { timeout: 300_000 }, () => {
  const h = useHarness();

  it('no tool passes on a tag character, U+202E, U+2028 or another hidden character of the page', async (t) => {
    const env = await startPageBrowser(h, { name: 'attack-cleaner', caps: 'eval,html,download,network' });
    const s = env.s;
    const answers = []; // [what, result]
    const call = async (what, name, args = {}) => {
      const result = await s.call(name, args);
      answers.push([what, result]);
      return result;
    };

    const tab = await env.open('/attack-cleaner-page.html', { t });
    answers.push(['open_tab', tab.opened]);
    await tab.waitEval('window.cleanerReady === true', 'the page to write its text');
    await tab.eval(`getSelection().selectAllChildren(document.getElementById('text'))`);

    await call('snapshot', 'snapshot');
    for (const mode of ['markdown', 'text', 'links', 'info', 'selection', 'html']) await call(`read_page ${mode}`, 'read_page', { mode });
    await call('wait_for text', 'wait_for', { text: 'visible-marker' });
    await call('wait_for selector', 'wait_for', { selector: '#text' });
    await call('type', 'type', { selector: '#name', text: 'typed' });
    await call('select_option', 'select_option', { selector: '#pick', values: ['b'] });
    await call('hover', 'hover', { selector: '#link' });
    await call('scroll', 'scroll', { selector: '#link' });
    await call('press_key', 'press_key', { key: 'Tab' });
    await call('evaluate', 'evaluate', { expression: `window.evil('evaluate')` });
    await call('screenshot', 'screenshot', { format: 'jpeg' });
    await call('click log', 'click', { selector: '#log' });
    const forwarded = await waitFor(() => s.messages.find((m) => JSON.stringify(m).includes('console-marker')), {
      what: 'the console error forwarded as notifications/message',
    });
    answers.push(['notifications/message', forwarded]);
    await call('console_logs', 'console_logs', { level: 'all' });
    await call('console_logs json', 'console_logs', { level: 'all', format: 'json' });
    await call('network_errors', 'network_errors', {});
    await call('network_requests', 'network_requests', {});
    await call('click alert', 'click', { selector: '#alert' });
    await call('handle_dialog', 'handle_dialog', { accept: true });
    await call('list_tabs', 'list_tabs');
    await call('list_webmcp_tools', 'list_webmcp_tools');
    const own = await waitFor(async () => {
      const tools = ownOf(await listTools(s));
      return tools.some((x) => x.name.startsWith('form_')) ? tools : null;
    }, { what: "the page's form in tools/list" });
    answers.push(['tools/list', { tools: own }]);
    const webmcp = own.find((x) => /_shout$/.test(x.name));
    if (webmcp) {
      await call('webmcp tool', webmcp.name, {});
      await call('call_webmcp_tool', 'call_webmcp_tool', { name: webmcp.name, arguments: {} });
    }
    const form = own.find((x) => x.name.startsWith('form_'));
    await call('form tool', form.name, { name: 'Ann' });
    await waitFor(async () => (await tab.eval('location.pathname')) === '/attack-cleaner-landed.html', { what: 'the form to land' });
    await call('snapshot after the form', 'snapshot');
    await call('list_tabs after the form', 'list_tabs');
    await call('save_pdf', 'save_pdf', {});

    // The page's text did reach the model (the visible word of each piece),
    // so a clean answer is a cleaned one, not an empty one.
    const seen = (what) => JSON.stringify(answers.find(([w]) => w === what)?.[1] ?? {});
    for (const what of ['snapshot', 'read_page text', 'read_page markdown', 'console_logs', 'click alert', 'list_tabs', 'notifications/message']) {
      assert.ok(seen(what).includes('lived'), `${what} should carry the page's visible text: ${brief(seen(what), 600)}`);
    }
    if (webmcp) assert.ok(seen('webmcp tool').includes('lived'), `the WebMCP tool's result: ${brief(seen('webmcp tool'), 600)}`);

    const leaks = [];
    for (const [what, result] of answers) {
      for (const [where, text] of stringsOf(result)) {
        if (HIDDEN.test(text)) leaks.push(`${what} ${where}: ${codes(text).join(' ')} in ${JSON.stringify(brief(text, 120))}`);
      }
    }
    assert.deepEqual(leaks, [], `hidden characters reached the model:\n${leaks.join('\n')}`);
  });
});
