// The extension's half of the policy check (docs/protocol.md "The policy,
// checked twice"), without a browser: extension/worker/site_key.js decides whether
// the tab is still on the site of params.policyUrl, and extension/tools/stack/page_tool.js
// (with a stand-in for the few chrome.* calls it makes) refuses a call on a
// tab that moved — PAGE_MOVED with data {url} — before the tool runs, and
// hands the tool a recheckSite() for the moment it acts; the tab as its last
// event reported it (worker/tab_cache.js) spares the look at the browser
// when it passes, and is looked at again when it would not.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { TAB_EVENTS, chromeEvents } from './chrome_events.mjs';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension');

// What page_tool.js and the modules it imports touch of chrome.*; tab events fired by hand.
const tabs = new Map();
let looks = 0; // chrome.tabs.get calls
const { event, fire } = chromeEvents();
globalThis.chrome = {
  debugger: { onEvent: event('debugger.onEvent'), onDetach: event('debugger.onDetach') },
  webNavigation: {
    ...Object.fromEntries(['onBeforeNavigate', 'onCommitted', 'onErrorOccurred'].map((n) => [n, event(n)])),
    // The top frame: the tab's URL, and its document (tab.doc, 1 unless a test moves it).
    getFrame: async ({ tabId, frameId }) => {
      const t = tabs.get(tabId);
      return t && frameId === 0 ? { frameId: 0, parentFrameId: -1, url: t.url, documentId: `doc-${t.doc ?? 1}` } : null;
    },
  },
  tabs: {
    ...Object.fromEntries(TAB_EVENTS.map((n) => [n, event(`tabs.${n}`)])),
    get: async (id) => {
      looks++;
      if (!tabs.has(id)) throw new Error(`No tab with id: ${id}.`);
      return tabs.get(id);
    },
  },
};

const { ErrorCode, POLICY_URL_PARAM, READ_META, RpcError } = await import(path.join(EXTENSION, 'worker/protocol.js'));
const { assertOnSite, sameSite, siteKey, tabUrl } = await import(path.join(EXTENSION, 'worker/site_key.js'));
const { pageTool } = await import(path.join(EXTENSION, 'tools/stack/page_tool.js'));
const { ToolError } = await import(path.join(EXTENSION, 'tools/stack/errors.js'));
const { registerTabCache } = await import(path.join(EXTENSION, 'worker/tab_cache.js'));
registerTabCache();

describe('siteKey', () => {
  const same = [
    ['http://127.0.0.1:8000/a', 'http://127.0.0.1:8000/b?x=1#y'],
    ['https://Example.COM/x', 'https://example.com:443/y'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/other'],
    ['file:///home/u/a.html', 'file:///tmp/b.html'],
    ['blob:https://example.com/6b1c', 'https://example.com/page'],
    ['data:text/html,hi#one', 'data:text/html,hi#two'],
    ['about:blank', 'about:blank#x'],
  ];
  const different = [
    ['http://127.0.0.1:8000/', 'http://localhost:8000/'],
    ['http://127.0.0.1:8000/', 'http://127.0.0.1:8001/'],
    ['http://example.com/', 'https://example.com/'],
    ['https://a.example.com/', 'https://example.com/'],
    ['data:text/html,one', 'data:text/html,two'],
    ['about:blank', 'http://example.com/'],
    ['file:///tmp/a.html', 'http://127.0.0.1/'],
    ['blob:https://example.com/6b1c', 'blob:https://evil.example/6b1c'],
  ];
  for (const [a, b] of same) it(`${a} and ${b} are one site`, () => assert.equal(siteKey(a), siteKey(b)));
  for (const [a, b] of different) it(`${a} and ${b} are two sites`, () => assert.notEqual(siteKey(a), siteKey(b)));
  it('a string that is no URL compares whole, without its fragment', () => {
    assert.equal(siteKey(''), '');
    assert.equal(siteKey('not a url#x'), 'not a url');
  });
  it("the tab's URL is the committed one; pendingUrl only before anything committed", () => {
    assert.equal(tabUrl({ url: 'https://a.example/', pendingUrl: 'https://b.example/' }), 'https://a.example/');
    assert.equal(tabUrl({ url: '', pendingUrl: 'https://b.example/' }), 'https://b.example/');
  });
});

describe('sameSite (logs kept across navigations)', () => {
  it('shows what pages of the approved site recorded, and everything without a policyUrl', () => {
    assert.ok(sameSite('http://127.0.0.1:8000/a', 'http://127.0.0.1:8000/b'));
    assert.ok(sameSite('http://127.0.0.1:8000', 'http://127.0.0.1:8000/b')); // an initiator origin
    assert.ok(!sameSite('http://localhost:8000/a', 'http://127.0.0.1:8000/b'));
    assert.ok(!sameSite('', 'http://127.0.0.1:8000/b'));
    assert.ok(sameSite('http://localhost:8000/a', undefined));
  });
});

describe('assertOnSite', () => {
  it('passes on the same site and when the call names no policyUrl', () => {
    assertOnSite({ url: 'http://127.0.0.1:8000/b' }, 'http://127.0.0.1:8000/a');
    assertOnSite({ url: 'http://localhost:8000/' }, undefined);
  });
  it('throws PAGE_MOVED with the URL it found on another site', () => {
    assert.throws(() => assertOnSite({ url: 'http://localhost:8000/mail' }, 'http://127.0.0.1:8000/'), (e) => {
      assert.ok(e instanceof RpcError);
      assert.equal(e.code, ErrorCode.PAGE_MOVED);
      assert.deepEqual(e.data, { url: 'http://localhost:8000/mail' });
      assert.equal(e.message, 'the tab is now on http://localhost:8000/mail, not on the site this call was checked for');
      return true;
    });
  });
});

describe('pageTool', () => {
  const tab = (id, url) => tabs.set(id, { id, url, status: 'complete', discarded: false });

  it('runs the tool on the checked site, with its tab, without policyUrl in its args', async () => {
    tab(1, 'http://127.0.0.1:8000/a');
    let got = null;
    const handler = pageTool(async (tabId, args, ctx) => {
      got = { tabId, args, url: ctx.tab.url };
      return { content: [] };
    });
    await handler({ tabId: 1, ref: 'e1', [POLICY_URL_PARAM]: 'http://127.0.0.1:8000/' }, {});
    assert.deepEqual(got, { tabId: 1, args: { ref: 'e1' }, url: 'http://127.0.0.1:8000/a' });
  });

  it('answers a ToolError as an isError result, and lets an RpcError through', async () => {
    tab(5, 'http://127.0.0.1:8000/a');
    const failing = pageTool(async () => {
      throw new ToolError('no such button');
    });
    assert.deepEqual(await failing({ tabId: 5 }, {}), {
      content: [{ type: 'text', text: 'no such button', _meta: { [READ_META]: [] } }], isError: true, _meta: { [READ_META]: [] },
    });
    const invalid = pageTool(async () => assert.fail('a tabId that is no integer must not reach the tool'));
    await assert.rejects(invalid({ tabId: 'x' }, {}), (e) => e instanceof RpcError && e.code === ErrorCode.INVALID_ARGUMENT);
  });

  it('drops the answer of a pinned tool when the top document changed while it ran (pinned by default)', async () => {
    tab(6, 'http://127.0.0.1:8000/a');
    const reads = pageTool(async () => {
      tabs.get(6).doc = 2; // history.back() to a page the back/forward cache kept: the same URL would not tell
      return { content: [{ type: 'text', text: 'what the other document shows' }] };
    }, { name: 'reads' });
    await assert.rejects(reads({ tabId: 6, [POLICY_URL_PARAM]: 'http://127.0.0.1:8000/' }, {}),
      (e) => e.code === ErrorCode.PAGE_MOVED && /changed during the call/.test(e.message));
    const unpinned = pageTool(async () => {
      tabs.get(6).doc = 3;
      return { content: [] };
    }, { name: 'click' });
    assert.deepEqual(await unpinned({ tabId: 6, [POLICY_URL_PARAM]: 'http://127.0.0.1:8000/' }, {}), { content: [], _meta: { [READ_META]: [] } });
  });

  it('does not run the tool on a tab that left the site', async () => {
    tab(2, 'http://localhost:8000/');
    let ran = false;
    const handler = pageTool(async () => {
      ran = true;
    }, { onCrashedTab: true });
    await assert.rejects(handler({ tabId: 2, [POLICY_URL_PARAM]: 'http://127.0.0.1:8000/' }, {}),
      (e) => e.code === ErrorCode.PAGE_MOVED && e.data.url === 'http://localhost:8000/');
    assert.equal(ran, false);
  });

  it('recheckSite() looks again at the moment the tool acts', async () => {
    tab(3, 'http://127.0.0.1:8000/a');
    const handler = pageTool(async (tabId, args, ctx) => {
      await ctx.recheckSite(); // still there
      tab(3, 'http://localhost:8000/elsewhere'); // the page moved meanwhile
      await ctx.recheckSite();
      assert.fail('recheckSite should have thrown');
    });
    await assert.rejects(handler({ tabId: 3, [POLICY_URL_PARAM]: 'http://127.0.0.1:8000/' }, {}),
      (e) => e.code === ErrorCode.PAGE_MOVED && e.data.url === 'http://localhost:8000/elsewhere');
  });

  it('without policyUrl (an older host) nothing is checked; a gone tab is TAB_NOT_FOUND, not a site question', async () => {
    tab(4, 'http://localhost:8000/');
    let ran = 0;
    const handler = pageTool(async (tabId, args, ctx) => {
      await ctx.recheckSite();
      ran++;
    });
    await handler({ tabId: 4 }, {});
    await assert.rejects(handler({ tabId: 99, [POLICY_URL_PARAM]: 'http://127.0.0.1:8000/' }, {}),
      (e) => e.code === ErrorCode.TAB_NOT_FOUND && e.message === 'tab 99 is gone — call list_tabs');
    assert.equal(ran, 1);
  });

  it('a tab known from its last event is not asked for again', async () => {
    const known = { id: 6, url: 'http://127.0.0.1:8000/a', status: 'complete', discarded: false, windowId: 1 };
    fire('tabs.onUpdated', 6, { url: known.url }, known);
    const before = looks;
    let url = null;
    await pageTool(async (tabId, args, ctx) => {
      url = ctx.tab.url;
    })({ tabId: 6, [POLICY_URL_PARAM]: 'http://127.0.0.1:8000/' }, {});
    assert.equal(url, 'http://127.0.0.1:8000/a');
    assert.equal(looks, before, 'no chrome.tabs.get');
  });

  // The host may know the new URL first (navigate's answer) while the tab's event is on its way.
  it('a known tab that would fail the check is looked at again before the call is refused', async () => {
    const stale = { id: 7, url: 'http://localhost:8000/old', status: 'complete', discarded: false, windowId: 1 };
    fire('tabs.onUpdated', 7, { url: stale.url }, stale);
    tab(7, 'http://127.0.0.1:8000/new');
    let url = null;
    await pageTool(async (tabId, args, ctx) => {
      url = ctx.tab.url;
    })({ tabId: 7, [POLICY_URL_PARAM]: 'http://127.0.0.1:8000/' }, {});
    assert.equal(url, 'http://127.0.0.1:8000/new');
  });

  it('a known tab that looks crashed is looked at again', async () => {
    const unloaded = { id: 8, url: 'http://127.0.0.1:8000/a', status: 'unloaded', discarded: false, windowId: 1 };
    fire('tabs.onUpdated', 8, { status: 'unloaded' }, unloaded);
    tab(8, 'http://127.0.0.1:8000/a');
    let ran = false;
    await pageTool(async () => {
      ran = true;
    })({ tabId: 8, [POLICY_URL_PARAM]: 'http://127.0.0.1:8000/' }, {});
    assert.ok(ran, 'the browser says it runs');
  });
});
