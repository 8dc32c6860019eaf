// Every tab's requests, watched through chrome.webRequest from the service
// worker's top level:
//   * failed requests (network errors, HTTP status >= 400) in a ring buffer per
//     tab — the network_errors tool;
//   * requests in flight per tab — navigate's waitUntil "networkidle";
//   * the status of each tab's last main-frame response — navigate's answer.
// Buffers survive navigation within a tab and are dropped when it closes; the
// newest failures (up to PERSIST_BYTES a tab) also survive a service-worker
// restart (session_store.js). Requests in flight do not: a restarted worker
// never sees them end.

import { newestWithin, restoring, tabStore } from './session_store.js';
import { lastFetchStarts, mainFrameResponses, networkFailures as networkFailuresByTab, onForget, onTabReplaced, requestsInFlight } from './tab_state.js';

export const NETWORK_BUFFER_SIZE = 1000;

// Per tab (tab_state.js drops them with the tab): [{method, url, status?,
// statusText?, error?, type, timestamp}]; Map(requestId -> {url, type,
// start}); {url, status, statusLine, timestamp}.
const failures = networkFailuresByTab;
const inflight = requestsInFlight;
const mainFrame = mainFrameResponses;
const idleWaiters = new Set(); // fn(tabId) called whenever a tab's in-flight set shrinks
const abandoned = new Set(); // requestIds of documents a tab navigated away from

// WebSockets stay open for the page's life; they are not "network activity".
const IGNORED_TYPES = new Set(['websocket']);
const FILTER = { urls: ['<all_urls>'] };
const FETCH = 'xmlhttprequest'; // webRequest's type of fetch() and XHR requests

const PERSIST_BYTES = 32 * 1024;

const store = tabStore('network', (tabId) => newestWithin(failures.get(tabId), PERSIST_BYTES));
let ready = Promise.resolve();

function push(tabId, entry) {
  let list = failures.get(tabId);
  if (!list) failures.set(tabId, (list = []));
  list.push(entry);
  if (list.length > NETWORK_BUFFER_SIZE) list.splice(0, list.length - NETWORK_BUFFER_SIZE);
  store.dirty(tabId);
}

function settle(details) {
  const set = inflight.get(details.tabId);
  if (set?.delete(details.requestId)) {
    if (set.size === 0) inflight.delete(details.tabId);
    for (const fn of idleWaiters) fn(details.tabId);
  }
}

// Must run synchronously at the service worker's top level.
export function registerNetworkLog() {
  ready = store.load().then((saved) => {
    for (const [tabId, entries] of saved) {
      if (Array.isArray(entries)) failures.set(tabId, [...entries, ...(failures.get(tabId) ?? [])].slice(-NETWORK_BUFFER_SIZE));
    }
  });
  restoring(ready);
  chrome.webRequest.onBeforeRequest.addListener((d) => {
    if (d.tabId < 0 || IGNORED_TYPES.has(d.type)) return;
    // A new main-frame request replaces the document: the old one's requests go
    // with it, and their net::ERR_ABORTED is not a failure worth reporting.
    if (d.type === 'main_frame') {
      for (const id of inflight.get(d.tabId)?.keys() ?? []) abandoned.add(id);
      if (abandoned.size > 5000) abandoned.clear();
      inflight.delete(d.tabId);
    }
    let set = inflight.get(d.tabId);
    if (!set) inflight.set(d.tabId, (set = new Map()));
    set.set(d.requestId, { url: d.url, type: d.type, start: d.timeStamp });
    if (d.type === FETCH) lastFetchStarts.set(d.tabId, d.timeStamp);
  }, FILTER);

  chrome.webRequest.onResponseStarted.addListener((d) => {
    if (d.tabId < 0 || d.type !== 'main_frame') return;
    mainFrame.set(d.tabId, { url: d.url, status: d.statusCode, statusLine: d.statusLine ?? '', timestamp: d.timeStamp });
  }, FILTER);

  chrome.webRequest.onCompleted.addListener((d) => {
    if (d.tabId < 0) return;
    settle(d);
    abandoned.delete(d.requestId);
    if (d.type === 'main_frame') {
      mainFrame.set(d.tabId, { url: d.url, status: d.statusCode, statusLine: d.statusLine ?? '', timestamp: d.timeStamp });
    }
    if (d.statusCode >= 400) {
      push(d.tabId, {
        method: d.method,
        url: d.url,
        page: pageOf(d),
        status: d.statusCode,
        statusText: statusText(d.statusLine, d.statusCode),
        type: d.type,
        timestamp: Math.round(d.timeStamp),
      });
    }
  }, FILTER);

  chrome.webRequest.onErrorOccurred.addListener((d) => {
    if (d.tabId < 0) return;
    settle(d);
    if (abandoned.delete(d.requestId) && d.error === 'net::ERR_ABORTED') return;
    push(d.tabId, { method: d.method, url: d.url, page: pageOf(d), error: d.error, type: d.type, timestamp: Math.round(d.timeStamp) });
  }, FILTER);

  onForget((tabId, dropped, why) => {
    if (why === 'gone') store.remove(tabId);
  });
  onTabReplaced((added, removed) => {
    const old = failures.get(removed);
    if (old) failures.set(added, [...old, ...(failures.get(added) ?? [])]);
    store.dirty(added);
  });
}

// "HTTP/1.1 404 Not Found" -> "Not Found"
function statusText(statusLine, code) {
  const m = /^\S+\s+\d{3}\s*(.*)$/.exec(statusLine ?? '');
  return (m?.[1] || '').trim() || String(code);
}

// ---------------------------------------------------------------------------
// For navigate

// Status of the tab's last main-frame response since `sinceMs` (webRequest
// timeStamp, epoch ms), or null.
export function mainFrameStatus(tabId, sinceMs = 0) {
  const m = mainFrame.get(tabId);
  return m && m.timestamp >= sinceMs ? m : null;
}

export function inflightRequests(tabId) {
  return [...(inflight.get(tabId)?.values() ?? [])];
}

// Resolves once none of the tab's fetch/XHR requests that started at or after
// sinceMs (epoch ms) is in flight — what an action's effects may still be
// waiting for. Each request's end is an event (idleWaiters): no polling.
// Returns {busy (some started since sinceMs: in flight, or done already, their
// answer maybe not yet shown), done: Promise, dispose()}; done never rejects.
export function fetchesSettled(tabId, sinceMs) {
  const busy = () => [...(inflight.get(tabId)?.values() ?? [])].some((r) => r.type === FETCH && r.start >= sinceMs);
  let check = null;
  const wasBusy = busy() || (lastFetchStarts.get(tabId) ?? -Infinity) >= sinceMs;
  const done = new Promise((resolve) => {
    check = (changed) => {
      if (changed !== undefined && changed !== tabId) return;
      if (!busy()) resolve();
    };
    check();
  });
  idleWaiters.add(check);
  done.then(() => idleWaiters.delete(check));
  return { busy: wasBusy, done, dispose: () => idleWaiters.delete(check) };
}

// Resolves once the tab has had no request in flight for quietMs; rejects on
// abort. Requests that never finish (long polls) keep it waiting: callers race
// it against their deadline.
export function waitNetworkIdle(tabId, { quietMs = 500, signal } = {}) {
  return new Promise((resolve, reject) => {
    let timer = null;
    const check = (changed) => {
      if (changed !== undefined && changed !== tabId) return;
      clearTimeout(timer);
      timer = null;
      if (!inflight.get(tabId)?.size) timer = setTimeout(done, quietMs);
    };
    // New requests restart the quiet window: re-check on a short tick as well.
    const poll = setInterval(() => {
      if (inflight.get(tabId)?.size) {
        clearTimeout(timer);
        timer = null;
      } else if (!timer) {
        timer = setTimeout(done, quietMs);
      }
    }, 50);
    const cleanup = () => {
      clearTimeout(timer);
      clearInterval(poll);
      idleWaiters.delete(check);
      signal?.removeEventListener('abort', onAbort);
    };
    function done() {
      if (inflight.get(tabId)?.size) {
        timer = null;
        return;
      }
      cleanup();
      resolve();
    }
    const onAbort = () => {
      cleanup();
      reject(new DOMException('aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    idleWaiters.add(check);
    check();
  });
}

// The page a request was made for: a document request is its own page; any
// other, its initiator's origin (what the policy's site check compares).
export const pageOf = (d) => (d.type === 'main_frame' ? d.url : d.initiator ?? d.url);

// The tab's failed requests, oldest first, once a restarted worker has its
// saved ones back; saved before they are shown, so a restart right after an
// answer keeps what it showed (network_errors).
export async function networkFailures(tabId) {
  await ready;
  await store.flush();
  return failures.get(tabId) ?? [];
}
