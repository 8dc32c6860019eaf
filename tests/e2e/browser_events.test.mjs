// Tabs opened and closed by the user in the browser (done here through the
// browser's DevTools HTTP endpoint, bypassing tabbridge) reach the session.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
  TOOLS_FOCUSED_CORE,
  TOOLS_NO_TABS,
  TOOLS_TABS_UNFOCUSED,
  assertCoreTools,
  assertToolSet,
  closeTabFromBrowser,
  devToolsPages,
  devToolsPort,
  expectListChangedEventually,
  expectListChangedNow,
  launchBrowser,
  openTabFromBrowser,
  stepper,
  useHarness,
  waitFor,
} from './harness.mjs';

describe('browser-side tab events', { timeout: 90_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let web, s, port, aUrl, bUrl, cUrl, a, b;

  before(async () => {
    web = await h.fixtureServer();
    aUrl = web.url('/a.html?from=events');
    bUrl = web.url('/b.html?from=events');
    cUrl = web.url('/b.html?from=events-user');
    s = await h.startSession({ name: 'events', extraBrowserArgs: ['--remote-debugging-port=0'] });
    const r = await launchBrowser(s);
    port = await devToolsPort({ profileDir: s.profileDir, browserPid: r.browser.pid });
    // A page that is not an http tab, so closing every http tab never closes
    // the browser's last window.
    await openTabFromBrowser(port, 'about:blank');
    a = (await s.callOk('open_tab', { url: aUrl })).tab.id;
    b = (await s.callOk('open_tab', { url: bUrl, focus: false })).tab.id;
    await expectListChangedNow(s, 2, 'launch + open_tab focused + open_tab unfocused');
  });

  it('an about:blank tab opened in the browser is not listed', step(async () => {
    const pages = await devToolsPages(port);
    assert.ok(pages.some((p) => p.url === 'about:blank'), 'DevTools sees the about:blank page');
    const lt = await s.listTabs();
    assert.deepEqual(lt.tabs.map((t) => t.id).sort((x, y) => x - y), [a, b].sort((x, y) => x - y));
  }));

  it('an unfocused tab closed in the browser leaves list_tabs; no list_changed', step(async () => {
    await closeTabFromBrowser(port, bUrl);
    await waitFor(async () => !(await s.listTabs()).tabs.some((t) => t.id === b), {
      what: `tab ${b} (${bUrl}) to leave list_tabs`,
    });
    await expectListChangedNow(s, 2, 'unfocused tab closed in the browser');
    assert.equal((await s.listTabs()).focusedTabId, a);
    assertCoreTools(await s.toolNames(), TOOLS_FOCUSED_CORE);
  }));

  it('a tab opened in the browser shows up in list_tabs, unfocused; no list_changed', step(async () => {
    await openTabFromBrowser(port, cUrl);
    const lt = await waitFor(
      async () => {
        const r = await s.listTabs();
        return r.tabs.some((t) => t.url === cUrl) ? r : null;
      },
      { what: `a tab with url ${cUrl} in list_tabs` },
    );
    assert.equal(lt.tabs.find((t) => t.url === cUrl).focused, false);
    assert.equal(lt.focusedTabId, a);
    await expectListChangedNow(s, 2, 'tab opened in the browser while tabs exist');
  }));

  it('the focused tab closed in the browser: exactly 1 list_changed, focus lost', step(async () => {
    await closeTabFromBrowser(port, aUrl);
    await expectListChangedEventually(s, 3, 'focused tab closed in the browser');
    assertToolSet(await s.toolNames(), TOOLS_TABS_UNFOCUSED);
    const lt = await s.listTabs();
    assert.equal(lt.focusedTabId, null);
    assert.ok(!lt.tabs.some((t) => t.id === a), `tab ${a} still listed: ${JSON.stringify(lt.tabs)}`);
    assert.ok(lt.tabs.every((t) => t.focused === false));
    assert.deepEqual(lt.tabs.map((t) => t.url), [cUrl]);
  }));

  it('the last tab closed in the browser: exactly 1 list_changed, tools [list_tabs, open_tab]', step(async () => {
    await closeTabFromBrowser(port, cUrl);
    await expectListChangedEventually(s, 4, 'last tab closed in the browser');
    assertToolSet(await s.toolNames(), TOOLS_NO_TABS);
    const lt = await s.listTabs();
    assert.deepEqual(lt.tabs, []);
    assert.equal(lt.focusedTabId, null);
  }));
});
