// The host dies mid-session (the browser lives): the shim falls back to
// DISCONNECTED with one list_changed; the extension reconnects, Chrome starts
// a new host, and connect_browser {} (no launch) attaches to it with the tabs
// still there and the session's focus restored (issue 30).

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
  HOST_PATH,
  TOOLS_DISCONNECTED,
  TOOLS_FOCUSED_CORE,
  assertCoreTools,
  assertToolSet,
  expectListChangedEventually,
  expectListChangedNow,
  isAlive,
  launchBrowser,
  procCmdline,
  procEnviron,
  stepper,
  useHarness,
  waitFor,
} from './harness.mjs';

const byId = (x, y) => x.id - y.id;

describe('host restart', { timeout: 90_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let web, s, launched, tabsBefore, focusedBefore, reconnected;

  before(async () => {
    web = await h.fixtureServer();
    s = await h.startSession({ name: 'restart' });
    launched = await launchBrowser(s);
    await s.callOk('open_tab', { url: web.url('/a.html?restart=1') });
    await s.callOk('open_tab', { url: web.url('/b.html?restart=1'), focus: false });
    await expectListChangedNow(s, 2, 'launch + open_tab focused + open_tab unfocused');
    const before = await s.listTabs();
    tabsBefore = before.tabs.map((t) => ({ id: t.id, url: t.url })).sort(byId);
    focusedBefore = before.focusedTabId;
    assert.equal(tabsBefore.length, 2);
  });

  it('killing the host: exactly 1 list_changed, tools back to [connect_browser]', step(async () => {
    const hostPid = launched.hostPid;
    // Only ever kill our own host: it runs bin/tabbridge-host and inherited our socket dir.
    assert.ok(isAlive(hostPid), `host pid ${hostPid} is not running`);
    const cmd = (procCmdline(hostPid) ?? []).join(' ');
    assert.ok(cmd.includes('tabbridge-host'), `pid ${hostPid} is not tabbridge-host: ${cmd} (expected ${HOST_PATH})`);
    assert.ok(
      (procEnviron(hostPid) ?? []).includes(`TABBRIDGE_SOCKET_DIR=${s.socketDir}`),
      `pid ${hostPid} does not belong to this test's socket dir ${s.socketDir}`,
    );

    process.kill(hostPid, 'SIGKILL');
    await s.waitForListChanged(3, { timeoutMs: 5_000 });
    await waitFor(
      async () => {
        const names = await s.toolNames();
        return names.length === 1 && names[0] === 'connect_browser';
      },
      { timeoutMs: 5_000, what: 'tools/list to be [connect_browser] after the host died' },
    );
    await expectListChangedEventually(s, 3, 'host died');
    assertToolSet(await s.toolNames(), TOOLS_DISCONNECTED);
  }));

  it('connect_browser {} reaches the host Chrome restarted, without launching', step(async () => {
    let failures = 0;
    reconnected = await waitFor(
      async () => {
        const r = await s.call('connect_browser', {}, { timeoutMs: 10_000 });
        if (r.isError) {
          failures++;
          // Until the new host is up, the answer is the "no browser" failure, which changes nothing.
          assert.equal(r.structuredContent?.connected, false, `unexpected failure: ${JSON.stringify(r)}`);
          return null;
        }
        return r.structuredContent;
      },
      { timeoutMs: 25_000, intervalMs: 250, what: 'connect_browser {} to succeed against the restarted host' },
    );
    assert.equal(reconnected.connected, true);
    assert.equal(reconnected.launched, false);
    assert.equal(reconnected.tabCount, tabsBefore.length);
    assert.equal(reconnected.browser?.pid, launched.browser.pid, 'the same browser');
    assert.ok(Number.isInteger(reconnected.hostPid) && reconnected.hostPid > 0);
    assert.notEqual(reconnected.hostPid, launched.hostPid, 'a new host process');
    assert.ok(!isAlive(launched.hostPid), 'the old host is gone');
    assert.match(reconnected.restored, /the connection was lost at \d\d:\d\d:\d\d UTC/);
    assert.match(reconnected.restored, new RegExp(`tab ${focusedBefore} is still open.*focus is on tab ${focusedBefore} again`));
    // 1 for the disconnect, 1 for this connect (its focus restored); the failed attempts send none.
    await expectListChangedNow(s, 4, `reconnect (after ${failures} failed attempts)`);
  }));

  it('the tabs open before the restart are listed again, the session\'s focus restored', step(async () => {
    const lt = await s.listTabs();
    assert.deepEqual(lt.tabs.map((t) => ({ id: t.id, url: t.url })).sort(byId), tabsBefore);
    assert.equal(lt.focusedTabId, focusedBefore, 'connect_browser {} focused the session\'s tab again');
    assertCoreTools(await s.toolNames(), TOOLS_FOCUSED_CORE);
  }));

  it('the new host serves the session: focus_tab works', step(async () => {
    const other = tabsBefore.find((t) => t.id !== focusedBefore);
    const r = await s.callOk('focus_tab', { tabId: other.id });
    assert.equal(r.tab?.id, other.id);
    assert.equal((await s.listTabs()).focusedTabId, other.id);
    assertCoreTools(await s.toolNames(), TOOLS_FOCUSED_CORE);
  }));
});
