// The wrapper of every request that works on one tab's page (page.<tool>,
// pagetool.call): the tab counts as in use while the call runs (the debugger
// is detached only from idle tabs, debugger_release.js), a tab that left the
// site the host checked the call for (params.policyUrl) is not touched —
// PAGE_MOVED, site_key.js — and a crashed tab's calls are answered at once
// with what to do (crash_watch.js) — unless the tool is one that works on a
// crashed tab (navigate reloads it; the console and network logs are what led
// up to the crash).
//
// The tool gets params without policyUrl, and ctx.recheckSite(): the same
// site check again, for the moment it acts (page_act.js withEffects), and
// ctx.policyUrl for tools that reach beyond the page (download.js).

import { usingTab } from '../../worker/cdp.js';
import { crashedAnswer } from '../../worker/crash_watch.js';
import { POLICY_URL_PARAM } from '../../worker/protocol.js';
import { assertOnSite } from '../../worker/site_key.js';

export function pageHandler(fn, { onCrashedTab = false } = {}) {
  return (params, ctx) => {
    const { [POLICY_URL_PARAM]: policyUrl, ...rest } = params ?? {};
    const { tabId } = rest;
    const currentTab = () => (Number.isInteger(tabId) ? chrome.tabs.get(tabId).catch(() => null) : null);
    // No tab: the tool's own look-up answers "gone".
    const recheckSite = async () => assertOnSite(await currentTab(), policyUrl);
    return usingTab(tabId, async () => {
      const tab = await currentTab();
      assertOnSite(tab, policyUrl);
      return (!onCrashedTab && (await crashedAnswer(tabId, tab))) || fn(rest, { ...ctx, recheckSite, policyUrl });
    });
  };
}
