// A call that took the tab to another document answers once that document's
// own tools reached the host (extension/tools/stack/new_page_tools.js, used by
// page_tool.js for every tool that acts), without a browser: the page's
// resend request (own_tools_heard.js) is a stand-in for chrome.tabs.sendMessage,
// and the page's report that answers it is heardOwnTools called by hand. A
// call during which no top document committed makes no browser call at all.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { TAB_EVENTS, chromeEvents } from './chrome_events.mjs';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension');

const tabs = new Map();
const asked = []; // {tabId, message, options} of every chrome.tabs.sendMessage
let frameLooks = 0; // chrome.webNavigation.getFrame calls for the top frame
let onAsked = () => {};
const { event, fire } = chromeEvents();
globalThis.chrome = {
  debugger: { onEvent: event('debugger.onEvent'), onDetach: event('debugger.onDetach') },
  runtime: { onConnect: event('runtime.onConnect') },
  webNavigation: {
    ...Object.fromEntries(['onBeforeNavigate', 'onCommitted', 'onErrorOccurred'].map((n) => [n, event(n)])),
    getFrame: async ({ tabId, frameId }) => {
      const t = tabs.get(tabId);
      if (frameId === 0) frameLooks++;
      return t && frameId === 0 ? { frameId: 0, parentFrameId: -1, url: t.url, documentId: `doc-${t.doc}` } : null;
    },
  },
  tabs: {
    ...Object.fromEntries(TAB_EVENTS.map((n) => [n, event(`tabs.${n}`)])),
    get: async (id) => {
      if (!tabs.has(id)) throw new Error(`No tab with id: ${id}.`);
      return tabs.get(id);
    },
    sendMessage: async (tabId, message, options) => {
      asked.push({ tabId, message, options });
      onAsked();
      return { ok: true };
    },
  },
};

const { POLICY_URL_PARAM } = await import(path.join(EXTENSION, 'worker/protocol.js'));
const { pageTool } = await import(path.join(EXTENSION, 'tools/stack/page_tool.js'));
const { RESEND, heardOwnTools } = await import(path.join(EXTENSION, 'worker/own_tools_heard.js'));

const SITE = 'http://127.0.0.1:8000/';
const tab = (id, url, doc = 1) => tabs.set(id, { id, url, doc, status: 'complete', discarded: false });
// Settles every promise chain already under way (no timer involved).
const settle = () => new Promise((resolve) => setImmediate(resolve));
const nextAsk = () => new Promise((resolve) => { onAsked = resolve; });

// An acting tool whose act commits `to` in tab `tabId` (a link followed), or nothing.
const acting = (to = null) => pageTool(async (tabId) => {
  if (to) {
    tabs.get(tabId).url = to;
    tabs.get(tabId).doc++;
    fire('onCommitted', { tabId, frameId: 0, url: to, documentId: `doc-${tabs.get(tabId).doc}` });
  }
  return { content: [{ type: 'text', text: to ? `clicked; navigated to ${to}` : 'clicked' }] };
}, { name: 'click', acts: true });

describe('a call that landed on another document', () => {
  it("answers once the new page's own tools reached the host", async () => {
    tab(1, `${SITE}a`);
    const askedNow = nextAsk();
    let answered = false;
    const call = acting(`${SITE}form`)({ tabId: 1, [POLICY_URL_PARAM]: SITE }, { deadline: Infinity })
      .then((r) => { answered = true; return r; });
    assert.equal(await Promise.race([askedNow.then(() => 'asked'), call.then(() => 'answered')]), 'asked',
      'the new page was asked for its tools before the answer');
    const ask = asked.at(-1);
    assert.equal(ask.tabId, 1);
    assert.equal(ask.message.type, RESEND);
    assert.deepEqual(ask.options, { documentId: 'doc-2' }, 'the new document is asked, not the one the call began on');
    await settle();
    assert.equal(answered, false, "answered before the new page's tools were heard");
    heardOwnTools(1, ask.message.token);
    assert.match((await call).content[0].text, /navigated to/);
  });

  it('does not wait past the call\'s deadline', async () => {
    tab(2, `${SITE}a`);
    const before = asked.length;
    await acting(`${SITE}form`)({ tabId: 2, [POLICY_URL_PARAM]: SITE }, { deadline: Date.now() - 1 });
    assert.equal(asked.length, before, 'a call out of time asks nothing');
  });

  it('a page without our content scripts (not http) is not asked', async () => {
    tab(3, `${SITE}a`);
    const before = asked.length;
    await acting('file:///tmp/page.html')({ tabId: 3 }, { deadline: Infinity });
    assert.equal(asked.length, before);
  });
});

describe('a call that did not navigate', () => {
  it('answers at once: no look at the tab, no question to the page', async () => {
    tab(4, `${SITE}a`);
    const [looks, before] = [frameLooks, asked.length];
    await acting()({ tabId: 4, [POLICY_URL_PARAM]: SITE }, { deadline: Infinity });
    assert.equal(frameLooks, looks, 'no chrome.webNavigation.getFrame');
    assert.equal(asked.length, before, 'no chrome.tabs.sendMessage');
  });

  it('a commit in another tab, or in a frame of this one, is not its navigation', async () => {
    tab(5, `${SITE}a`);
    tab(6, `${SITE}b`);
    const [looks, before] = [frameLooks, asked.length];
    await pageTool(async () => {
      fire('onCommitted', { tabId: 6, frameId: 0, url: `${SITE}c`, documentId: 'doc-9' });
      fire('onCommitted', { tabId: 5, frameId: 3, url: `${SITE}frame`, documentId: 'doc-8' });
      return { content: [] };
    }, { name: 'click', acts: true })({ tabId: 5 }, { deadline: Infinity });
    assert.equal(frameLooks, looks);
    assert.equal(asked.length, before);
  });

  it('a tool that does not act never waits (snapshot, read_page)', async () => {
    tab(7, `${SITE}a`);
    const before = asked.length;
    await pageTool(async () => {
      fire('onCommitted', { tabId: 7, frameId: 0, url: `${SITE}c`, documentId: 'doc-2' });
      return { content: [] };
    }, { name: 'console_logs' })({ tabId: 7 }, { deadline: Infinity });
    assert.equal(asked.length, before);
  });
});
