// Issue 44's attack review, H5: no channel to the person about a site the
// session may not read. A session on a browser where the person is on a tab
// of D (localhost, denied) could learn which tab that is (list_tabs active),
// focus it as "the page I'm on", and bring it to the front (focus_tab show)
// next to its own words. Now list_tabs withholds it and says so, and both
// focus_tab forms are refused, changing nothing. (ask_person on such a tab is
// refused too: tests/unit/policy_host_test.cpp — these browsers run headless,
// where ask_person is refused first for having nobody to ask.)

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { devToolsPages, openTabFromBrowser, useHarness, waitFor } from './harness.mjs';
import { allText } from './page_helpers.mjs';
import { startDenyingD } from './attack_helpers.mjs';

describe('attack: the person\'s tab on a denied site', { timeout: 120_000 }, () => {
  const h = useHarness();
  let env;
  let denied; // {tabId, targetId}

  before(async () => {
    env = await startDenyingD(h, 'attack-consent');
    const url = `${env.web.localhostOrigin}/attack-capture-denied.html?person`;
    const targetId = await openTabFromBrowser(env.port, url);
    const res = await fetch(`http://127.0.0.1:${env.port}/json/activate/${targetId}`); // the person looks at it
    assert.ok(res.ok, `DevTools /json/activate: HTTP ${res.status}`);
    // Its id as list_tabs gives it (withheld: no URL), the one with D's site.
    const tab = await waitFor(async () => (await env.s.listTabs()).tabs.find((t) => t.site === 'localhost:' + new URL(url).port),
      { what: 'the denied tab in list_tabs' });
    denied = { tabId: tab.id, targetId };
    assert.ok((await devToolsPages(env.port)).some((p) => p.id === targetId));
  });

  it('list_tabs does not say which tab the person is on, and says why', async () => {
    const listed = await waitFor(async () => {
      const l = await env.s.listTabs();
      return l.activeWithheld ? l : null;
    }, { what: 'list_tabs once the browser said the person is on the denied tab' });
    assert.equal(listed.activeTabId, null);
    assert.match(listed.activeWithheld, /denies this session/);
    assert.ok(listed.tabs.every((t) => !t.active), JSON.stringify(listed.tabs));
  });

  it('focus_tab {tabId: "active"} is refused and focuses nothing', async () => {
    const r = await env.s.call('focus_tab', { tabId: 'active' });
    assert.equal(r.isError, true, allText(r));
    assert.match(allText(r), /denies this session/);
    assert.equal((await env.s.listTabs()).focusedTabId, null);
  });

  it('focus_tab {show: true} on the denied tab is refused and changes nothing', async () => {
    const r = await env.s.call('focus_tab', { tabId: denied.tabId, show: true });
    assert.equal(r.isError, true, allText(r));
    assert.match(allText(r), /not shown to the person, and nothing changed/);
    assert.equal((await env.s.listTabs()).focusedTabId, null);
  });
});
