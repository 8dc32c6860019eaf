// Where a call moved the tab's top frame to (docs/protocol.md "The policy,
// checked twice"): a result whose call took the tab to another document says
// so in _meta[NAVIGATED_TO_META], and the host decides that URL before the
// model sees the result. Same-document navigations (pushState, #fragment)
// keep the document and do not count.
//
//   const nav = watchTopFrame(tabId);         // before the call acts
//   … act, wait …
//   const url = await nav.navigatedTo({graceMs}); // null: still the same document
//   nav.dispose();
//   withNavigatedTo(result, url)              // result with the _meta key merged in (none for null)

import { NAVIGATED_TO_META } from '../../worker/protocol.js';
import { tabUrl } from '../../worker/site_key.js';
import { topDocumentId } from '../stack/tab.js';

// Code that navigates as it returns (location.href = …; return 'ok'): the
// navigation's start is looked for this long after its answer, when the
// call's deadline leaves room (evaluate.js, own_tools.js).
const NAV_GRACE_MS = 50;
export const navGraceWithin = (deadline) => (Date.now() + NAV_GRACE_MS < (deadline ?? Infinity) ? NAV_GRACE_MS : 0);

export function watchTopFrame(tabId) {
  let pending = null; // a cross-document navigation started, neither committed nor failed: its URL
  let committed = null; // the URL of the last cross-document commit
  const top = (d) => d.tabId === tabId && d.frameId === 0 && d.documentLifecycle !== 'prerender';
  const listeners = [
    [chrome.webNavigation.onBeforeNavigate, (d) => { if (top(d)) pending = d.url; }],
    [chrome.webNavigation.onCommitted, (d) => {
      if (!top(d)) return;
      committed = d.url;
      pending = null;
    }],
    // An abort for another URL is an older navigation the pending one replaced.
    [chrome.webNavigation.onErrorOccurred, (d) => {
      if (top(d) && (d.url === pending || d.error !== 'net::ERR_ABORTED')) pending = null;
    }],
  ];
  for (const [event, fn] of listeners) event.addListener(fn);
  // Asked now, awaited only at the end: the caller's next steps (the site
  // check, the action) go on meanwhile; the browser answers in order.
  const before = topDocumentId(tabId);
  before.catch(() => {});
  return {
    // graceMs: how long to look for a navigation's start when none was seen:
    // a script's answer (executeScript, CDP) can overtake the event of the
    // navigation it set off (location.href = …).
    // quiet: the caller knows nothing asked for a navigation (evaluate: no
    // Page.frameRequestedNavigation) — then no event seen means no move, and
    // the tab is not asked again (an activated prerender is asked for too).
    async navigatedTo({ graceMs = 0, quiet = false } = {}) {
      if (quiet && !pending && !committed) return null;
      if (!pending && !committed && graceMs > 0) await new Promise((resolve) => setTimeout(resolve, graceMs));
      // Not committed yet: where it is going is what the host must decide.
      if (pending) return pending;
      const [tab, now, was] = await Promise.all([chrome.tabs.get(tabId).catch(() => null), topDocumentId(tabId), before]);
      if (committed) return tabUrl(tab) || committed;
      if (tab?.pendingUrl && tab.url && tab.pendingUrl !== tab.url) return tab.pendingUrl;
      // Another document without a commit seen (an activated prerender): the tab says where.
      return was && now && now !== was ? tabUrl(tab) || null : null;
    },
    dispose() {
      for (const [event, fn] of listeners) event.removeListener(fn);
    },
  };
}

export function withNavigatedTo(result, url) {
  if (!url || !result || typeof result !== 'object') return result;
  const meta = result._meta && typeof result._meta === 'object' ? result._meta : {};
  return { ...result, _meta: { ...meta, [NAVIGATED_TO_META]: url } };
}
