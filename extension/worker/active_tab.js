// The person's active tab: the active tab of the last-focused normal window
// (list_tabs' `active`, focus_tab {tabId: "active"}: "the page I'm on").
// tabs.js reports it as the Tab object's `active` and keeps it current on
// chrome.tabs.onActivated and chrome.windows.onFocusChanged; a popup window
// (ours, or a site's) taking the focus does not move it.

let activeTabId = null; // null until looked up, or when no normal window exists

export const isPersonActive = (tabId) => tabId === activeTabId;

async function lookUp() {
  const window = await chrome.windows.getLastFocused({ windowTypes: ['normal'], populate: true }).catch(() => null);
  return window?.tabs?.find((tab) => tab.active)?.id ?? null;
}

// Looks it up again; resolves with [before, now] (the same id twice when it did not move).
export async function refreshPersonActive() {
  const before = activeTabId;
  activeTabId = await lookUp();
  return [before, activeTabId];
}

// fn() after anything that may move the person's active tab. Must run
// synchronously at the service worker's top level (MV3 listeners).
export function onPersonActiveMaybeMoved(fn) {
  chrome.tabs.onActivated.addListener(() => fn());
  chrome.windows.onFocusChanged.addListener((windowId) => {
    if (windowId !== chrome.windows.WINDOW_ID_NONE) fn(); // NONE: the browser lost the focus, the tab stays
  });
}
