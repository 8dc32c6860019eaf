// The requests of each tab's current document, for network_requests and
// network_request. Two sources:
//   * chrome.webRequest sees every request from the extension's start,
//     debugger or not: method, URL, type, status, times, headers, the
//     request's body. Without "extraHeaders" it is never shown cookies
//     (Cookie, Set-Cookie): they stay in the browser.
//   * the debugger's Network domain, enabled on every attach, has the
//     response bodies — of what ran while tabbridge's debugger was attached
//     to the tab. The renderer drops them when the debugger leaves, so the
//     answers of fetch/XHR calls (what an agent asks about) are read as they
//     finish and kept, capped; any other body is read on demand while the
//     debugger is still attached.
// A new main-frame document starts a new log; a restarted worker has none.
//
// Kept only while some session has the network capability (host.state's
// networkLog, docs/protocol.md): without one nobody can read it, and each
// request's headers and bodies, and the debugger's Network domain with its
// buffers in every attached renderer, are memory for nothing. When the last
// such session goes the logs are dropped and Network is disabled again.

import { attachedTabs, cdp, isAttached, onAttach, onCdpEvent } from './cdp.js';
import { onHostState } from './host_state.js';
import { Notification } from './protocol.js';
import { requestLogs } from './tab_state.js';
import { cutEnd } from './text_cut.js';

// What a tab's log may hold: every page of every tab is logged, and a hostile
// one can make huge URLs, headers and bodies on purpose.
export const MAX_REQUESTS = 500; // per tab, the newest kept
export const MAX_BODY_CHARS = 64 * 1024; // of each response body kept
const MAX_REQUEST_BODY_CHARS = 16 * 1024; // of each request body kept
const MAX_TAB_BODY_CHARS = 2 * 1024 * 1024; // the response bodies of one tab
const MAX_TAB_REQUEST_BODY_CHARS = 1024 * 1024; // the request bodies of one tab
const MAX_URL_CHARS = 4096;
const MAX_HEADERS = 48;
const MAX_HEADER_CHARS = 512;
// Requests that load a document: their bodies are form submissions, which
// may carry a password (a sign-in form's POST, then its redirect).
const DOCUMENT_TYPES = new Set(['main_frame', 'sub_frame']);
const EAGER_TYPES = new Set(['Fetch', 'XHR']);
const FILTER = { urls: ['<all_urls>'] };
// How far apart webRequest's and the debugger's clocks put one request's start.
const MATCH_MS = 3_000;

function newLog() {
  return { list: [], byId: new Map(), cdp: new Map(), bodyChars: 0, requestBodyChars: 0 };
}

const upTo = (s, max) => s.slice(0, cutEnd(s, max)); // on whole code points
const cutUrl = (url) => upTo(String(url ?? ''), MAX_URL_CHARS);
const cutHeaders = (headers) => (headers ?? []).slice(0, MAX_HEADERS)
  .map((h) => ({ name: upTo(String(h.name), 128), value: upTo(String(h.value ?? ''), MAX_HEADER_CHARS) }));

const logOf = (tabId) => {
  let log = requestLogs.get(tabId);
  if (!log) requestLogs.set(tabId, (log = newLog()));
  return log;
};

// A request's body as webRequest gives it: form fields, or raw bytes (text
// when they decode as UTF-8), capped.
function requestBodyOf(body) {
  if (!body) return null;
  if (body.error) return { note: body.error };
  if (body.formData) {
    const text = new URLSearchParams(Object.entries(body.formData).flatMap(([k, vs]) => vs.map((v) => [k, v]))).toString();
    return { text: upTo(text, MAX_REQUEST_BODY_CHARS), size: text.length, form: true, truncated: text.length > MAX_REQUEST_BODY_CHARS };
  }
  const parts = (body.raw ?? []).filter((p) => p.bytes);
  const size = parts.reduce((n, p) => n + p.bytes.byteLength, 0);
  const files = (body.raw ?? []).filter((p) => p.file).map((p) => p.file);
  const bytes = new Uint8Array(Math.min(size, MAX_REQUEST_BODY_CHARS));
  let at = 0;
  for (const p of parts) {
    if (at >= bytes.length) break;
    const chunk = new Uint8Array(p.bytes, 0, Math.min(p.bytes.byteLength, bytes.length - at));
    bytes.set(chunk, at);
    at += chunk.length;
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: size > bytes.length });
    return { text, size, truncated: size > bytes.length, files };
  } catch {
    return { binary: true, size, files };
  }
}

// The request's body as it is kept: none for a document's (a form's
// submission), none past the tab's budget.
function keptRequestBody(log, d) {
  if (!d.requestBody) return null;
  if (DOCUMENT_TYPES.has(d.type)) return { note: 'not shown: a page\'s form submission may carry a password' };
  if (log.requestBodyChars >= MAX_TAB_REQUEST_BODY_CHARS) return { note: 'not kept: the tab\'s log holds its most it keeps of request bodies' };
  const body = requestBodyOf(d.requestBody);
  log.requestBodyChars += body?.text?.length ?? 0;
  return body;
}

function add(tabId, d) {
  const log = logOf(tabId);
  const known = log.byId.get(d.requestId);
  if (known) {
    // The same request after a redirect: it goes on under the new URL.
    known.url = cutUrl(d.url);
    return;
  }
  const entry = {
    id: `r${d.requestId}`, requestId: d.requestId, method: d.method, url: cutUrl(d.url), type: d.type, frameId: d.frameId,
    initiator: d.initiator ?? null, start: d.timeStamp, requestBody: keptRequestBody(log, d), redirects: [],
  };
  log.list.push(entry);
  log.byId.set(d.requestId, entry);
  if (log.list.length > MAX_REQUESTS) {
    for (const old of log.list.splice(0, log.list.length - MAX_REQUESTS)) {
      log.byId.delete(old.requestId);
      log.requestBodyChars -= old.requestBody?.text?.length ?? 0;
    }
  }
}

const entryOf = (d) => (d.tabId >= 0 ? requestLogs.get(d.tabId)?.byId.get(d.requestId) : undefined);

// The webRequest listeners of the log: [event, listener, extraInfoSpec?].
const LISTENERS = [
  [chrome.webRequest.onBeforeRequest, (d) => {
    if (d.tabId < 0) return;
    if (d.type === 'main_frame' && !requestLogs.get(d.tabId)?.byId.has(d.requestId)) requestLogs.set(d.tabId, newLog());
    add(d.tabId, d);
  }, ['requestBody']],
  [chrome.webRequest.onSendHeaders, (d) => {
    const e = entryOf(d);
    if (e) e.requestHeaders = cutHeaders(d.requestHeaders);
  }, ['requestHeaders']],
  [chrome.webRequest.onBeforeRedirect, (d) => {
    const e = entryOf(d);
    if (e && e.redirects.length < 20) e.redirects.push({ status: d.statusCode, from: cutUrl(d.url) });
  }],
  [chrome.webRequest.onResponseStarted, (d) => {
    const e = entryOf(d);
    if (!e) return;
    Object.assign(e, { status: d.statusCode, statusLine: d.statusLine ?? '', responseStart: d.timeStamp, fromCache: d.fromCache,
      responseHeaders: cutHeaders(d.responseHeaders) });
  }, ['responseHeaders']],
  [chrome.webRequest.onCompleted, (d) => {
    const e = entryOf(d);
    if (e) Object.assign(e, { status: d.statusCode, end: d.timeStamp, fromCache: d.fromCache });
  }],
  [chrome.webRequest.onErrorOccurred, (d) => {
    const e = entryOf(d);
    if (e) Object.assign(e, { error: d.error, end: d.timeStamp });
  }],
];

const NETWORK_ENABLE = { maxTotalBufferSize: 16 * 1024 * 1024, maxResourceBufferSize: 4 * 1024 * 1024 };
let logging = false;

// Starts or ends the log (host.state's networkLog): the webRequest
// listeners, and Network on every attached tab (new attaches: onAttach).
function setLogging(on) {
  if (on === logging) return;
  logging = on;
  for (const [event, fn, extra] of LISTENERS) {
    if (on) event.addListener(fn, FILTER, ...(extra ? [extra] : []));
    else event.removeListener(fn);
  }
  if (!on) requestLogs.clear();
  for (const tabId of attachedTabs()) {
    cdp(tabId, on ? 'Network.enable' : 'Network.disable', on ? NETWORK_ENABLE : {}).catch(() => {});
  }
}

// Whether the request log is kept now (tests; docs/protocol.md).
export const requestLogKept = () => logging;

// Must run synchronously at the service worker's top level (its listeners
// are added while some session has the network capability).
export function registerRequestLog() {
  onHostState((state) => setLogging(state?.[Notification.HOST_STATE_NETWORK_LOG] === true));
  onAttach(async (tabId, send, { sessionId, targetInfo }) => {
    if (!logging || sessionId || (targetInfo && targetInfo.type !== 'page')) return;
    await send('Network.enable', NETWORK_ENABLE);
  });
  onCdpEvent('Network.requestWillBeSent', (tabId, p, sessionId) => {
    if (sessionId || !logging) return;
    const log = logOf(tabId);
    const known = log.cdp.get(p.requestId);
    if (known) {
      known.url = cutUrl(p.request.url); // a redirect: the same request goes on
      return;
    }
    log.cdp.set(p.requestId, { cdpId: p.requestId, url: cutUrl(p.request.url), method: p.request.method, at: p.wallTime * 1000, type: p.type });
    if (log.cdp.size > MAX_REQUESTS) {
      const [oldest, old] = log.cdp.entries().next().value;
      log.bodyChars -= old.kept?.text?.length ?? 0;
      log.cdp.delete(oldest);
    }
  });
  onCdpEvent('Network.responseReceived', (tabId, p, sessionId) => {
    const r = !sessionId && requestLogs.get(tabId)?.cdp.get(p.requestId);
    if (r) Object.assign(r, { mimeType: p.response.mimeType, status: p.response.status });
  });
  onCdpEvent('Network.loadingFinished', (tabId, p, sessionId) => {
    const log = !sessionId && requestLogs.get(tabId);
    const r = log && log.cdp.get(p.requestId);
    if (!r) return;
    r.encodedDataLength = p.encodedDataLength;
    if (EAGER_TYPES.has(r.type) && isTextual(r.mimeType)) keepBody(tabId, log, r);
  });
}

// Text a model can read; anything else is summarised.
export function isTextual(mimeType) {
  const m = String(mimeType ?? '').toLowerCase();
  return m.startsWith('text/') || /json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|csv|yaml/.test(m);
}

async function readBody(tabId, r) {
  const { body, base64Encoded } = await cdp(tabId, 'Network.getResponseBody', { requestId: r.cdpId });
  const text = base64Encoded ? null : body;
  const size = base64Encoded ? Math.floor(body.length * 0.75) : new TextEncoder().encode(body).length;
  return text === null
    ? { binary: true, size }
    : { text: upTo(text, MAX_BODY_CHARS), size, truncated: text.length > MAX_BODY_CHARS };
}

// Read at once (the renderer drops it when the debugger leaves); over the
// tab's budget, the oldest kept bodies go.
function keepBody(tabId, log, r) {
  r.pending = readBody(tabId, r).catch((e) => ({ note: e.message })).then((b) => {
    r.pending = null;
    if (log.cdp.get(r.cdpId) !== r) return b; // evicted meanwhile
    log.bodyChars += b.text?.length ?? 0;
    r.kept = b;
    for (const old of log.cdp.values()) {
      if (log.bodyChars <= MAX_TAB_BODY_CHARS) break;
      if (old !== r && old.kept?.text) {
        log.bodyChars -= old.kept.text.length;
        old.kept = { dropped: true, size: old.kept.size };
      }
    }
    return b;
  });
}

// The debugger's record of a webRequest entry: the same method and URL,
// started closest in time.
function cdpRecordOf(log, entry) {
  let best = null;
  for (const r of log.cdp.values()) {
    if (r.url !== entry.url || r.method !== entry.method) continue;
    const gap = Math.abs(r.at - entry.start);
    if (gap <= MATCH_MS && (!best || gap < best.gap)) best = { r, gap };
  }
  return best?.r ?? null;
}

// ---------------------------------------------------------------------------
// For the tools

export const requestsOf = (tabId) => requestLogs.get(tabId)?.list ?? [];

// The entry with `id` ("r123") in the tab's log, or null.
export function requestById(tabId, id) {
  const m = /^r(\d+)$/.exec(String(id).trim());
  return (m && requestLogs.get(tabId)?.byId.get(m[1])) || null;
}

// The size of a response as far as is known: its Content-Length, or what the debugger counted.
export function responseSize(tabId, entry) {
  const length = entry.responseHeaders?.find((h) => h.name.toLowerCase() === 'content-length')?.value;
  if (length !== undefined && /^\d+$/.test(length)) return Number(length);
  const log = requestLogs.get(tabId);
  const r = log && cdpRecordOf(log, entry);
  return r?.encodedDataLength ?? null;
}

// The response body: {text, size, truncated} | {binary, size} | {note} (why there is none).
export async function responseBody(tabId, entry) {
  const log = requestLogs.get(tabId);
  const r = log && cdpRecordOf(log, entry);
  if (!r) {
    return { note: 'not kept: the request ran while tabbridge\'s debugger was not attached to the tab ' +
      '(it is, from the first page tool that needs it) — make the page send it again, then ask' };
  }
  if (r.kept) return r.kept;
  if (r.pending) return r.pending;
  if (r.encodedDataLength === undefined) return { note: 'the response has not finished' };
  if (!isTextual(r.mimeType)) return { binary: true, size: r.encodedDataLength, mimeType: r.mimeType };
  if (!isAttached(tabId)) return { note: 'no longer kept: the browser drops it when tabbridge\'s debugger leaves the tab' };
  try {
    return await readBody(tabId, r);
  } catch (e) {
    return { note: `the browser no longer has it (${e.message})` };
  }
}
