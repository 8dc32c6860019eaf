// Tabs: the Tab object the host sees, the tab events, and the tab requests.

import { ErrorCode, Event, Method, RpcError, isAgentUrl } from './protocol.js';
import { registerHandler, sendEvent } from './native_port.js';
import { chromeErrorKind } from './chrome_errors.js';
import { isCrashed, onTabCrashed } from './crash_watch.js';
import { watchTopLoads } from './page_load.js';
import { OWN_TOOLS_WAIT_MS, ownToolsHeard } from './own_tools_heard.js';
import { cut } from './text_cut.js';
import { isPersonActive, onPersonActiveMaybeMoved, refreshPersonActive } from './active_tab.js';
import { groupTab } from './tab_groups.js';

// Anything else (chrome:, javascript:, extension pages, ...) is not the agent's to open.

// Chrome maps other about: URLs (about:version, about:settings) to chrome:// pages.

// Launch tabs a first page went into (intoBlankTab) whose page has not
// committed yet: they still show the browser's initial about:blank, which
// no page ever had (the host offers only a headless launched browser's
// launch tab); until the commit the host sees where they are going, as it
// does for a new tab. Only the host's view: every check of a site reads the
// committed URL (site_key.js tabUrl).
const goingInto = new Set();

const hostUrl = (tab) => (goingInto.has(tab.id) && tab.url === 'about:blank' && tab.pendingUrl ? tab.pendingUrl : tab.url || tab.pendingUrl || '');

// active: the person's active tab (active_tab.js), not the active tab of each window.
export const toTab = (tab) => ({
  id: tab.id,
  windowId: tab.windowId,
  title: tab.title ?? '',
  url: hostUrl(tab),
  status: tab.status ?? '',
  active: isPersonActive(tab.id),
  crashed: isCrashed(tab.id),
});

// Events leave in the order Chrome fired them, even the one that needs an
// async look-up (onReplaced).
let events = Promise.resolve();
function emit(fn) {
  events = events.then(fn).catch((e) => console.info(`tabbridge: tab event failed: ${e.message}`));
}

// Must run synchronously at the service worker's top level (MV3 listeners).
export function registerTabs() {
  chrome.webNavigation.onCommitted.addListener((d) => {
    if (d.frameId === 0) goingInto.delete(d.tabId);
  });
  chrome.tabs.onRemoved.addListener((tabId) => goingInto.delete(tabId));
  chrome.tabs.onCreated.addListener((tab) => emit(() => sendEvent(Event.TAB_CREATED, { tab: toTab(tab) })));
  chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
    if ('url' in change || 'title' in change || 'status' in change) {
      emit(() => sendEvent(Event.TAB_UPDATED, { tab: toTab(tab) }));
    }
  });
  chrome.tabs.onRemoved.addListener((tabId) => emit(() => sendEvent(Event.TAB_REMOVED, { tabId })));
  // Chrome fires no tab event for a crash (crash_watch.js sees it).
  onTabCrashed((tabId) => emit(async () => {
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    if (tab) sendEvent(Event.TAB_UPDATED, { tab: toTab(tab) });
  }));
  // Prerendering swaps a tab for another: to the host that is a close and an open.
  chrome.tabs.onReplaced.addListener((addedTabId, removedTabId) => emit(async () => {
    sendEvent(Event.TAB_REMOVED, { tabId: removedTabId });
    const tab = await chrome.tabs.get(addedTabId).catch(() => null); // gone again already
    if (tab) sendEvent(Event.TAB_CREATED, { tab: toTab(tab) });
  }));

  // The person switched tabs or windows: the tab that lost the mark and the one that got it.
  onPersonActiveMaybeMoved((activated) => emit(async () => {
    const [before, now] = await refreshPersonActive(activated);
    if (before === now) return;
    for (const id of [before, now]) {
      const tab = id === null ? null : await chrome.tabs.get(id).catch(() => null); // the old one may be gone
      if (tab) sendEvent(Event.TAB_UPDATED, { tab: toTab(tab) });
    }
  }));

  registerHandler(Method.TABS_CREATE, createTab);
  registerHandler(Method.TABS_CLOSE, closeTab);
  registerHandler(Method.TABS_SHOW, showTab);
}

const invalid = (message) => new RpcError(ErrorCode.INVALID_ARGUMENT, message);
const shorten = (s) => cut(s, 201); // data: URLs can be huge

// The longest open_tab waits for the page (the host sends loadWaitMs,
// common/protocol.h kOpenTabLoadWaitMs; this caps what a request may ask).
const MAX_LOAD_WAIT_MS = 30_000;

// tabs.create {url, active?, loadWaitMs?, group?, reuseTabId?} -> {tab, loading?}: the tab once its
// document committed and was parsed (DOMContentLoaded: its real URL and
// title; a load that failed shows the browser's error page), or after
// loadWaitMs with loading: true. Its tab events have left before the answer,
// so the host never applies an older one after it. group {key, title, color}:
// the session's tab group it goes into (tab_groups.js; best effort).
// reuseTabId: the launch tab of a headless browser a shim launched, which the
// page goes into while it still shows about:blank (its renderer runs
// already: a new tab waits for one); else a new tab.
async function createTab({ url, active = false, loadWaitMs = 0, group, reuseTabId }) {
  if (typeof url !== 'string') throw invalid('url must be a string');
  if (typeof active !== 'boolean') throw invalid('active must be a boolean');
  if (!Number.isInteger(loadWaitMs) || loadWaitMs < 0) throw invalid('loadWaitMs must be a non-negative integer');
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(`"${shorten(url)}" is not a valid URL; give an absolute URL such as https://example.com/`);
  }
  if (!isAgentUrl(parsed.href)) {
    throw invalid(`cannot open "${shorten(url)}"; use an http, https or file URL (the pages the agent works on)`);
  }
  const watch = watchTopLoads();
  const begun = performance.now();
  const timing = {}; // ms from the request to each step, for the host's timeline log
  const mark = (step) => { timing[step] = Math.round(performance.now() - begun); };
  try {
    let created;
    try {
      created = (Number.isInteger(reuseTabId) && await intoBlankTab(reuseTabId, url)) || await createInAWindow(url, active);
    } catch (e) {
      // Chrome's own URL refusals ("Invalid url", "Cannot navigate to a file URL ...").
      throw /\burl\b/i.test(e.message) ? invalid(e.message) : e;
    }
    mark('created');
    // Grouping takes Chrome ~100 ms: it goes on while the page loads (it never throws).
    const grouped = group !== undefined ? groupTab(created.id, group).then(() => mark('grouped')) : null;
    const started = Date.now();
    const load = loadWaitMs > 0 ? await watch.until(created.id, Math.min(loadWaitMs, MAX_LOAD_WAIT_MS)) : { parsed: false };
    mark('parsed');
    if (load.parsed) await ownToolsHeard(created.id, Math.min(OWN_TOOLS_WAIT_MS, loadWaitMs - (Date.now() - started)));
    mark('ownTools');
    await grouped; // in the answer's tab, and its events before the answer
    const tab = await chrome.tabs.get(created.id).catch(() => created);
    await events; // the tab's events go out first
    mark('answered');
    return { tab: toTab(tab), ...(load.parsed || load.error ? {} : { loading: true }), timing };
  } finally {
    watch.dispose();
  }
}

// The page into tab tabId if it still shows about:blank (nothing in it, and
// nothing on its way), else null.
async function intoBlankTab(tabId, url) {
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  if (!tab || tab.url !== 'about:blank' || (tab.pendingUrl && tab.pendingUrl !== 'about:blank')) return null;
  goingInto.add(tabId);
  const updated = await chrome.tabs.update(tabId, { url }).catch(() => null);
  if (!updated) goingInto.delete(tabId);
  return updated;
}

// A headless browser kept alive without tabs (--keep-alive-for-test, see
// mcp_shim/launcher.h) has no window to put a tab in: open one for it.
async function createInAWindow(url, active) {
  try {
    return await chrome.tabs.create({ url, active });
  } catch (e) {
    if ((await chrome.windows.getAll({ windowTypes: ['normal'] })).length > 0) throw e;
    const window = await chrome.windows.create({ url, focused: active });
    return window.tabs[0];
  }
}

// tabs.show {tabId} -> {shown, windowId}: the tab to the front of its window
// and the window focused, for the person to see (focus_tab show).
async function showTab({ tabId }) {
  if (!Number.isInteger(tabId)) throw invalid('tabId must be an integer');
  let tab;
  try {
    tab = await chrome.tabs.update(tabId, { active: true });
  } catch (e) {
    throw chromeErrorKind(e) === 'tabGone' ? new RpcError(ErrorCode.TAB_NOT_FOUND, `no tab with id ${tabId}`) : e;
  }
  await chrome.windows.update(tab.windowId, { focused: true });
  return { shown: true, windowId: tab.windowId };
}

async function closeTab({ tabId }) {
  if (!Number.isInteger(tabId)) throw invalid('tabId must be an integer');
  try {
    await chrome.tabs.remove(tabId);
  } catch (e) {
    throw chromeErrorKind(e) === 'tabGone' ? new RpcError(ErrorCode.TAB_NOT_FOUND, `no tab with id ${tabId}`) : e;
  }
  return { closed: true };
}
