// Faults in the middle of calls (issue 8): the user switching or closing the
// focused tab, the host SIGKILLed, the browser quitting. Each ends in the
// right state, with one list_changed where the tool list changed and no call
// left without an answer; a second session on its own tab keeps working
// where it can.
//
// "In the middle of a call" is made certain, not hoped for: the call is an
// `evaluate` whose promise fetches /hold?key=K, so once the fixture server
// has seen that request the call is running in the page (the server answers
// it only when the test releases K). Every tab shows its session's token
// (fixtures/soak.html), so every answer shows which tab it came from.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
  workerEval,
  CdpConnection,
  TOOLS_DISCONNECTED,
  TOOLS_FOCUSED_CORE,
  TOOLS_TABS_UNFOCUSED,
  assertCoreTools,
  assertToolSet,
  cdpEvaluate,
  closeTargetFromBrowser,
  devToolsPages,
  errorText,
  expectListChangedEventually,
  expectListChangedNow,
  isAlive,
  procCmdline,
  stepper,
  targetWsUrl,
  useHarness,
  waitFor,
} from './harness.mjs';
import { evalValue, startPageBrowser } from './page_helpers.mjs';

const CAPS = 'eval';

/** Starts a second session B on env's browser, focused on its own soak tab. */
async function startSecondSession(h, env, token) {
  const B = await h.startSession({ name: 'B', socketDir: env.s.socketDir, shimArgs: ['--caps', CAPS] });
  await B.callOk('connect_browser', {});
  const tab = await openSoakTab(env, B, token);
  return { B, tab };
}

/** Opens soak.html?token=… focused in `session`; waits for it to load; returns {id, url, targetId}. */
async function openSoakTab(env, session, token) {
  const url = env.web.url(`/soak.html?token=${token}`);
  const id = (await session.callOk('open_tab', { url })).tab.id;
  const target = await waitFor(async () => (await devToolsPages(env.port)).find((p) => p.url === url), {
    what: `the DevTools target of ${url}`,
  });
  await waitFor(() => cdpEvaluate(targetWsUrl(env.port, target), `document.readyState === 'complete'`), {
    what: `${url} to load`,
  });
  return { id, url, targetId: target.id };
}

/** The token the session's focused tab shows, through evaluate. */
async function focusedToken(session) {
  return evalValue(await session.pageOk('evaluate', { expression: 'document.body.dataset.token' }));
}

/**
 * Starts an evaluate that is certainly running in the page when this returns:
 * it awaits /hold?key=K, and the server has received that request. Returns
 * {answer}: the pending call (it must answer, never time out in the SDK;
 * wrapped, since an async function would wait for a promise it returns).
 */
async function callHeldInPage(env, session, key) {
  const pending = session.call(
    'evaluate',
    { expression: `fetch('/hold?key=${key}').then((r) => r.text())` },
    { timeoutMs: 30_000 },
  );
  await waitFor(() => env.web.requests.some((r) => r.path === '/hold' && r.query.key === key), {
    what: `the page of ${session.name} to request /hold?key=${key}`,
  });
  return { answer: pending };
}

/**
 * Runs page-tool calls on `session`'s focused tab until stop() is called (at
 * least `min`), each checked to show `token`; resolves to the number made.
 */
function keepWorking(session, token, { min = 3 } = {}) {
  let stopped = false;
  const done = (async () => {
    let n = 0;
    while (!stopped || n < min) {
      assert.equal(await focusedToken(session), token, `[${session.name}] call ${n} answered from another tab`);
      n++;
    }
    return n;
  })();
  done.catch(() => {}); // reported by stop(), not as an unhandled rejection meanwhile
  return { stop: () => { stopped = true; return done; }, done };
}

/** Runtime.evaluate in the extension's service worker (ground truth about chrome.tabs). */
const swEval = (env, expression) => workerEval(env.port, expression);

/** The browser's active tab ids, as chrome.tabs says. */
const activeTabIds = (env) => swEval(env, 'chrome.tabs.query({active: true}).then((ts) => ts.map((t) => t.id))');

/** Makes a tab the active one from the browser side, as the user clicking on it; waits until Chrome says so. */
async function activateFromBrowser(env, targetId, tabId) {
  const res = await fetch(`http://127.0.0.1:${env.port}/json/activate/${targetId}`);
  assert.ok(res.ok, `DevTools /json/activate/${targetId}: HTTP ${res.status}`);
  await waitFor(async () => (await activeTabIds(env)).includes(tabId), {
    what: `tab ${tabId} to be the browser's active tab`,
  });
}

describe('the user switches or closes tabs during calls', { timeout: 120_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let env, A, B, tabA, tabA2, tabB;

  before(async () => {
    env = await startPageBrowser(h, { name: 'A', caps: CAPS });
    A = env.s;
    tabA = await openSoakTab(env, A, 'faultAAA');
    tabA2 = (await A.callOk('open_tab', { url: env.web.url('/soak.html?token=faultA22'), focus: false })).tab.id;
    ({ B, tab: tabB } = await startSecondSession(h, env, 'faultBBB'));
    assert.equal(await focusedToken(A), 'faultAAA');
    assert.equal(await focusedToken(B), 'faultBBB');
  });
  after(() => {
    for (let i = 0; i < 4; i++) env?.web.release(`close-${i}`);
  });

  it('switching the active tab in the browser moves no focus: calls go on to each session\'s own tab', step(async () => {
    const before = { a: A.listChanged, b: B.listChanged };
    const aWork = keepWorking(A, 'faultAAA');
    const bWork = keepWorking(B, 'faultBBB');
    // The user clicks through the tabs: B's, A's unfocused one, A's own, B's again.
    const pages = await devToolsPages(env.port);
    const targetOf = (token) => pages.find((p) => p.url.includes(`token=${token}`)).id;
    for (const [token, id] of [['faultBBB', tabB.id], ['faultA22', tabA2], ['faultAAA', tabA.id], ['faultBBB', tabB.id]]) {
      await activateFromBrowser(env, targetOf(token), id);
      assert.equal(await focusedToken(A), 'faultAAA', `A's call after the user activated ${token}`);
    }
    const [na, nb] = await Promise.all([aWork.stop(), bWork.stop()]);
    assert.ok(na >= 3 && nb >= 3);
    // After the switches, too.
    assert.equal(await focusedToken(A), 'faultAAA');
    assert.equal(await focusedToken(B), 'faultBBB');
    assert.equal((await A.listTabs()).focusedTabId, tabA.id);
    assert.equal((await B.listTabs()).focusedTabId, tabB.id);
    await expectListChangedNow(A, before.a, 'the user switching tabs');
    await expectListChangedNow(B, before.b, 'the user switching tabs');
  }));

  it('the user closes the focused tab during a call: it answers isError naming the tab, one list_changed; B works on', step(async () => {
    const before = { a: A.listChanged, b: B.listChanged };
    const bWork = keepWorking(B, 'faultBBB');
    const held = await callHeldInPage(env, A, 'close-0');
    await closeTargetFromBrowser(env.port, tabA.targetId);
    const r = await held.answer;
    assert.equal(r.isError, true, `the call on the closed tab should fail: ${JSON.stringify(r)}`);
    assert.match(errorText(r), new RegExp(`\\btab ${tabA.id}\\b`), 'the error names the tab');
    await expectListChangedEventually(A, before.a + 1, "A's focused tab closed by the user");
    assertToolSet(await A.toolNames(), TOOLS_TABS_UNFOCUSED);
    const la = await A.listTabs();
    assert.equal(la.focusedTabId, null);
    assert.ok(!la.tabs.some((t) => t.id === tabA.id), 'the closed tab is not listed');
    const [, text] = await A.pageErr('evaluate', { expression: '1' });
    assert.match(text, /focus/, 'a page tool now says to focus a tab');

    assert.ok((await bWork.stop()) >= 3);
    await expectListChangedNow(B, before.b, "A's tab closed");
    assertCoreTools(await B.toolNames(), TOOLS_FOCUSED_CORE);
    assert.equal((await B.listTabs()).focusedTabId, tabB.id);
  }));

  it('A focuses its other tab and works there', step(async () => {
    await A.callOk('focus_tab', { tabId: tabA2 });
    assert.equal(await focusedToken(A), 'faultA22');
  }));
});

describe('the host and the browser die during calls', { timeout: 150_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let env, A, B, tabA, tabB, hostPid, browserPid;

  before(async () => {
    env = await startPageBrowser(h, { name: 'A', caps: CAPS });
    A = env.s;
    hostPid = A.lastConnect.hostPid;
    browserPid = env.browserPid;
    tabA = await openSoakTab(env, A, 'hostAAAA');
    ({ B, tab: tabB } = await startSecondSession(h, env, 'hostBBBB'));
  });
  after(() => {
    for (const k of ['kill-a', 'kill-b', 'quit-a', 'quit-b']) env?.web.release(k);
  });

  it('the host SIGKILLed during calls: both answer "connection lost", one list_changed each, the shims live', step(async () => {
    const before = { a: A.listChanged, b: B.listChanged };
    const ha = await callHeldInPage(env, A, 'kill-a');
    const hb = await callHeldInPage(env, B, 'kill-b');
    assert.ok((procCmdline(hostPid) ?? []).join(' ').includes('tabbridge-host'), `pid ${hostPid} is our host`);
    process.kill(hostPid, 'SIGKILL');
    for (const [s, r, n] of [[A, await ha.answer, before.a], [B, await hb.answer, before.b]]) {
      assert.equal(r.isError, true, `[${s.name}] the call should fail: ${JSON.stringify(r)}`);
      assert.match(errorText(r), /connection was lost.*connect_browser/);
      await expectListChangedEventually(s, n + 1, 'the host died');
      assertToolSet(await s.toolNames(), TOOLS_DISCONNECTED);
      assert.ok(isAlive(s.pid) && !s.exited, `[${s.name}] the shim is still running`);
    }
  }));

  it('Chrome starts a new host; connect_browser {} reaches it and each session works on its own tab again', step(async () => {
    for (const [s, tab, token] of [[A, tabA, 'hostAAAA'], [B, tabB, 'hostBBBB']]) {
      const n = s.listChanged;
      const r = await waitFor(
        async () => {
          const c = await s.call('connect_browser', {});
          return c.isError ? null : c.structuredContent;
        },
        { timeoutMs: 25_000, intervalMs: 250, what: `[${s.name}] connect_browser {} to reach a restarted host` },
      );
      assert.equal(r.browser?.pid, browserPid, 'the same browser');
      assert.notEqual(r.hostPid, hostPid, 'a new host');
      await expectListChangedNow(s, n + 1, 'reconnected');
      // A new host starts every session unfocused; the shim focused its tab again (issue 30).
      assert.match(r.restored, new RegExp(`focus is on tab ${tab.id} again`));
      assert.equal((await s.listTabs()).focusedTabId, tab.id);
      await s.callOk('focus_tab', { tabId: tab.id });
      assert.equal(await focusedToken(s), token);
    }
    assert.ok(!isAlive(hostPid), 'the old host is gone');
    hostPid = A.lastConnect.hostPid;
    assert.equal(B.lastConnect.hostPid, hostPid, 'both sessions on the one new host');
  }));

  it('the browser quits during calls: both answer, the shims live, disconnected, and say the browser is gone', step(async () => {
    const before = { a: A.listChanged, b: B.listChanged };
    const ha = await callHeldInPage(env, A, 'quit-a');
    const hb = await callHeldInPage(env, B, 'quit-b');
    // The user quits the browser (CDP Browser.close: a normal shutdown, not a kill).
    const version = await (await fetch(`http://127.0.0.1:${env.port}/json/version`)).json();
    const browser = await CdpConnection.open(version.webSocketDebuggerUrl);
    browser.send('Browser.close').catch(() => {}); // the connection may die before the answer
    const results = [await ha.answer, await hb.answer];
    browser.close();
    await waitFor(() => !isAlive(browserPid), { timeoutMs: 20_000, what: 'the browser to exit' });
    await waitFor(() => !isAlive(hostPid), { what: 'the host to exit with the browser' });
    for (const [s, r, n] of [[A, results[0], before.a], [B, results[1], before.b]]) {
      assert.equal(r.isError, true, `[${s.name}] the call should fail: ${JSON.stringify(r)}`);
      // A quitting browser closes its tabs before its host's port: either may be what the call heard of first.
      assert.match(errorText(r), /connection was lost.*connect_browser|tab \d+ is gone/);
      // Quitting closes the tabs and then the host's port: the host tells of tab
      // events once per kTabEventCoalesceMs, so the burst and the disconnect are
      // one list_changed, not one per state passed (focused → no tabs → gone).
      await s.waitForListChanged(n + 1);
      await waitFor(async () => (await s.toolNames()).join() === TOOLS_DISCONNECTED.join(), {
        what: `[${s.name}] tools/list to be [connect_browser]`,
      });
      const changes = s.listChanged - n;
      assert.equal(changes, 1, `[${s.name}] ${changes} list_changed for the browser quitting`);
      assert.ok(isAlive(s.pid) && !s.exited, `[${s.name}] the shim is still running`);
      const c = await s.callErr('connect_browser', {});
      assert.equal(c.structuredContent?.connected, false);
      assert.match(errorText(c), /no browser/i, 'connect_browser says no browser is running');
      const [, lt] = await s.pageErr('list_tabs', {});
      assert.match(lt, /not connected.*connect_browser/);
      await expectListChangedNow(s, n + changes, 'failed calls while disconnected');
    }
  }));
});
