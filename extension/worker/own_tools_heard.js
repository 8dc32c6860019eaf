// When a tab's new document has had its own tools heard: tabs.create (open_tab)
// answers once the page's tools went to the host, so the session hears of the
// focus and the page's tools in one list_changed instead of two. own_tools.js
// says what it handled (heardOwnTools); a wait ends at the report or its cap.

// The message that has the page's relay report its list again (own_tools_relay.js).
export const RESEND = 'tabbridge.owntools.resend';

// tabId -> Set of {documentId, resolve}: open_tab calls waiting for a report.
const waiters = new Map();

// own_tools.js: the report of `documentId` in tab `tabId` was handled (sent to the host or found unchanged).
export function heardOwnTools(tabId, documentId) {
  const set = waiters.get(tabId);
  if (!set) return;
  for (const w of set) {
    if (w.documentId === documentId) w.resolve(true);
  }
}

// Has the tab's document `documentId` report its tools again and resolves
// true once that report was handled, false after `ms` (a page without our
// content scripts, or one too busy to answer).
export function askOwnTools(tabId, documentId, ms) {
  return new Promise((resolve) => {
    let set = waiters.get(tabId);
    if (!set) waiters.set(tabId, (set = new Set()));
    const w = { documentId };
    const timer = setTimeout(() => w.resolve(false), ms);
    w.resolve = (heard) => {
      clearTimeout(timer);
      set.delete(w);
      if (set.size === 0 && waiters.get(tabId) === set) waiters.delete(tabId);
      resolve(heard);
    };
    set.add(w);
    chrome.tabs.sendMessage(tabId, { type: RESEND }, { documentId }).catch(() => w.resolve(false));
  });
}
