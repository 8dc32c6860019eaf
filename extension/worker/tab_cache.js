// The tabs as Chrome last reported them, so that a page tool's checks before
// it acts (the site, a crashed tab: tools/stack/page_tool.js) cost no round
// trip to the browser (bench/README.md: where evaluate's time goes).
//
//   knownTab(tabId)  -> the tab as of its last event or look, or null
//   freshTab(tabId)  -> chrome.tabs.get (null when gone), kept for next time
//
// tabs.onCreated and tabs.onUpdated carry the whole Tab, and onUpdated fires
// on every change of its URL, status, title or discarded state; the events
// that change a tab without onUpdated (activation, highlighting, moves between
// or within windows, a crash) drop what is known of the tabs they touch, and
// the next look asks the browser. tab_state.js drops a tab that goes.

import { onTabCrashed } from './crash_watch.js';
import { knownTabs, tabTouches } from './tab_state.js';

function note(tabId, tab) {
  tabTouches.set(tabId, (tabTouches.get(tabId) ?? 0) + 1);
  if (tab) knownTabs.set(tabId, tab);
  else knownTabs.delete(tabId);
}

function dropWindow(windowId) {
  for (const [tabId, tab] of knownTabs) if (tab.windowId === windowId) note(tabId, null);
}

// Must run synchronously at the service worker's top level (MV3 listeners).
export function registerTabCache() {
  chrome.tabs.onCreated.addListener((tab) => note(tab.id, tab));
  chrome.tabs.onUpdated.addListener((tabId, _change, tab) => note(tabId, tab));
  chrome.tabs.onActivated.addListener(({ windowId }) => dropWindow(windowId));
  chrome.tabs.onHighlighted.addListener(({ windowId }) => dropWindow(windowId));
  chrome.tabs.onMoved.addListener((_tabId, { windowId }) => dropWindow(windowId));
  chrome.tabs.onDetached.addListener((_tabId, { oldWindowId }) => dropWindow(oldWindowId));
  chrome.tabs.onAttached.addListener((_tabId, { newWindowId }) => dropWindow(newWindowId));
  onTabCrashed((tabId) => note(tabId, null));
}

export const knownTab = (tabId) => knownTabs.get(tabId) ?? null;

export async function freshTab(tabId) {
  const before = tabTouches.get(tabId);
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  if (tabTouches.get(tabId) === before && tab) knownTabs.set(tabId, tab);
  return tab;
}
