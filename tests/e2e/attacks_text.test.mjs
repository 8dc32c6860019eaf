// Issue 29, finding 3: an ordinary page cut every session off the browser.
// The extension cut page text by UTF-16 unit; a page whose title holds 70
// emoji and which has one form (or a WebMCP description of astral
// characters, or a lone surrogate of its own) made it send half a surrogate
// pair, the host read invalid JSON, logged "malformed message … closing" and
// exited — and again for every host Chrome started, as long as the page was
// open in any tab. This test is the exploit: it failed on the old code (the
// host died as the page's tools were reported) and passes now (cut by code
// point, lone surrogates replaced at the port, a malformed event dropped).

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { isAlive, openTabFromBrowser, useHarness, waitFor } from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';
import { listTools, ownOf } from './own_tools_helpers.mjs';

// A lone surrogate: a high one not followed by a low one, or a low one alone.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EMOJI = '😀';

describe('attack: page text that is not well-formed UTF-16', { timeout: 180_000 }, () => {
  const h = useHarness();
  let env, A, B, hostPid;

  before(async () => {
    env = await startPageBrowser(h, { name: 'attack-text' });
    A = env.s;
    B = await h.startSession({ name: 'attack-text-B', socketDir: A.socketDir });
    const connected = await B.callOk('connect_browser', {});
    hostPid = connected.hostPid;
    assert.ok(Number.isInteger(hostPid) && isAlive(hostPid), `host pid ${hostPid}`);
  });

  // Every step: the host that served the sessions at the start still does.
  const assertHostUp = (what) => assert.ok(isAlive(hostPid), `${what}: the host (pid ${hostPid}) died — the page cut the browser off`);

  it('a page with emoji in its title, form and WebMCP tools, open in a background tab, cuts no session off', async (t) => {
    // Session A works on a page of its own.
    const mine = await A.callOk('open_tab', { url: env.web.url('/a.html?attack-text=1'), focus: true });
    t.after(() => A.call('close_tab', { tabId: mine.tab.id }).catch(() => {}));
    await A.pageOk('snapshot', {});

    // The user opens the page in a tab no session touches.
    const url = env.web.url('/attack-text-emoji.html');
    await openTabFromBrowser(env.port, url);

    // The host hears of the tab and of its title (70 emoji, well-formed).
    const hostile = await waitFor(async () => {
      assertHostUp('waiting for the page in list_tabs');
      const { tabs } = await A.listTabs();
      return tabs.find((x) => x.url.startsWith(url) && x.title.startsWith(EMOJI.repeat(10)));
    }, { what: 'the emoji page in A\'s list_tabs' });
    t.after(() => A.call('close_tab', { tabId: hostile.id }).catch(() => {}));

    // Its tools (the form's, two WebMCP tools) reach the host and B, who looks at that tab.
    await B.callOk('focus_tab', { tabId: hostile.id });
    const own = await waitFor(async () => {
      assertHostUp('waiting for the page\'s tools');
      const tools = ownOf(await listTools(B));
      const has = (part) => tools.some((x) => x.name.includes(part));
      return has('astral_description') && has('lone_surrogate') && tools.some((x) => x.name.startsWith('form_')) ? tools : null;
    }, { what: 'the emoji page\'s own tools in B\'s tools/list' });

    for (const tool of own) {
      const text = JSON.stringify(tool);
      assert.doesNotMatch(text, LONE_SURROGATE, `${tool.name}: a lone surrogate reached the model`);
    }
    // Cut by code point: 600 emoji end in whole emoji and "…", no U+FFFD where
    // the cut fell (list_webmcp_tools shows the description as the page's world cut it).
    const listed = await B.callOk('list_webmcp_tools', {});
    const astral = listed.tools.find((x) => x.name === 'astral-description');
    assert.ok(astral, `astral-description in list_webmcp_tools: ${JSON.stringify(listed).slice(0, 500)}`);
    assert.match(astral.description, new RegExp(`${EMOJI}{500}…$`, 'u'), 'the long description is cut after a whole emoji');
    assert.ok(!astral.description.includes('\uFFFD'), 'the cut split no emoji');
    assert.doesNotMatch(JSON.stringify(listed), LONE_SURROGATE);
    // The form's description names the page by its title, cut after a whole
    // emoji; the lone surrogates the page wrote into a label arrive as U+FFFD.
    const form = own.find((x) => x.name.startsWith('form_'));
    assert.ok(JSON.stringify(form).includes('Half a pair \uFFFD here \uFFFD end'), `the label with lone surrogates: ${JSON.stringify(form)}`);
    assert.ok(!form.description.includes('\uFFFD'), `the form's description split an emoji: ${form.description}`);
    assert.doesNotMatch(JSON.stringify(form.inputSchema), /[🟥🟩]\uFFFD/u, 'the option labels were cut after whole emoji');
    assert.ok(form.description.includes(EMOJI.repeat(20)), `the form's description has the page title: ${form.description}`);

    // A went on working all along, on the same host.
    const snap = await A.pageOk('snapshot', {});
    assert.equal(snap.isError, undefined);
    assertHostUp('after the page reported its tools');
    assert.ok((await A.toolNames()).includes('snapshot'), 'A is still connected, with its tab focused');
    await B.listTabs();
  });
});
