// A dead browser is not the end of the task (issue 30). A browser the shim
// launched that is killed mid-session is started again on the same profile,
// with the session's tabs reopened and its focus back, and the next answer
// says how it had ended; a call in flight when it died answers at once. A
// browser the shim did not launch is never started again: the answer says it
// went away, and when.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { errorText, findProcsByMarkers, isAlive, useHarness, waitFor } from './harness.mjs';

const PAGE_A_TEXT = 'Fixture page A';

// Both ways a launch gives the browser our extension (launch.test.mjs): a
// restart goes the same way.
for (const method of ['flag', 'pipe']) {
  describe(`a launched browser killed mid-session (extension over ${method})`, { timeout: 150_000 }, () => {
    const h = useHarness();

    it('is started again: the next call says so, with the session\'s tabs back and focused', async () => {
      const web = await h.fixtureServer();
      const s = await h.startSession({ name: `restart-${method}`, env: { TABBRIDGE_LAUNCH_METHOD: method } });
      const first = await s.callOk('connect_browser', { launch: true });
      const a = web.url('/a.html?restart=1');
      const b = web.url('/b.html?restart=1');
      await s.callOk('open_tab', { url: b, focus: false });
      const opened = await s.callOk('open_tab', { url: a });
      assert.equal((await s.listTabs()).focusedTabId, opened.tab.id);

      // A call in flight when the browser dies: a wait that would last a minute.
      const inFlight = s.call('wait_for', { text: 'never on this page', timeoutMs: 60_000 }, { timeoutMs: 90_000 });
      await s.listTabs(); // answered after the host took the wait_for: it is in flight there
      const changes = s.listChanged;
      process.kill(first.browser.pid, 'SIGKILL');

      // It answers now, not after its minute: the host fails it as its browser
      // goes (or the shim, when the host went first).
      const lost = await inFlight;
      assert.equal(lost.isError, true, JSON.stringify(lost));
      assert.match(errorText(lost), /the browser connection was lost/);

      // The restart ends with the tools of the restored tab (tools/list_changed).
      await s.waitForListChanged(changes + 1, { timeoutMs: 60_000 });
      const result = await s.call('list_tabs', {}, { timeoutMs: 60_000 });
      assert.notEqual(result.isError, true, errorText(result));
      const text = errorText(result);
      assert.match(text, /the browser had crashed \(signal 9\); it was started again \(pid \d+\)/, text);
      const pid = Number(/started again \(pid (\d+)\)/.exec(text)[1]);
      s.browserPids.add(pid); // cleanup kills it
      assert.notEqual(pid, first.browser.pid);
      assert.ok(isAlive(pid), `the browser started again (pid ${pid}) runs`);
      assert.ok(!isAlive(first.browser.pid), 'the killed browser is gone');

      const { tabs, focusedTabId } = result.structuredContent;
      assert.deepEqual(tabs.map((t) => t.url).sort(), [a, b].sort(), JSON.stringify(tabs));
      const back = tabs.find((t) => t.url === a);
      assert.equal(focusedTabId, back.id, 'the focus is where the tab came back');
      assert.match(text, new RegExp(`tab ${opened.tab.id} is now tab ${back.id}.*focus is on tab ${back.id} again`));

      // The focused tab's page tools work on it.
      const read = await s.pageOk('read_page', {});
      assert.match(errorText(read), new RegExp(PAGE_A_TEXT));

      // Said once: the next answer is the host's alone.
      assert.doesNotMatch(errorText(await s.call('list_tabs')), /crashed/);
    });
  });
}

describe('a browser the shim did not launch', { timeout: 120_000 }, () => {
  const h = useHarness();

  it('is not started again: the answer says it went away, and when', async () => {
    const web = await h.fixtureServer();
    // Launched by another shim that has ended: to this session it is a browser
    // someone else runs.
    const owner = await h.startSession({ name: 'owner' });
    const launched = await owner.callOk('connect_browser', { launch: true });
    await owner.close();
    await waitFor(() => owner.exited, { what: 'the launching shim to exit' });

    const s = await h.startSession({ name: 'user', socketDir: owner.socketDir, profileDir: owner.profileDir });
    const connected = await s.callOk('connect_browser', {});
    assert.equal(connected.launched, false);
    await s.callOk('open_tab', { url: web.url('/a.html?user=1') });
    const changes = s.listChanged;
    process.kill(launched.browser.pid, 'SIGKILL');
    await s.waitForListChanged(changes + 1, { timeoutMs: 20_000 }); // disconnected: connect_browser alone

    const result = await s.callErr('list_tabs');
    const text = errorText(result);
    assert.match(text, /not connected to a browser/, text);
    assert.match(text, /went away at \d\d:\d\d:\d\d UTC \(\d+ s ago\): it crashed or was closed/, text);
    assert.match(text, /does not start it again/, text);

    // Nothing started it: no browser runs on its profile, and no host answers.
    await waitFor(() => !isAlive(launched.browser.pid), { what: 'the killed browser to be gone' });
    // (The killed browser's helpers go a moment after it; a browser started again would stay.)
    await waitFor(() => findProcsByMarkers([`--user-data-dir=${owner.profileDir}`]).length === 0, {
      what: 'no process to run on the killed browser\'s profile',
    });
    const again = await s.callErr('connect_browser', {});
    assert.equal(again.structuredContent.connected, false, JSON.stringify(again.structuredContent));
  });
});

describe('two sessions on one launched browser', { timeout: 150_000 }, () => {
  const h = useHarness();

  it('the one that launched it starts it again; the other reconnects with connect_browser {} and gets its own tab back', async () => {
    const web = await h.fixtureServer();
    const owner = await h.startSession({ name: 'owner' });
    const first = await owner.callOk('connect_browser', { launch: true });
    await owner.callOk('open_tab', { url: web.url('/a.html?owner=1') });
    const other = await h.startSession({ name: 'other', socketDir: owner.socketDir, profileDir: owner.profileDir });
    assert.equal((await other.callOk('connect_browser', {})).launched, false);
    const b = web.url('/b.html?other=1');
    const mine = await other.callOk('open_tab', { url: b });

    const changes = { owner: owner.listChanged, other: other.listChanged };
    process.kill(first.browser.pid, 'SIGKILL');
    await other.waitForListChanged(changes.other + 1, { timeoutMs: 20_000 }); // disconnected
    await owner.waitForListChanged(changes.owner + 1, { timeoutMs: 60_000 }); // started again
    const ownerTabs = await owner.call('list_tabs', {}, { timeoutMs: 60_000 });
    const pid = Number(/started again \(pid (\d+)\)/.exec(errorText(ownerTabs))?.[1]);
    assert.ok(pid > 0, errorText(ownerTabs));
    owner.browserPids.add(pid);

    // The other session reaches the new browser's host, and its tab comes back, focused.
    const reconnected = await waitFor(
      async () => {
        const r = await other.call('connect_browser', {}, { timeoutMs: 10_000 });
        return r.isError ? null : r.structuredContent;
      },
      { timeoutMs: 30_000, intervalMs: 250, what: 'connect_browser {} to reach the browser started again' },
    );
    assert.equal(reconnected.browser.pid, pid, 'the browser its owner started again');
    assert.equal(reconnected.launched, false, 'not launched by this session');
    const { tabs, focusedTabId } = await other.listTabs();
    const back = tabs.find((t) => t.url === b);
    assert.ok(back, `its tab is back: ${JSON.stringify(tabs)}`);
    assert.equal(focusedTabId, back.id);
    assert.match(reconnected.restored, new RegExp(`tab ${mine.tab.id} is now tab ${back.id}.*focus is on tab ${back.id} again`));
    assert.equal(tabs.filter((t) => t.url === b).length, 1, 'reopened once, by its own session');
    assert.match(errorText(await other.pageOk('read_page', {})), /Fixture page B|Page B/);
  });
});
