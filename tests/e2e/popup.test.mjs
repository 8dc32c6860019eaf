// The toolbar popup (extension/popup/) in the real browser: opened as a tab of
// its own (popup.html?tabId=N, through DevTools), its DOM read over CDP. It
// shows the connection (host version, browser), the attached session (client,
// focused tab, last tool), the tab's own tools and the policy's verdict; its
// "Detach" button takes the session's focus away (list_changed, a message),
// its "Disconnect" button closes the session (the shim says it is no longer
// connected; connect_browser attaches again). The badge counts the sessions.
// A screenshot of the popup is written to TABBRIDGE_E2E_LOG_DIR (or the temp
// dir) and its path printed.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  CdpConnection,
  TOOLS_TABS_UNFOCUSED,
  assertToolSet,
  devToolsPages,
  devToolsPort,
  errorText,
  extensionWorker,
  launchBrowser,
  openTabFromBrowser,
  stepper,
  targetWsUrl,
  useHarness,
  waitFor,
  workerEval,
} from './harness.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HOST_VERSION = /inline constexpr std::string_view kVersion = "([^"]+)"/.exec(
  fs.readFileSync(path.join(ROOT, 'common/protocol.h'), 'utf8'))[1];
const PAGE_TOOLS = ['add-todo', 'list-todos', 'explode', 'remove-me']; // webmcp-todo.html registers them

// What the popup shows, read from its DOM.
const READ_POPUP = `(() => {
  const $ = (id) => document.getElementById(id);
  return {
    renders: Number(document.body.dataset.renders || 0),
    connection: $('connection').textContent,
    host: $('host-version').textContent,
    browser: $('browser').textContent,
    policy: $('policy').textContent,
    tabTitle: $('tab-title').textContent,
    tabUrl: $('tab-url').textContent,
    verdict: $('tab-verdict').textContent,
    caps: $('tab-caps').textContent,
    tools: [...document.querySelectorAll('#own-tools li')].map((li) => li.dataset.tool),
    detachDisabled: $('detach').disabled,
    error: $('error').hidden ? '' : $('error').textContent,
    actionError: $('action-error').hidden ? '' : $('action-error').textContent,
    sessions: [...document.querySelectorAll('#sessions li')].map((li) => ({
      id: Number(li.dataset.sessionId),
      client: li.querySelector('.client').textContent,
      focusedTabId: li.querySelector('.focus').dataset.tabId ? Number(li.querySelector('.focus').dataset.tabId) : null,
      focus: li.querySelector('.focus').textContent,
      lastTool: li.querySelector('.last-tool').dataset.tool ?? null,
      lastToolText: li.querySelector('.last-tool').textContent,
    })),
  };
})()`;

describe('the popup and the badge', { timeout: 180_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let web, s, port, tabId, browser, popup, pageUrl;

  const read = () => popup.evaluate(READ_POPUP);
  const waitPopup = (ok, what) => waitFor(async () => {
    const shown = await read();
    return ok(shown) ? shown : null;
  }, { what: `the popup to show ${what}` });
  const badge = () => workerEval(port, 'chrome.action.getBadgeText({})');

  before(async () => {
    web = await h.fixtureServer();
    pageUrl = web.url('/webmcp-todo.html?from=popup');
    s = await h.startSession({ name: 'popup', extraBrowserArgs: ['--remote-debugging-port=0'] });
    const connected = await launchBrowser(s);
    browser = connected.browser;
    port = await devToolsPort({ profileDir: s.profileDir, browserPid: browser.pid });
    await openTabFromBrowser(port, 'about:blank'); // the browser keeps a window whatever the test closes
    tabId = (await s.callOk('open_tab', { url: pageUrl })).tab.id;
    // The page registered its tools once they are offered to the session.
    await waitFor(async () => (await s.toolNames()).some((n) => /add_todo$/.test(n)), {
      what: 'the page\'s add-todo tool in tools/list',
    });
    await s.pageOk('snapshot');
    const extensionId = new URL((await extensionWorker(port)).url).host;
    const popupUrl = `chrome-extension://${extensionId}/popup/popup.html?tabId=${tabId}`;
    const targetId = await openTabFromBrowser(port, popupUrl);
    const target = await waitFor(async () => (await devToolsPages(port)).find((t) => t.id === targetId), {
      what: `the popup's DevTools target ${popupUrl}`,
    });
    popup = await CdpConnection.open(targetWsUrl(port, target));
  });

  it('shows the connection, the session with its tab and last tool, the tab\'s tools and verdict', step(async () => {
    const shown = await waitPopup((p) => p.sessions[0]?.lastTool === 'snapshot' && p.tools.length === PAGE_TOOLS.length,
      'the session\'s last tool and the page\'s tools');
    assert.equal(shown.connection, 'connected');
    assert.match(shown.host, new RegExp(`^tabbridge-host ${HOST_VERSION.replace(/\./g, '\\.')} \\(pid \\d+\\)$`));
    assert.equal(shown.browser, `${browser.name} ${browser.version}`);
    // The harness's policy file (every site allowed): its path and its one rule.
    assert.equal(shown.policy, `${path.join(s.stateDir, 'policy.json')} (1 rule)`);
    assert.equal(shown.sessions.length, 1);
    const [session] = shown.sessions;
    assert.equal(session.client, 'tabbridge-e2e 0.0.0');
    assert.equal(session.focusedTabId, tabId);
    assert.match(session.focus, new RegExp(`^on tab ${tabId}: `));
    assert.match(session.lastToolText, /^last tool: snapshot, \d+ s ago$/);
    assert.equal(shown.tabUrl, pageUrl);
    assert.deepEqual([...shown.tools].sort(), [...PAGE_TOOLS].sort());
    assert.match(shown.verdict, /^Agents may act on 127\.0\.0\.1:\d+\.$/);
    assert.match(shown.caps, /read ✓ {2}act ✓ {2}navigate ✓/);
    assert.equal(shown.detachDisabled, false);
    assert.equal(shown.error, '');
    assert.equal(await badge(), '1', 'the badge counts the attached sessions');

    const shot = await popup.send('Page.captureScreenshot', { format: 'png' });
    const png = Buffer.from(shot.data, 'base64');
    assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG');
    const dir = process.env.TABBRIDGE_E2E_LOG_DIR || os.tmpdir();
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `tabbridge-popup-${process.pid}.png`);
    fs.writeFileSync(file, png);
    console.log(`popup screenshot: ${file}`);
  }));

  it('the last tool follows the session\'s calls', step(async () => {
    await s.callOk('list_tabs');
    await waitPopup((p) => p.sessions[0]?.lastTool === 'list_tabs', 'list_tabs as the last tool');
  }));

  it('"Detach" takes the session\'s focus away: list_changed, a message, the tab stays open', step(async () => {
    const changed = s.listChanged;
    await popup.evaluate("document.getElementById('detach').click()");
    await s.waitForListChanged(changed + 1);
    const tabs = await s.listTabs();
    assert.equal(tabs.focusedTabId, null);
    assert.ok(tabs.tabs.some((t) => t.id === tabId), 'the tab is still open');
    assertToolSet(await s.toolNames(), TOOLS_TABS_UNFOCUSED);
    assert.ok(s.messages.some((m) => /detached you from tab/.test(m.data?.text ?? '')),
      `a notifications/message says why: ${JSON.stringify(s.messages)}`);
    const shown = await waitPopup((p) => p.sessions[0]?.focusedTabId === null, 'the session without a tab');
    assert.equal(shown.sessions[0].focus, 'no tab focused');
    assert.equal(shown.detachDisabled, true);
    assert.equal(shown.actionError, '');
  }));

  it('"Disconnect" closes the session: the shim is no longer connected; connect_browser attaches again', step(async () => {
    const changed = s.listChanged;
    await popup.evaluate("document.querySelector('#sessions li button.disconnect').click()");
    await s.waitForListChanged(changed + 1); // the shim lost the host: [connect_browser]
    const result = await s.callErr('list_tabs');
    assert.match(errorText(result), /not connected to a browser — call connect_browser/);
    assert.ok(s.messages.some((m) => /the user disconnected this session/.test(m.data?.text ?? '')),
      `a notifications/message says why: ${JSON.stringify(s.messages)}`);
    const shown = await waitPopup((p) => p.sessions.length === 0, 'no session');
    assert.equal(shown.connection, 'connected', 'the host is still there for other sessions');
    assert.equal(shown.detachDisabled, true);
    await waitFor(async () => (await badge()) === '', { what: 'the badge to clear' });

    await s.callOk('connect_browser', {});
    await waitPopup((p) => p.sessions.length === 1 && p.sessions[0].lastTool === null, 'the session back');
    await waitFor(async () => (await badge()) === '1', { what: 'the badge to count it again' });
  }));
});
