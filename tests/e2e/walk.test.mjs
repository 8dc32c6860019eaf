// Seed 000's state machine walked end to end through the real shim, host,
// extension and headless Chromium, counting notifications/tools/list_changed.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
  McpError,
  TOOLS_DISCONNECTED,
  TOOLS_FOCUSED_CORE,
  TOOLS_NO_TABS,
  TOOLS_TABS_UNFOCUSED,
  assertCoreTools,
  assertToolSet,
  errorText,
  expectListChangedNow,
  launchBrowser,
  snapshotState,
  stepper,
  useHarness,
  waitForTabTitle,
} from './harness.mjs';


describe('DISCONNECTED (no browser)', { timeout: 60_000 }, () => {
  const h = useHarness();
  let s;

  before(async () => {
    s = await h.startSession({ name: 'disconnected' });
  });

  it('advertises tools.listChanged', async () => {
    const caps = s.client.getServerCapabilities();
    assert.equal(caps?.tools?.listChanged, true, `server capabilities: ${JSON.stringify(caps)}`);
  });

  it('lists exactly [connect_browser]', async () => {
    assertToolSet(await s.toolNames(), TOOLS_DISCONNECTED);
    assert.equal(s.listChanged, 0);
  });

  it('connect_browser {} with no browser running fails with connected:false and changes nothing', async () => {
    // Fresh, empty socket dir: no host has ever published a socket there.
    const result = await s.callErr('connect_browser', {});
    const sc = result.structuredContent;
    assert.ok(sc, `failure carries structuredContent: ${JSON.stringify(result)}`);
    assert.equal(sc.connected, false);
    assert.equal(typeof sc.error, 'string');
    assert.ok(sc.error.length > 0);
    assert.equal(typeof sc.instructions, 'string');
    assert.ok(sc.instructions.length > 0);
    assertToolSet(await s.toolNames(), TOOLS_DISCONNECTED);
    assert.equal(s.listChanged, 0, 'a failed connect must not send list_changed');
  });

  it('an unknown tool name is a JSON-RPC error -32602', async () => {
    await assert.rejects(
      s.client.callTool({ name: 'no_such_tool', arguments: {} }),
      (err) => err instanceof McpError && err.code === -32602,
    );
    assertToolSet(await s.toolNames(), TOOLS_DISCONNECTED);
    assert.equal(s.listChanged, 0);
  });
});

// The same walk from an MCP SDK client of each revision the shim speaks: the
// 1.x SDK's initialize (1.23: 2025-06-18; 1.32: 2025-11-25), and the 2.x
// client's server/discover probe then per-request 2026-07-28, its list changes
// on a subscriptions/listen stream.
const WALK_CLIENTS = [
  { sdk: 'v1-2025-06-18', label: '@modelcontextprotocol/sdk 1.23, 2025-06-18', revision: '2025-06-18' },
  { sdk: 'v1', label: '@modelcontextprotocol/sdk 1.x, 2025-11-25', revision: '2025-11-25' },
  { sdk: 'v2', label: '@modelcontextprotocol/client 2.x, 2026-07-28', revision: '2026-07-28' },
];

for (const { sdk, label, revision } of WALK_CLIENTS) describe(`seed-000 walk (${label})`, { timeout: 90_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let web, s, aUrl, bUrl, a, b;

  before(async () => {
    web = await h.fixtureServer();
    aUrl = web.url('/a.html');
    bUrl = web.url('/b.html');
    s = await h.startSession({ name: `walk-${sdk}`, sdk });
  });

  it(`speaks ${revision} and advertises tools.listChanged`, step(async () => {
    assert.equal(s.client.getServerCapabilities()?.tools?.listChanged, true);
    if (sdk === 'v2') {
      assert.equal(s.client.getNegotiatedProtocolVersion(), revision);
      assert.equal(s.client.getProtocolEra(), 'modern');
      assert.deepEqual(s.subscription?.honoredFilter, { toolsListChanged: true });
    } else {
      assert.equal(s.client.getServerVersion()?.name, 'tabbridge');
      assert.equal(s.protocolVersion, revision, 'the revision initialize settled on');
    }
  }));

  it('starts with [connect_browser] and no notification', step(async () => {
    assertToolSet(await s.toolNames(), TOOLS_DISCONNECTED);
    assert.equal(s.listChanged, 0);
  }));

  it('connect_browser {launch:true} connects: 1 list_changed, tools [list_tabs, open_tab]', step(async () => {
    const r = await launchBrowser(s);
    assert.equal(r.connected, true);
    assert.equal(r.launched, true);
    assert.equal(typeof r.browser?.name, 'string');
    assert.equal(typeof r.browser?.version, 'string');
    assert.ok(Number.isInteger(r.browser?.pid) && r.browser.pid > 0, `browser.pid: ${r.browser?.pid}`);
    assert.ok(Number.isInteger(r.hostPid) && r.hostPid > 0, `hostPid: ${r.hostPid}`);
    assert.notEqual(r.hostPid, r.browser.pid);
    assert.equal(r.tabCount, 0, 'a freshly launched browser has no http/https/file tab');
    await expectListChangedNow(s, 1, 'connect_browser');
    assertToolSet(await s.toolNames(), TOOLS_NO_TABS);
  }));

  it('list_tabs on the fresh browser: no tabs, nothing focused', step(async () => {
    const r = await s.listTabs();
    assert.deepEqual(r.tabs, []);
    assert.equal(r.focusedTabId, null);
  }));

  it('open_tab(/a.html) focuses it: 1 list_changed, close_tab appears', step(async () => {
    const r = await s.callOk('open_tab', { url: aUrl });
    assert.ok(Number.isInteger(r.tab?.id), `tab.id: ${JSON.stringify(r.tab)}`);
    assert.equal(r.tab.url, aUrl);
    assert.equal(r.focused, true);
    assert.equal(r.toolsAvailable, undefined, 'tools/list names the tools; the answer does not repeat them');
    a = r.tab.id;
    await expectListChangedNow(s, 2, 'open_tab focused');
    const names = await s.toolNames();
    assertCoreTools(names, TOOLS_FOCUSED_CORE);
  }));

  it('list_tabs shows tab A focused, titled "Page A"', step(async () => {
    const r = await waitForTabTitle(s, a, 'Page A');
    assert.equal(r.focusedTabId, a);
    assert.equal(r.tabs.length, 1, JSON.stringify(r.tabs));
    const t = r.tabs[0];
    assert.equal(t.id, a);
    assert.equal(t.url, aUrl);
    assert.equal(t.focused, true);
    assert.equal(typeof t.toolCount, 'number');
    assert.equal(s.listChanged, 2, 'the page loading must not change the tool list');
  }));

  it('a page tool reads tab A: read_page {mode: "info"} names its title, no list_changed', step(async () => {
    const r = await s.pageOk('read_page', { mode: 'info' });
    assert.match(`${JSON.stringify(r.content)}${JSON.stringify(r.structuredContent ?? {})}`, /Page A/);
    await expectListChangedNow(s, 2, 'a page tool');
  }));

  it('open_tab(/b.html, focus:false) opens it unfocused: no list_changed', step(async () => {
    const r = await s.callOk('open_tab', { url: bUrl, focus: false });
    assert.ok(Number.isInteger(r.tab?.id));
    assert.notEqual(r.tab.id, a);
    assert.equal(r.tab.url, bUrl);
    assert.equal(r.focused, false);
    b = r.tab.id;
    await expectListChangedNow(s, 2, 'open_tab unfocused while tabs exist');
    assertCoreTools(await s.toolNames(), TOOLS_FOCUSED_CORE);
    const lt = await s.listTabs();
    assert.equal(lt.focusedTabId, a);
    assert.equal(lt.tabs.find((t) => t.id === b)?.focused, false);
    assert.equal(lt.tabs.find((t) => t.id === a)?.focused, true);
  }));

  it('focus_tab(B) moves focus to B: no list_changed (same tool list)', step(async () => {
    const r = await s.callOk('focus_tab', { tabId: b });
    assert.equal(r.focused, true);
    assert.equal(r.tab?.id, b);
    assert.equal(r.tab.url, bUrl);
    await expectListChangedNow(s, 2, 'focus_tab to a tab with the same tools');
    const lt = await s.listTabs();
    assert.equal(lt.focusedTabId, b);
    assert.equal(lt.tabs.find((t) => t.id === b)?.focused, true);
    assert.equal(lt.tabs.find((t) => t.id === a)?.focused, false);
    assertCoreTools(await s.toolNames(), TOOLS_FOCUSED_CORE);
  }));

  it('close_tab() closes the focused tab B: 1 list_changed, tools [list_tabs, open_tab, focus_tab]', step(async () => {
    const r = await s.callOk('close_tab', {});
    assert.equal(r.closed, true);
    assert.equal(r.tabId, b);
    await expectListChangedNow(s, 3, 'close_tab of the focused tab');
    assertToolSet(await s.toolNames(), TOOLS_TABS_UNFOCUSED);
    const lt = await s.listTabs();
    assert.equal(lt.focusedTabId, null);
    assert.deepEqual(lt.tabs.map((t) => t.id), [a]);
    assert.equal(lt.tabs[0].focused, false);
  }));

  it('focus_tab(A): 1 list_changed, close_tab is back', step(async () => {
    const r = await s.callOk('focus_tab', { tabId: a });
    assert.equal(r.focused, true);
    assert.equal(r.tab?.id, a);
    await expectListChangedNow(s, 4, 'focus_tab from unfocused');
    assertCoreTools(await s.toolNames(), TOOLS_FOCUSED_CORE);
    assert.equal((await s.listTabs()).focusedTabId, a);
  }));

  it('close_tab({tabId: A}) closes the last tab: 1 list_changed, tools [list_tabs, open_tab]', step(async () => {
    const r = await s.callOk('close_tab', { tabId: a });
    assert.equal(r.closed, true);
    assert.equal(r.tabId, a);
    await expectListChangedNow(s, 5, 'close_tab of the last tab');
    assertToolSet(await s.toolNames(), TOOLS_NO_TABS);
    const lt = await s.listTabs();
    assert.deepEqual(lt.tabs, []);
    assert.equal(lt.focusedTabId, null);
  }));
});

describe('tab-state edges and invalid calls on a connected browser', { timeout: 90_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let web, s, x, xUrl;

  before(async () => {
    web = await h.fixtureServer();
    xUrl = web.url('/a.html?edge=x');
    s = await h.startSession({ name: 'edges' });
    await launchBrowser(s);
    await expectListChangedNow(s, 1, 'connect_browser {launch:true}');
  });

  /** Calls a tool that must fail, then checks that nothing observable changed. */
  async function expectRejectedWithoutChange(name, args, { mentions } = {}) {
    const before = await snapshotState(s);
    const result = await s.callErr(name, args);
    if (mentions) assert.match(errorText(result), mentions);
    const afterState = await snapshotState(s);
    assert.deepEqual(afterState, before, `${name}(${JSON.stringify(args)}) must change nothing`);
    return result;
  }

  it('open_tab {focus:false} with no tabs: 1 list_changed, focus_tab appears but not close_tab', step(async () => {
    const r = await s.callOk('open_tab', { url: xUrl, focus: false });
    assert.equal(r.focused, false);
    x = r.tab.id;
    await expectListChangedNow(s, 2, 'first tab opened unfocused (focus_tab appears)');
    assertToolSet(await s.toolNames(), TOOLS_TABS_UNFOCUSED);
    assert.equal((await s.listTabs()).focusedTabId, null);
  }));

  it('focus_tab on it: 1 list_changed, close_tab appears', step(async () => {
    await s.callOk('focus_tab', { tabId: x });
    await expectListChangedNow(s, 3, 'focus_tab from unfocused');
    assertCoreTools(await s.toolNames(), TOOLS_FOCUSED_CORE);
    await waitForTabTitle(s, x, 'Page A'); // let it settle before the "nothing changes" checks
  }));

  it('focus_tab on the already focused tab: no list_changed', step(async () => {
    const r = await s.callOk('focus_tab', { tabId: x });
    assert.equal(r.tab?.id, x);
    await expectListChangedNow(s, 3, 'focus_tab on the focused tab');
    assert.equal((await s.listTabs()).focusedTabId, x);
  }));

  it('focus_tab {tabId: 999999} is a tool error that points to list_tabs, and changes nothing', step(async () => {
    await expectRejectedWithoutChange('focus_tab', { tabId: 999999 }, { mentions: /list_tabs/ });
  }));

  it('focus_tab {tabId: "abc"} (wrong type) is a tool error, and changes nothing', step(async () => {
    await expectRejectedWithoutChange('focus_tab', { tabId: 'abc' });
  }));

  it('focus_tab {} (missing tabId) is a tool error, and changes nothing', step(async () => {
    await expectRejectedWithoutChange('focus_tab', {});
  }));

  it('close_tab {tabId: 999999} is a tool error, and changes nothing', step(async () => {
    await expectRejectedWithoutChange('close_tab', { tabId: 999999 }, { mentions: /list_tabs/ });
  }));

  it('open_tab {url: "not a url"} is a tool error, and changes nothing', step(async () => {
    await expectRejectedWithoutChange('open_tab', { url: 'not a url' });
  }));

  it('open_tab {url: "javascript:alert(1)"} is a tool error, and changes nothing', step(async () => {
    await expectRejectedWithoutChange('open_tab', { url: 'javascript:alert(1)' });
  }));

  it('an unknown tool name is a JSON-RPC error -32602, and changes nothing', step(async () => {
    const before = await snapshotState(s);
    await assert.rejects(
      s.client.callTool({ name: 'no_such_tool', arguments: {} }),
      (err) => err instanceof McpError && err.code === -32602,
    );
    assert.deepEqual(await snapshotState(s), before);
  }));

  it('close_tab of a tab that is not focused: no list_changed, focus kept', step(async () => {
    const r = await s.callOk('open_tab', { url: web.url('/b.html?edge=y'), focus: false });
    const y = r.tab.id;
    await expectListChangedNow(s, 3, 'open_tab unfocused while tabs exist');
    const c = await s.callOk('close_tab', { tabId: y });
    assert.equal(c.closed, true);
    assert.equal(c.tabId, y);
    await expectListChangedNow(s, 3, 'close_tab of an unfocused tab');
    const lt = await s.listTabs();
    assert.equal(lt.focusedTabId, x);
    assert.deepEqual(lt.tabs.map((t) => t.id), [x]);
  }));
});
