// Two shims on one browser are two independent sessions: each has its own
// focus, its own tool list and its own list_changed notifications.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
  TOOLS_FOCUSED_CORE,
  TOOLS_TABS_UNFOCUSED,
  assertCoreTools,
  assertToolSet,
  expectListChangedEventually,
  expectListChangedNow,
  launchBrowser,
  stepper,
  useHarness,
  waitFor,
} from './harness.mjs';

describe('two sessions on one browser', { timeout: 90_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let web, A, B, launched, t1, t2, t1Url, t2Url;

  before(async () => {
    web = await h.fixtureServer();
    t1Url = web.url('/a.html?session=A');
    t2Url = web.url('/b.html?session=B');
    A = await h.startSession({ name: 'A' });
    launched = await launchBrowser(A);
    await expectListChangedNow(A, 1, 'connect_browser {launch:true}');
  });

  it('A opens tab 1 and focuses it', step(async () => {
    const r = await A.callOk('open_tab', { url: t1Url });
    assert.equal(r.focused, true);
    t1 = r.tab.id;
    await expectListChangedNow(A, 2, 'A open_tab focused');
  }));

  it('B attaches to the same browser with connect_browser {} and sees tab 1 unfocused', step(async () => {
    B = await h.startSession({ name: 'B', socketDir: A.socketDir });
    const r = await B.callOk('connect_browser', {});
    assert.equal(r.connected, true);
    assert.equal(r.launched, false);
    assert.equal(r.browser?.pid, launched.browser.pid, 'same browser');
    assert.equal(r.hostPid, launched.hostPid, 'same host');
    assert.equal(r.tabCount, 1);
    await expectListChangedNow(B, 1, 'B connect_browser');
    assertToolSet(await B.toolNames(), TOOLS_TABS_UNFOCUSED);
    const lt = await B.listTabs();
    assert.equal(lt.focusedTabId, null, "A's focus is not B's");
    assert.deepEqual(lt.tabs.map((t) => [t.id, t.focused]), [[t1, false]]);
    await A.barrier();
    assert.equal(A.listChanged, 2, "B's connect is no change of A's tool list");
  }));

  it("B opens tab 2 focused: A keeps tab 1 and gets no list_changed", step(async () => {
    const r = await B.callOk('open_tab', { url: t2Url });
    assert.equal(r.focused, true);
    t2 = r.tab.id;
    assert.notEqual(t2, t1);
    await expectListChangedNow(B, 2, 'B open_tab focused');
    assertCoreTools(await B.toolNames(), TOOLS_FOCUSED_CORE);
    assert.equal((await B.listTabs()).focusedTabId, t2);

    const la = await waitFor(
      async () => {
        const r2 = await A.listTabs();
        return r2.tabs.some((t) => t.id === t2) ? r2 : null;
      },
      { what: "B's tab 2 in A's list_tabs" },
    );
    assert.equal(la.focusedTabId, t1);
    assert.equal(la.tabs.find((t) => t.id === t1)?.focused, true);
    assert.equal(la.tabs.find((t) => t.id === t2)?.focused, false);
    await A.barrier();
    assert.equal(A.listChanged, 2, "B's activity must not send A list_changed");
    assertCoreTools(await A.toolNames(), TOOLS_FOCUSED_CORE);
  }));

  it("B closes A's focused tab: A gets exactly 1 list_changed and loses focus; B unaffected", step(async () => {
    const r = await B.callOk('close_tab', { tabId: t1 });
    assert.equal(r.closed, true);
    assert.equal(r.tabId, t1);
    await expectListChangedNow(B, 2, 'B closing a tab it had not focused');
    assertCoreTools(await B.toolNames(), TOOLS_FOCUSED_CORE);
    const lb = await B.listTabs();
    assert.equal(lb.focusedTabId, t2);
    assert.deepEqual(lb.tabs.map((t) => t.id), [t2]);

    await expectListChangedEventually(A, 3, "A's focused tab closed by B");
    assertToolSet(await A.toolNames(), TOOLS_TABS_UNFOCUSED);
    const la = await A.listTabs();
    assert.equal(la.focusedTabId, null);
    assert.deepEqual(la.tabs.map((t) => [t.id, t.focused]), [[t2, false]]);
  }));
});
