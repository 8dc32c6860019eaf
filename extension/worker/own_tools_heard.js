// When a tab's new document has had its own tools heard: tabs.create (open_tab)
// answers once the page's tools went to the host, so the session hears of the
// focus and the page's tools in one list_changed instead of two. The page is
// asked to list its tools afresh with a token; its relay sends the token back
// with the list that answers (own_tools_relay.js), and own_tools.js says when
// it handled that report (heardOwnTools). A wait ends there or at its cap.

// The message that has the page's relay report its list again (own_tools_relay.js).
export const RESEND = 'tabbridge.owntools.resend';

let lastToken = 0;
// token -> {tabId, resolve}: open_tab calls waiting for a report.
const waiters = new Map();

// own_tools.js: the report of tab `tabId` that answered `token` was handled (sent to the host or found unchanged).
export function heardOwnTools(tabId, token) {
  const w = waiters.get(token);
  if (w && w.tabId === tabId) w.resolve(true);
}

// Has the tab's document `documentId` list its tools afresh and resolves
// true once that list was handled, false after `ms` (a page without our
// content scripts, or one too busy to answer).
export function askOwnTools(tabId, documentId, ms) {
  return new Promise((resolve) => {
    const token = ++lastToken;
    const timer = setTimeout(() => done(false), ms);
    const done = (heard) => {
      clearTimeout(timer);
      waiters.delete(token);
      resolve(heard);
    };
    waiters.set(token, { tabId, resolve: done });
    chrome.tabs.sendMessage(tabId, { type: RESEND, token }, { documentId }).catch(() => done(false));
  });
}
