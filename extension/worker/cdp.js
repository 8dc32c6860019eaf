// chrome.debugger (CDP 1.3) for the page tools (tools/). Attaches lazily on the first command for a tab (single-flight:
// concurrent callers share one attach) and stays attached until
// debugger_release.js lets go (idle, focus gone, crash) or the tab closes.
// A detach (the user closed the infobar, the tab closed or crashed, another
// client took over) resets the tab's state: the next command attaches again.
//
//   cdp(tabId, method, params?, {sessionId?, timeoutMs?}) -> result
//   onCdpEvent(method, (tabId, params, sessionId) => ...)   ('*' gets every event as (tabId, params, sessionId, method))
//   onAttach(async (tabId, send, {sessionId, targetInfo, before}) => ...)
//       setup run on every (re)attach of the tab (sessionId undefined, before any
//       command; before: {tab, at}, chrome.tabs' tab and the time just before
//       chrome.debugger.attach — the hooks run one after another, so what a
//       late one would read may already show the attach's effects) and on every
//       auto-attached child target (OOPIF iframes, workers: sessionId and
//       targetInfo {type, url, targetId} set). Inside a hook use
//       send(method, params?) — it talks to that session and never waits for the
//       attach (cdp() would deadlock there).
//   onDetach((tabId, reason) => ...)
//   attach(tabId), detach(tabId), isAttached(tabId), attachedTabs(), childTargets(tabId) -> [{sessionId, targetInfo}]
//   attachStalled(tabId): the page did not answer our setup (blocked, e.g. by a dialog older than the attach)
//   usingTab(tabId, fn): runs fn with the tab marked in use (a page tool call);
//       inUse(tabId); onIdle((tabId) => ...) when its last use ends — debugger_release.js
//       decides from that when to detach
//   releaseOrphans(keep): at worker start, detaches the attaches a previous worker
//       left (adopting those of tabs in `keep`); attaches wait for it
//   reserveMethods(methods, prefixes) -> send: the effectful methods (trusted
//       input, a dialog's answer, files into an input) are the input broker's
//       alone (input_broker.js reserves them once, when it loads): cdp() and the
//       attach hooks' send refuse them; the returned send is the only way out.
//
// Child sessions: cdp.js auto-attaches (Target.setAutoAttach {flatten:true},
// recursively) so out-of-process iframes get flat sessions; address one with
// {sessionId}; its events carry the sessionId.

import { Deadlines, RpcError } from './protocol.js';
// The one reading of Chrome's errors and the one timeout.
import { chromeErrorKind, tabGone } from './chrome_errors.js';
import { withTimeout } from './time.js';

const PROTOCOL_VERSION = '1.3';
// Within a page tool's budget (Deadlines.PAGE_TOOL_MS), so the tool can still answer.
const DEFAULT_TIMEOUT_MS = Deadlines.CDP_COMMAND_MS;

const attached = new Map(); // tabId -> Promise<void> (pending or settled attach)
// A setup step that takes longer (a renderer blocked by a dialog that opened
// before we attached answers nothing) goes on in the background; the attach
// does not wait for it.
const HOOK_WAIT_MS = 2000;
const stalled = new Set(); // tabIds whose setup did not answer in time
const eventListeners = new Map(); // method -> Set<fn>
const attachHooks = [];
const detachHooks = [];

export function onCdpEvent(method, fn) {
  if (!eventListeners.has(method)) eventListeners.set(method, new Set());
  eventListeners.get(method).add(fn);
  return () => eventListeners.get(method)?.delete(fn);
}

export function onAttach(fn) { attachHooks.push(fn); }
export function onDetach(fn) { detachHooks.push(fn); }
export const isAttached = (tabId) => attached.has(tabId);
export const attachedTabs = () => [...attached.keys()];

// Uses of each tab's debugger (page tool calls, commands) running now.
const users = new Map(); // tabId -> count
const idleListeners = [];
export const onIdle = (fn) => idleListeners.push(fn);
export const inUse = (tabId) => users.has(tabId);

export async function usingTab(tabId, fn) {
  users.set(tabId, (users.get(tabId) ?? 0) + 1);
  try {
    return await fn();
  } finally {
    const n = users.get(tabId) - 1;
    if (n > 0) {
      users.set(tabId, n);
    } else {
      users.delete(tabId);
      for (const listener of idleListeners) listener(tabId);
    }
  }
}

// Attaches wait until the attaches of a previous worker are sorted out.
let orphansReleased = Promise.resolve();

export function releaseOrphans(keepPromise) {
  orphansReleased = (async () => {
    const keep = await keepPromise;
    const targets = await chrome.debugger.getTargets();
    await Promise.all(targets.filter((t) => t.attached && Number.isInteger(t.tabId)).map(async ({ tabId }) => {
      // Still ours after a restart (the browser keeps the attach): a tab whose
      // dialog we remember keeps it, for handle_dialog; any other lets go.
      // Another client's attach refuses the detach.
      if (keep.has(tabId)) attached.set(tabId, Promise.resolve());
      else await chrome.debugger.detach({ tabId }).catch(() => {});
    }));
  })().catch((e) => console.info(`tabbridge: releasing old attaches failed: ${e.message}`));
  return orphansReleased;
}

// Listeners at import time = the service worker's top level.
chrome.debugger.onEvent.addListener((source, method, params) => {
  if (source.tabId === undefined) return;
  const call = (fn, ...extra) => {
    try {
      fn(source.tabId, params ?? {}, source.sessionId, ...extra);
    } catch (e) {
      console.info(`tabbridge: cdp listener for ${method} failed: ${e.message}`);
    }
  };
  for (const fn of eventListeners.get(method) ?? []) call(fn);
  for (const fn of eventListeners.get('*') ?? []) call(fn, method);
});

chrome.debugger.onDetach.addListener((source, reason) => {
  if (source.tabId === undefined) return;
  forget(source.tabId, reason);
});

chrome.tabs.onRemoved.addListener((tabId) => forget(tabId, 'target_closed'));

// True when the tab's page did not answer the setup at attach: likely blocked
// by a JavaScript dialog that opened before we attached (CDP never reports those).
export const attachStalled = (tabId) => stalled.has(tabId);
export const clearStalled = (tabId) => stalled.delete(tabId);

function forget(tabId, reason) {
  stalled.delete(tabId);
  if (!attached.delete(tabId)) return;
  for (const fn of detachHooks) {
    try {
      fn(tabId, reason);
    } catch (e) {
      console.info(`tabbridge: cdp detach hook failed: ${e.message}`);
    }
  }
}


function explain(tabId, method, e) {
  const m = String(e?.message ?? e);
  if (e instanceof RpcError) return e;
  if (/already attached/i.test(m)) {
    return new Error(`cannot control tab ${tabId}: another debugger is attached — close DevTools on this tab (or the other debugging extension) and retry`);
  }
  if (chromeErrorKind(e) === 'tabGone') return tabGone(tabId);
  if (/cannot access|cannot attach|chrome-extension:|chrome:\/\//i.test(m)) {
    return new Error(`cannot control tab ${tabId}: the browser does not let extensions debug this page (${m}); navigate to an http(s) page`);
  }
  try {
    const parsed = JSON.parse(m); // CDP errors arrive as '{"code":-32000,"message":"..."}'
    if (parsed?.message) return new Error(`${method}: ${parsed.message}`);
  } catch { /* not JSON */ }
  return new Error(`${method}: ${m}`);
}

const raw = (tabId, method, params, sessionId) =>
  chrome.debugger.sendCommand(sessionId ? { tabId, sessionId } : { tabId }, method, params ?? {});

async function doAttach(tabId) {
  let before;
  try {
    before = { tab: await chrome.tabs.get(tabId), at: Date.now() };
  } catch {
    throw tabGone(tabId);
  }
  try {
    await chrome.debugger.attach({ tabId }, PROTOCOL_VERSION);
  } catch (e) {
    // Our own earlier attach survived a service-worker restart: reuse it.
    if (!/already attached/i.test(e.message) || !(await ownsDebugger(tabId))) throw explain(tabId, 'attach', e);
  }
  await setUpSession(tabId, undefined, undefined, before);
}

// The effectful methods, once the input broker reserved them.
let reserved = null; // {methods: Set, prefixes: [string]}
const isReserved = (method) => reserved !== null &&
  (reserved.methods.has(method) || reserved.prefixes.some((prefix) => String(method).startsWith(prefix)));
const refuseReserved = (method) => {
  if (isReserved(method)) throw new Error(`${method} is sent by the input broker only (worker/input_broker.js): it binds it to a frame and decides that frame first`);
};

export function reserveMethods(methods, prefixes = []) {
  if (reserved) throw new Error('the effectful CDP methods are reserved already: there is one input broker');
  reserved = { methods: new Set(methods), prefixes: [...prefixes] };
  return (tabId, method, params = {}, options = {}) => {
    if (!isReserved(method)) throw new Error(`${method} is not one the input broker reserved`);
    return usingTab(tabId, () => command(tabId, method, params, options));
  };
}

const sender = (tabId, sessionId) => (method, params) => Promise.resolve().then(() => refuseReserved(method)).then(() =>
  withTimeout(raw(tabId, method, params, sessionId), DEFAULT_TIMEOUT_MS, method).catch((e) => { throw explain(tabId, method, e); }));

async function setUpSession(tabId, sessionId, targetInfo, before = undefined) {
  const send = sender(tabId, sessionId);
  for (const hook of attachHooks) {
    const run = Promise.resolve().then(() => hook(tabId, send, { sessionId, targetInfo, before }));
    // Finishing late means the page answers again.
    if (!sessionId) run.then(() => stalled.delete(tabId), () => {});
    try {
      await withTimeout(run, HOOK_WAIT_MS, 'attach hook');
    } catch (e) {
      if (e instanceof RpcError && !sessionId) throw e;
      if (/timed out/.test(e.message) && !sessionId) stalled.add(tabId);
      console.info(`tabbridge: cdp attach hook failed on tab ${tabId}${sessionId ? ` session ${sessionId}` : ''}: ${e.message}`);
    }
  }
  if (!targetInfo || targetInfo.type === 'iframe' || targetInfo.type === 'page') {
    // Children of this session (OOPIFs) attach as flat sessions: Target.attachedToTarget below.
    await withTimeout(send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }),
      HOOK_WAIT_MS, 'Target.setAutoAttach')
      .catch((e) => console.info(`tabbridge: auto-attach failed on tab ${tabId}: ${e.message}`));
  }
}

const childSessions = new Map(); // tabId -> Map(sessionId -> targetInfo)

onCdpEvent('Target.attachedToTarget', (tabId, { sessionId, targetInfo }) => {
  if (!sessionId) return;
  if (!childSessions.has(tabId)) childSessions.set(tabId, new Map());
  childSessions.get(tabId).set(sessionId, targetInfo);
  setUpSession(tabId, sessionId, targetInfo);
});
onCdpEvent('Target.detachedFromTarget', (tabId, { sessionId }) => childSessions.get(tabId)?.delete(sessionId));
onCdpEvent('Target.targetInfoChanged', (tabId, { targetInfo }, sessionId) => {
  const m = childSessions.get(tabId);
  if (!m) return;
  for (const [sid, info] of m) if (info.targetId === targetInfo.targetId) m.set(sid, targetInfo);
});
onDetach((tabId) => childSessions.delete(tabId));

// The tab's attached child targets (out-of-process iframes, workers):
// [{sessionId, targetInfo: {targetId, type, url, …}}].
export function childTargets(tabId) {
  return [...(childSessions.get(tabId) ?? [])].map(([sessionId, targetInfo]) => ({ sessionId, targetInfo }));
}

// Only the client that attached can send commands, so a probe tells ours from DevTools.
const ownsDebugger = (tabId) =>
  chrome.debugger.sendCommand({ tabId }, 'Runtime.evaluate', { expression: '1' }).then(() => true, () => false);

function ensureAttached(tabId) {
  let p = attached.get(tabId);
  if (!p) {
    p = orphansReleased.then(() => doAttach(tabId));
    attached.set(tabId, p);
    p.catch(() => { if (attached.get(tabId) === p) attached.delete(tabId); });
  }
  return p;
}

export function cdp(tabId, method, params = {}, options = {}) {
  try {
    refuseReserved(method);
  } catch (e) {
    return Promise.reject(e);
  }
  return usingTab(tabId, () => command(tabId, method, params, options));
}

async function command(tabId, method, params, { sessionId, timeoutMs = DEFAULT_TIMEOUT_MS }) {
  await ensureAttached(tabId);
  try {
    return await withTimeout(raw(tabId, method, params, sessionId), timeoutMs, `${method} on tab ${tabId}`);
  } catch (e) {
    if (/timed out/.test(e.message)) throw e;
    // Detached under us (user cancelled, navigation to a chrome: page): retry once on a fresh attach.
    if (/not attached|debugger is not attached/i.test(e.message) && !sessionId) {
      forget(tabId, 'lost');
      await ensureAttached(tabId);
      return withTimeout(raw(tabId, method, params), timeoutMs, `${method} on tab ${tabId}`)
        .catch((e2) => { throw explain(tabId, method, e2); });
    }
    throw explain(tabId, method, e);
  }
}

export async function attach(tabId) {
  await ensureAttached(tabId);
}

export async function detach(tabId) {
  const p = attached.get(tabId);
  if (!p) return;
  forget(tabId, 'detach');
  try {
    await p;
    await chrome.debugger.detach({ tabId });
  } catch { /* already gone */ }
}
