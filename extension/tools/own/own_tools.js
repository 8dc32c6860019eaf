// The page's own tools, service-worker side (docs/protocol.md "The page's own
// tools"): keeps the tool list each tab's top document reported (through
// own_tools_relay.js, from own_tools_main.js and forms_isolated.js), tells the host with
// `owntools.changed` whenever it changes, and runs `owntool.call` in the document
// the list came from. Form tools are run by form_tool_call.js, result-list
// tools by result_tool_call.js, button tools by button_tool_call.js.

import { Deadlines, ErrorCode, Event, Method, OwnToolLimits, RpcError, cut, toolLabel } from '../../worker/protocol.js';
import { onConnected, registerHandler, sendEvent } from '../../worker/native_port.js';
import { NOT_OUR_FORM, callFormTool } from './form_tool_call.js';
import { callResultTool } from './result_tool_call.js';
import { callButtonTool } from './button_tool_call.js';
import { chromeErrorKind, tabGone } from '../stack/errors.js';
import { pageTool } from '../stack/page_tool.js';
import { getTab, topDocumentId } from '../stack/tab.js';
import { onTabCrashed } from '../../worker/crash_watch.js';
import { onTabReplaced, ownToolLists, reportedAt, waitingReports } from '../../worker/tab_state.js';
import { RESEND, heardOwnTools } from '../../worker/own_tools_heard.js';
import { navGraceWithin, watchTopFrame, withNavigatedTo } from '../shared/navigated_to.js';
import { errorResult } from '../stack/results.js';
import { readingDocument } from '../stack/document_reads.js';
import { argumentsOf, callRoute, cleanTools, isFormSource, normalise, returnedNothing } from './own_tools_checks.js';
import { NAV_START_MS, isDeclarativeForm, resultPageBlocks, submitPrevented, watchResultPage } from './result_page.js';

// The page's world lists WebMCP tools; ours finds the forms, result lists and
// buttons and relays them all: the manifest's content scripts with these
// files (their one list), injected into the pages open before we started.
const MAIN_SCRIPT = 'page/own_tools_main.js';
const RELAY_SCRIPT = 'page/own_tools_relay.js';
const manifestScripts = (file) => chrome.runtime.getManifest().content_scripts?.find((c) => c.js?.includes(file))?.js ?? [file];
const WATCHED_URL = /^https?:/;
const APIS = new Set(['native', 'polyfill', 'legacy']);
// A page can dispatch its reports itself, in a loop: at most one report of a
// tab is handled per REPORT_INTERVAL_MS; the last one of an interval wins.
const REPORT_INTERVAL_MS = 100;
const REPORT = 'tabbridge.owntools';

// tabId -> {documentId, url, api, native, total, tools, key, told}: the
// last list of the tab's top document; `told` is {documentId, key, cleared}
// of what the host was last sent (`cleared`: the tab's tools were cleared
// at a navigation, the host waits for the new document to speak).
// tab_state.js drops a tab's entries here when it goes.
const lists = ownToolLists;
// tabId -> promise: reports and commits of one tab are handled in order.
const queues = new Map();
// tabId -> {sender, msg}: the report waiting for the tab's next interval;
// tabId -> when the tab's last report was handed on.
const waiting = waitingReports;

function enqueue(tabId, fn) {
  const next = (queues.get(tabId) ?? Promise.resolve())
    .then(fn)
    .catch((e) => console.debug(`tabbridge: page tools of tab ${tabId}: ${e?.message ?? e}`));
  queues.set(tabId, next);
  next.then(() => { if (queues.get(tabId) === next) queues.delete(tabId); });
}

const keyOf = (api, native, total, tools) => JSON.stringify([api, native, total, tools]);
const EMPTY_KEY = keyOf(null, false, 0, []);

// settled: false on the clear of a document whose own report will follow
// (the host keeps the tab's list until then); every other list is settled.
function send(tabId, s, { settled = true } = {}) {
  s.told = { documentId: s.documentId, key: s.key, cleared: false };
  sendEvent(Event.OWN_TOOLS, {
    tabId, documentId: s.documentId, url: s.url, api: s.api, native: s.native, total: s.total, tools: s.tools, settled,
  });
}

function takeReport(tabId, sender, msg) {
  // The answer to our own resend (one per open_tab, askOwnTools) is awaited:
  // it goes at once, with the newest list. The page cannot make one: the
  // token comes from the worker through our isolated relay.
  const resent = Number.isInteger(msg?.resent);
  const w = waiting.get(tabId);
  if (w && !resent) {
    Object.assign(w, { sender, msg }); // the newer list wins
    return;
  }
  if (w) waiting.delete(tabId); // replaced by the newer list
  const wait = (reportedAt.get(tabId) ?? -Infinity) + REPORT_INTERVAL_MS - Date.now();
  if (wait <= 0 || resent) {
    handOn(tabId, sender, msg);
    return;
  }
  const entry = { sender, msg };
  waiting.set(tabId, entry);
  setTimeout(() => {
    if (waiting.get(tabId) !== entry) return; // the tab went meanwhile, or a resent list replaced it
    waiting.delete(tabId);
    handOn(tabId, entry.sender, entry.msg);
  }, wait);
}

function handOn(tabId, sender, msg) {
  reportedAt.set(tabId, Date.now());
  enqueue(tabId, () => onReport(tabId, sender, msg));
}

// Must run synchronously at the service worker's top level.
export function registerOwnTools() {
  chrome.runtime.onMessage.addListener((msg, sender) => {
    if (msg?.type !== REPORT || sender.id !== chrome.runtime.id) return;
    const tabId = sender.tab?.id;
    if (!Number.isInteger(tabId) || sender.frameId !== 0 || typeof sender.documentId !== 'string') return;
    takeReport(tabId, sender, msg);
  });
  chrome.webNavigation.onCommitted.addListener((d) => {
    if (d.frameId !== 0) return;
    enqueue(d.tabId, () => onCommit(d));
  });
  onTabReplaced((added) => askResend(added));
  onConnected(() => {
    // A new host knows nothing: the lists with tools, and nothing else.
    for (const [tabId, s] of lists) {
      if (s.tools.length) send(tabId, s);
      else s.told = { documentId: null, key: EMPTY_KEY, cleared: false };
    }
  });
  // A crashed page has no tools (its document is dead); a reload brings them back.
  onTabCrashed((tabId) => enqueue(tabId, () => {
    const s = lists.get(tabId);
    if (!s || s.told.key === EMPTY_KEY) return;
    const cleared = { ...s, api: null, native: false, total: 0, tools: [], key: EMPTY_KEY };
    lists.set(tabId, cleared);
    send(tabId, cleared);
  }));
  registerHandler(Method.OWN_TOOL_CALL, pageTool(callOwnTool, { name: 'owntool.call', acts: true }));
  // Manifest content scripts only reach pages loaded after the extension
  // (re)started; give the pages already open the registry from now on.
  chrome.runtime.onInstalled.addListener(() => {
    injectIntoOpenTabs().catch((e) => console.debug(`tabbridge: page tools injection: ${e.message}`));
  });
  // A fresh worker (first start or a restart) knows no lists: ask for them.
  askAllToResend().catch((e) => console.debug(`tabbridge: page tools resend: ${e.message}`));
}

// --- lists -------------------------------------------------------------------------

async function onReport(tabId, sender, msg) {
  if (sender.documentLifecycle && sender.documentLifecycle !== 'active') return; // prerendered or cached
  // A report from a document the tab has left since is stale.
  if ((await topDocumentId(tabId)) !== sender.documentId) return;
  const api = APIS.has(msg.api) ? msg.api : null;
  const native = msg.native === true;
  const tools = cleanTools(msg.tools);
  const total = Number.isInteger(msg.total) && msg.total >= tools.length ? msg.total : tools.length;
  // The browser's word for the URL, never the page's: the page can forge reports.
  const url = sender.url ?? '';
  const key = keyOf(api, native, total, tools);
  // The new document's report can overtake its commit event: begin it here.
  if (lists.get(tabId)?.documentId !== sender.documentId) beginDocument(tabId, sender.documentId, url);
  const { told } = lists.get(tabId);
  const s = { documentId: sender.documentId, url, api, native, total, tools, key, told };
  lists.set(tabId, s);
  // The same tools in another document still go out: calls name the document.
  // After a clear the host waits for the new document: its first word goes
  // out even when it has no tools.
  if (key !== told.key || (told.cleared && told.documentId === s.documentId) ||
    (tools.length > 0 && told.documentId !== s.documentId)) send(tabId, s);
  if (Number.isInteger(msg.resent)) heardOwnTools(tabId, msg.resent);
}

function onCommit({ tabId, documentId, url }) {
  if (documentId && lists.get(tabId)?.documentId === documentId) return; // its report came first
  beginDocument(tabId, documentId ?? null, url ?? '');
  // A document back from the back/forward cache (or an activated prerender)
  // has its scripts already: ask it for its list. A new one has none yet.
  if (documentId) askResend(tabId, { documentId });
}

// The tab's top document changed: its tools are cleared. A document our
// scripts run in reports its tools once it found them all (own_tools_relay.js):
// until then (or kNavigationSettleMs) the host keeps the focused sessions'
// list as it was, and tells them once, so the same tools back are no change
// and a navigation is one. Another (a file: or browser page) has none, at once.
function beginDocument(tabId, documentId, url) {
  const told = lists.get(tabId)?.told ?? { documentId: null, key: EMPTY_KEY, cleared: false };
  const s = { documentId, url, api: null, native: false, total: 0, tools: [], key: EMPTY_KEY, told };
  lists.set(tabId, s);
  const reports = WATCHED_URL.test(url);
  if (told.key !== EMPTY_KEY || told.cleared || reports) {
    send(tabId, s, { settled: !reports });
    s.told.cleared = reports; // its first report goes out even when it has no tools
  }
}

function askResend(tabId, options = { frameId: 0 }) {
  chrome.tabs.sendMessage(tabId, { type: RESEND }, options).catch(() => {});
}

async function askAllToResend() {
  const tabs = await chrome.tabs.query({});
  for (const t of tabs) if (WATCHED_URL.test(t.url ?? '')) askResend(t.id);
}

async function injectIntoOpenTabs() {
  const tabs = await chrome.tabs.query({});
  await Promise.all(tabs.filter((t) => WATCHED_URL.test(t.url ?? '')).map(async (t) => {
    const target = { tabId: t.id }; // the top frame
    try {
      await chrome.scripting.executeScript({ target, world: 'MAIN', files: manifestScripts(MAIN_SCRIPT), injectImmediately: true });
      await chrome.scripting.executeScript({ target, world: 'ISOLATED', files: manifestScripts(RELAY_SCRIPT), injectImmediately: true });
    } catch (e) {
      console.debug(`tabbridge: page tools not injected into tab ${t.id}: ${e.message}`);
    }
  }));
}

// --- owntool.call {tabId, documentId, name, source, arguments, argumentsText?} -----

// data.url: where the tab is now, for the host's policy (docs/protocol.md);
// data.notRun: the call never reached the page, so the host may send it to
// the new one — a call that did reach it may have done its work (a form sent)
// and is never sent twice.
const documentChanged = (url, { notRun = false } = {}) => new RpcError(ErrorCode.DOCUMENT_CHANGED,
  `the page changed since its tools were listed${url ? ` (now ${url})` : ''}`,
  url || notRun ? { ...(url ? { url } : {}), ...(notRun ? { notRun: true } : {}) } : undefined);

// tabId checked, and the tab found (ctx.tab), by page_tool.js.
async function callOwnTool(tabId, params, ctx) {
  const { documentId, name, source } = params;
  const args = argumentsOf(params);
  if (typeof documentId !== 'string' || !documentId) throw new RpcError(ErrorCode.INVALID_ARGUMENT, 'documentId must be a string');
  if (typeof name !== 'string' || !name) throw new RpcError(ErrorCode.INVALID_ARGUMENT, 'name must be a string');
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new RpcError(ErrorCode.INVALID_ARGUMENT, 'arguments must be an object');
  }
  if ((await topDocumentId(tabId)) !== documentId) throw documentChanged(ctx.tab.url, { notRun: true });
  const route = callRoute(lists.get(tabId), documentId, name, source);
  if (isFormSource(route)) {
    const r = await callFormTool(tabId, documentId, name, args, { ...ctx, declarative: route === 'declarative' });
    if (r !== NOT_OUR_FORM) return r;
  }
  if (route === 'results') return callResultTool(tabId, documentId, name, args, ctx);
  if (route === 'buttons') return callButtonTool(tabId, documentId, name, args, ctx);
  return runWebmcpTool(tabId, documentId, name, args, ctx);
}

// In the page (MAIN world): the registry runs the tool. The answer crosses
// back as {kind, value}: a string as is, anything else as JSON text.
async function runInPage(toolName, toolArgs, maxErrorChars) {
  const registry = window[Symbol.for('tabbridge.owntools.v1')];
  if (!registry) return { error: 'tabbridge has not reached this page yet — reload it' };
  try {
    const value = await registry.call(toolName, toolArgs);
    if (typeof value === 'string') return { kind: 'string', value };
    if (value === undefined) return { kind: 'undefined' };
    try {
      return { kind: 'json', value: JSON.stringify(value) };
    } catch {
      return { kind: 'string', value: String(value) };
    }
  } catch (e) {
    let message;
    try { message = String(e?.message ?? e); } catch { message = 'unknown error'; }
    return { error: message.slice(0, maxErrorChars) || 'unknown error' }; // cut again (with "…") by the worker
  }
}

// Rejects when the document goes (navigation, reload) or the tab closes
// while the tool runs: its answer would never come.
function whileDocumentLives(tabId, documentId) {
  let stop;
  const promise = new Promise((_, reject) => {
    const committed = (d) => {
      if (d.tabId === tabId && d.frameId === 0 && d.documentId !== documentId) reject(documentChanged(d.url));
    };
    const removed = (id) => {
      if (id === tabId) reject(tabGone(tabId));
    };
    chrome.webNavigation.onCommitted.addListener(committed);
    chrome.tabs.onRemoved.addListener(removed);
    stop = () => {
      chrome.webNavigation.onCommitted.removeListener(committed);
      chrome.tabs.onRemoved.removeListener(removed);
    };
  });
  return { promise, stop };
}

// How the last waits for a declarative form's result page ended without one
// ('prevented': the page prevented the submit; 'timer': no navigation
// started in NAV_START_MS), for diagnostics (tests/e2e/own_tools_webmcp).
const formWaits = [];
globalThis.__tabbridgeFormWaits = formWaits;

// Marks an answer of a tool that returned nothing (runWebmcpToolIn).
const NOTHING = Symbol('returned nothing');

// Runs until the call's deadline (ctx.deadline, from the host's deadlineMs;
// signal aborts then with a TimeoutError) or its cancellation. A tool that
// set off a navigation says where to in the answer's _meta (navigated_to.js);
// one whose document went while it ran answers DOCUMENT_CHANGED — but a
// declarative form whose submit navigates (the browser's executeTool
// resolves null as the navigation starts, or the document goes first)
// answers what its result page says (result_page.js).
async function runWebmcpTool(tabId, documentId, name, args, ctx = {}) {
  const startedAt = Date.now();
  const nav = watchTopFrame(tabId);
  const result = watchResultPage(tabId, documentId);
  const form = isDeclarativeForm(tabId, documentId, name); // asked before the form can go
  try {
    let r = null;
    let left = null; // the document went before the tool answered
    try {
      r = await runWebmcpToolIn(tabId, documentId, name, args, ctx);
    } catch (e) {
      if (!(e instanceof RpcError) || e.code !== ErrorCode.DOCUMENT_CHANGED || !(await form)) throw e;
      left = e;
    }
    if ((left || r[NOTHING]) && (await form)) {
      const until = Math.min(ctx.deadline ?? Infinity, startedAt + Deadlines.OWN_TOOL_CALL_MS) - Deadlines.ANSWER_MARGIN_MS;
      const page = await result.read({
        until, signal: ctx.signal, startWithinMs: left ? Infinity : NAV_START_MS,
        prevented: left ? null : () => submitPrevented(tabId, documentId, name),
      });
      if (page.noNavigation) {
        formWaits.push(page.why);
        if (formWaits.length > 20) formWaits.shift();
      }
      if (page.cancelled) throw new Error('cancelled');
      if (!page.noNavigation) {
        return withNavigatedTo({ content: resultPageBlocks(toolLabel(name), page) }, page.url || (await nav.navigatedTo()));
      }
    }
    if (left) throw left;
    return withNavigatedTo(r, await nav.navigatedTo({ graceMs: navGraceWithin(ctx.deadline) }));
  } finally {
    nav.dispose();
    result.dispose();
  }
}

async function runWebmcpToolIn(tabId, documentId, name, args, { signal, deadline = Infinity } = {}) {
  const label = toolLabel(name);
  const gone = whileDocumentLives(tabId, documentId);
  const budgetMs = Math.min(deadline - Date.now(), Deadlines.OWN_TOOL_CALL_MS - Deadlines.ANSWER_MARGIN_MS);
  let timer;
  let onAbort;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), Math.max(0, budgetMs));
  });
  const aborted = new Promise((resolve, reject) => {
    onAbort = () => (signal.reason?.name === 'TimeoutError' ? resolve({ timedOut: true }) : reject(new Error('cancelled')));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort);
  });
  // The tool's answer is a read of its document (stack/document_reads.js).
  const run = readingDocument(tabId, documentId, () => chrome.scripting.executeScript({
    target: { tabId, documentIds: [documentId] },
    world: 'MAIN',
    func: runInPage,
    // As JSON text: it keeps the model's order of the keys (executeScript sorts an object's).
    args: [name, JSON.stringify(args), OwnToolLimits.MAX_ERROR_CHARS + 1],
  })).then((results) => results?.[0]?.result);
  let r;
  try {
    r = await Promise.race([run, gone.promise, timeout, aborted]);
  } catch (e) {
    if (e instanceof RpcError) throw e;
    if (signal?.aborted) throw e;
    throw await explainScriptingError(tabId, documentId, e);
  } finally {
    clearTimeout(timer);
    gone.stop();
    signal?.removeEventListener('abort', onAbort);
    run.catch(() => {}); // a late failure after the race was decided
  }
  if (r?.timedOut) {
    return errorResult(`the page's tool ${label} did not answer within ${Math.round(budgetMs / 100) / 10} s`);
  }
  if (r === undefined || r === null) {
    // No result: the document went away under the script.
    if ((await topDocumentId(tabId)) !== documentId) throw documentChanged((await getTab(tabId)).url);
    return errorResult(`the page's tool ${label} gave no answer`);
  }
  if (r.error !== undefined) {
    return errorResult(`the page's tool ${label} failed: ${cut(String(r.error), OwnToolLimits.MAX_ERROR_CHARS)}`);
  }
  const answer = normalise(label, r);
  if (returnedNothing(r)) answer[NOTHING] = true; // never sent: a symbol key
  return answer;
}

async function explainScriptingError(tabId, documentId, e) {
  const m = String(e?.message ?? e);
  if (chromeErrorKind(e) === 'tabGone') return tabGone(tabId);
  let tab;
  try {
    tab = await chrome.tabs.get(tabId);
  } catch {
    return tabGone(tabId);
  }
  if ((await topDocumentId(tabId)) !== documentId || chromeErrorKind(e) === 'frameGone') {
    return documentChanged(tab.url);
  }
  return new RpcError(ErrorCode.BROWSER_ERROR, `could not run the page's tool: ${m}`);
}
