// Tabs the person can see, in the real browser: each session's tabs go into a
// tab group titled with its MCP client's name, in a colour of its own (read
// back through chrome.tabGroups in the extension's worker); a session's end
// leaves its group retitled "<client> — ended" and grey; a tab the person
// opened shows a badge while a session works in it; list_tabs marks the
// person's active tab as they switch, focus_tab {tabId: "active"} picks it and
// focus_tab {show: true} brings a tab to the front.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
  devToolsPort,
  expectListChangedEventually,
  launchBrowser,
  openTabFromBrowser,
  stepper,
  useHarness,
  waitFor,
  workerEval,
} from './harness.mjs';

const CLIENT = 'tabbridge-e2e'; // the harness's clientInfo.name

describe('tab groups and the person\'s active tab', { timeout: 180_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let web, A, B, port, a1, a2, b1, personTab;

  // The group tab `id` is in, as chrome.tabGroups has it (null when none).
  const groupOf = (id) => workerEval(port, `chrome.tabs.get(${id}).then((t) => t.groupId === -1 ? null
    : chrome.tabGroups.get(t.groupId).then((g) => ({ id: g.id, title: g.title, color: g.color })))`);
  const switchTo = (id) => workerEval(port, `chrome.tabs.update(${id}, { active: true }).then(() => true)`);
  const badgeOf = (id) => workerEval(port, `chrome.action.getBadgeText({ tabId: ${id} })`);
  const activeIn = async (session, id) => waitFor(async () => {
    const listed = await session.listTabs();
    return listed.activeTabId === id ? listed : null;
  }, { what: `[${session.name}] list_tabs to say tab ${id} is the person's active tab` });

  before(async () => {
    web = await h.fixtureServer();
    A = await h.startSession({ name: 'A', extraBrowserArgs: ['--remote-debugging-port=0'] });
    const connected = await launchBrowser(A);
    port = await devToolsPort({ profileDir: A.profileDir, browserPid: connected.browser.pid });
    await openTabFromBrowser(port, 'about:blank'); // the browser keeps a window whatever the test closes
  });

  it('a session\'s tabs go into one group titled with its client\'s name', step(async () => {
    a1 = (await A.callOk('open_tab', { url: web.url('/a.html?tab=a1') })).tab.id;
    a2 = (await A.callOk('open_tab', { url: web.url('/b.html?tab=a2'), focus: false })).tab.id;
    const g1 = await waitFor(() => groupOf(a1), { what: `tab ${a1} in a group` });
    assert.equal(g1.title, CLIENT);
    assert.equal(g1.color, 'blue');
    assert.deepEqual(await groupOf(a2), g1, 'the session\'s second tab joins its group');
  }));

  it('a second session gets a group of another colour', step(async () => {
    B = await h.startSession({ name: 'B', socketDir: A.socketDir });
    await B.callOk('connect_browser', {});
    b1 = (await B.callOk('open_tab', { url: web.url('/a.html?tab=b1') })).tab.id;
    const gb = await waitFor(() => groupOf(b1), { what: `tab ${b1} in a group` });
    const ga = await groupOf(a1);
    assert.equal(gb.title, `${CLIENT} 2`, 'a second session of the same client');
    assert.equal(gb.color, 'red');
    assert.notEqual(gb.id, ga.id);
  }));

  it('list_tabs marks the person\'s active tab as they switch, with no list_changed', step(async () => {
    // A works in a tab the person closes after switching: that close is the one list_changed A gets.
    const spare = (await A.callOk('open_tab', { url: web.url('/b.html?tab=spare') })).tab.id;
    await A.barrier();
    const changed = A.listChanged;
    await switchTo(a2);
    let listed = await activeIn(A, a2);
    assert.deepEqual(listed.tabs.filter((t) => t.active).map((t) => t.id), [a2], 'exactly one tab is active');
    assert.ok(listed.tabs.every((t) => Number.isInteger(t.windowId)), 'each tab says its window');
    await switchTo(b1);
    listed = await activeIn(A, b1);
    assert.deepEqual(listed.tabs.filter((t) => t.active).map((t) => t.id), [b1]);
    await workerEval(port, `chrome.tabs.remove(${spare}).then(() => true)`);
    await expectListChangedEventually(A, changed + 1, 'the person switched tabs twice, then closed A\'s tab');
    await A.callOk('focus_tab', { tabId: a1 });
  }));

  it('the person\'s active tab follows the focused normal window, not a popup', step(async () => {
    const before = (await A.listTabs()).activeTabId;
    assert.ok(Number.isInteger(before));
    const second = await workerEval(port, `chrome.windows.create({ url: '${web.url('/b.html?window=second')}',
      focused: true }).then((w) => ({ windowId: w.id, tabId: w.tabs[0].id }))`);
    const listed = await activeIn(A, second.tabId);
    assert.equal(listed.tabs.find((t) => t.id === second.tabId).windowId, second.windowId);

    const popup = await workerEval(port, `chrome.windows.create({ url: '${web.url('/a.html?window=popup')}',
      type: 'popup', focused: true }).then((w) => ({ windowId: w.id, tabId: w.tabs[0].id }))`);
    // The popup's tab navigates: its tab.updated leaves after what its focus did.
    const moved = web.url('/b.html?window=popup-moved');
    await workerEval(port, `chrome.tabs.update(${popup.tabId}, { url: '${moved}' }).then(() => true)`);
    const after = await waitFor(async () => {
      const r = await A.listTabs();
      return r.tabs.some((t) => t.url === moved) ? r : null;
    }, { what: 'the popup\'s tab at its new URL' });
    assert.equal(after.activeTabId, second.tabId, 'a popup window taking the focus does not move it');

    // The second window closes: the person is back in the first one.
    await workerEval(port, `chrome.windows.remove(${second.windowId}).then(() => true)`);
    await activeIn(A, before);
    await workerEval(port, `chrome.windows.remove(${popup.windowId}).then(() => true)`);
  }));

  it('focus_tab {tabId: "active"} focuses the person\'s tab', step(async () => {
    await switchTo(a2);
    await activeIn(A, a2);
    const r = await A.callOk('focus_tab', { tabId: 'active' });
    assert.equal(r.tab.id, a2);
    assert.equal((await A.listTabs()).focusedTabId, a2);
    const wrong = await A.callErr('focus_tab', { tabId: 'mine' });
    assert.match(wrong.content[0].text, /tabId must be an integer or "active", not a string \("mine"\)/);
  }));

  it('focus_tab {show: true} brings the tab to the front', step(async () => {
    const r = await A.callOk('focus_tab', { tabId: a1, show: true });
    assert.equal(r.shown, true);
    const tab = await workerEval(port, `chrome.tabs.get(${a1})`);
    assert.equal(tab.active, true, 'the tab is its window\'s active tab');
    await activeIn(A, a1);
  }));

  it('a tab the person opened shows a badge while a session works in it', step(async () => {
    const url = web.url('/a.html?opened=by-the-person');
    await openTabFromBrowser(port, url);
    personTab = (await waitFor(async () => (await A.listTabs()).tabs.find((t) => t.url === url),
      { what: 'the person\'s tab in list_tabs' })).id;
    assert.equal(await groupOf(personTab), null, 'the person\'s tab is in no group');
    await A.callOk('focus_tab', { tabId: personTab });
    await waitFor(async () => (await badgeOf(personTab)) === 'AI', { what: 'the badge on the person\'s tab' });
    // Chrome drops a tab's own badge when it navigates: it comes back while the session is still there.
    await workerEval(port, `chrome.tabs.reload(${personTab}).then(() => true)`);
    await waitFor(async () => (await workerEval(port, `chrome.tabs.get(${personTab})`)).status === 'complete' &&
      (await badgeOf(personTab)) === 'AI', { what: 'the badge on the person\'s tab after a reload' });
    await A.callOk('focus_tab', { tabId: a1 });
    await waitFor(async () => (await badgeOf(personTab)) !== 'AI', { what: 'the badge to go with the session' });
    assert.notEqual(await badgeOf(a1), 'AI', 'a tab in the session\'s group needs no badge');
  }));

  it('a session that ends leaves its group retitled and grey; the other\'s stays', step(async () => {
    const before = await groupOf(b1);
    await B.close();
    const ended = await waitFor(async () => {
      const g = await groupOf(b1);
      return g?.color === 'grey' ? g : null;
    }, { what: 'B\'s group to say it ended' });
    assert.equal(ended.id, before.id, 'the same group, its tabs kept');
    assert.equal(ended.title, `${CLIENT} 2 — ended`);
    const ga = await groupOf(a1);
    assert.equal(ga.title, CLIENT);
    assert.equal(ga.color, 'blue');
  }));
});
