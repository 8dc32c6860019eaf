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
//   withNavigatedTo(result, [url, readUrl])   // several: where the call sent the tab and the
//                                             // document whose text the answer holds (result_page.js)

import { NAVIGATED_TO_META } from '../../worker/protocol.js';
import { tabUrl } from '../../worker/site_key.js';
import { topDocumentId } from '../stack/tab.js';

// Code that navigates as it returns (location.href = …; return 'ok'): the
// navigation's start is looked for this long after its answer, when the
// call's deadline leaves room (evaluate.js, own_tools.js).
const NAV_GRACE_MS = 50;
export const navGraceWithin = (deadline) => (Date.now() + NAV_GRACE_MS < (deadline ?? Infinity) ? NAV_GRACE_MS : 0);

// The watches running now. One listener per event for all of them, added at
// import (the worker's top level), not three added and removed per call
// (bench/README.md: where evaluate's time goes).
const watches = new Set();
const isTop = (d) => d.frameId === 0 && d.documentLifecycle !== 'prerender';
const toWatches = (d, fn) => {
  if (isTop(d)) for (const w of watches) if (w.tabId === d.tabId) fn(w);
};
chrome.webNavigation.onBeforeNavigate.addListener((d) => toWatches(d, (w) => { w.pending = d.url; }));
chrome.webNavigation.onCommitted.addListener((d) => toWatches(d, (w) => {
  w.committed = d.url;
  w.documents.push(d.documentId);
  w.pending = null;
}));
// An abort for another URL is an older navigation the pending one replaced.
chrome.webNavigation.onErrorOccurred.addListener((d) => toWatches(d, (w) => {
  if (d.url === w.pending || d.error !== 'net::ERR_ABORTED') w.pending = null;
}));

export function watchTopFrame(tabId) {
  // pending: a cross-document navigation started, neither committed nor
  // failed: its URL; committed: the URL of the last cross-document commit.
  const seen = { tabId, pending: null, committed: null, documents: [] };
  watches.add(seen);
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
      if (quiet && !seen.pending && !seen.committed) return null;
      if (!seen.pending && !seen.committed && graceMs > 0) await new Promise((resolve) => setTimeout(resolve, graceMs));
      // Not committed yet: where it is going is what the host must decide.
      if (seen.pending) return seen.pending;
      const [tab, now, was] = await Promise.all([chrome.tabs.get(tabId).catch(() => null), topDocumentId(tabId), before]);
      if (seen.committed) return tabUrl(tab) || seen.committed;
      if (tab?.pendingUrl && tab.url && tab.pendingUrl !== tab.url) return tab.pendingUrl;
      // Another document without a commit seen (an activated prerender): the tab says where.
      return was && now && now !== was ? tabUrl(tab) || null : null;
    },
    // Whether the top frame committed another document since the watch began.
    committed: () => seen.committed !== null,
    // Whether it committed a document other than `documentId` since: the
    // commit of the document itself, heard late (the worker gets events
    // after the page has long loaded), is no move. A commit without an id
    // counts as another.
    committedOtherThan: (documentId) => seen.documents.some((id) => !id || id !== documentId),
    dispose() {
      watches.delete(seen);
    },
  };
}

// urls: one URL, or several (null and repeats dropped): the host decides
// every one of them (read, and navigate for an action) before the model
// sees the result.
export function withNavigatedTo(result, urls) {
  const list = [...new Set((Array.isArray(urls) ? urls : [urls]).filter((u) => typeof u === 'string' && u))];
  if (!list.length || !result || typeof result !== 'object') return result;
  const meta = result._meta && typeof result._meta === 'object' ? result._meta : {};
  return { ...result, _meta: { ...meta, [NAVIGATED_TO_META]: list.length === 1 ? list[0] : list } };
}
