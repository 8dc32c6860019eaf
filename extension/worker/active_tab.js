// The person's active tab: the active tab of the last-focused normal window
// (list_tabs' `active`, focus_tab {tabId: "active"}: "the page I'm on").
// tabs.js reports it as the Tab object's `active` and keeps it current on
// chrome.tabs.onActivated, chrome.windows.onFocusChanged and
// chrome.windows.onRemoved; a popup window (ours, or a site's) taking the
// focus does not move it.

let activeTabId = null; // null until looked up, or when no normal window exists

export const isPersonActive = (tabId) => tabId === activeTabId;

// activated: onActivated's {tabId, windowId}, when that is what fired — a
// window Chrome is still making may list no tab as active yet.
async function lookUp(activated) {
  const window = await chrome.windows.getLastFocused({ windowTypes: ['normal'] }).catch(() => null);
  if (!window) return null;
  if (activated?.windowId === window.id) return activated.tabId;
  const [tab] = await chrome.tabs.query({ active: true, windowId: window.id }).catch(() => []);
  return tab?.id ?? null;
}

// Looks it up again; resolves with [before, now] (the same id twice when it did not move).
export async function refreshPersonActive(activated) {
  const before = activeTabId;
  activeTabId = await lookUp(activated);
  return [before, activeTabId];
}

// fn(activated?) after anything that may move the person's active tab. Must
// run synchronously at the service worker's top level (MV3 listeners).
export function onPersonActiveMaybeMoved(fn) {
  chrome.tabs.onActivated.addListener((activated) => fn(activated));
  chrome.windows.onFocusChanged.addListener((windowId) => {
    if (windowId !== chrome.windows.WINDOW_ID_NONE) fn(); // NONE: the browser lost the focus, the tab stays
  });
  chrome.windows.onRemoved.addListener(() => fn()); // the last-focused window went: the one before it
}
