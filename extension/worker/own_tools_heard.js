// When a tab's new document has had its own tools heard: tabs.create (open_tab),
// navigate and every call that took the tab to another document
// (tools/stack/new_page_tools.js: a click, a key, a submit, the page's own
// tools) answer once the page's tools went to the host, so the session
// hears of the tab (or the navigation) and the page's tools in one
// list_changed, before the answer. The page is
// asked to list its tools afresh with a token; its relay sends the token back
// with the list that answers (own_tools_relay.js), and own_tools.js says when
// it handled that report (heardOwnTools). A wait ends there or at its cap.

// The message that has the page's relay report its list again (own_tools_relay.js).
export const RESEND = 'tabbridge.owntools.resend';

// After the page is parsed, how long open_tab, navigate and a call that
// navigated wait for its own tools (WebMCP, forms, result lists) to reach the
// host: the client then fetches the list once, with them, instead of once for
// the tab and again for its tools. A page answers once it found them all (a
// few ms; the <form toolname> forms a browser with WebMCP lists itself,
// ~200 ms); one without our content scripts answers at once that it cannot;
// a busy one costs at most this.
export const OWN_TOOLS_WAIT_MS = 1000;

let lastToken = 0;
// token -> {tabId, resolve}: calls waiting for a report.
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

// The parsed top document of tab `tabId` has had its own tools handed to the
// host, or `ms` passed; only http(s) pages have the content scripts that report them.
export async function ownToolsHeard(tabId, ms) {
  if (ms <= 0) return;
  const frame = await chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
  if (!frame?.documentId || !/^https?:/.test(frame.url ?? '')) return;
  await askOwnTools(tabId, frame.documentId, ms);
}
