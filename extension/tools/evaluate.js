// evaluate {expression, allFrames?}: runs JavaScript in the page's main world
// through CDP Runtime.evaluate (cdp.js), which page CSP cannot block.
//
// What the model may pass, tried in this order (see parses(): nothing runs
// while the shape is found out):
//   1. a function expression — `() => document.title`, `async function () {…}` — is called;
//   2. an expression — `document.title`, `{a: 1}`;
//   3. an expression using await — `await fetch('/x').then(r => r.status)`;
//   4. statements — `const n = 2; n * 21` — answer the last statement's value
//      (like the DevTools console; top-level await allowed);
//   5. a function body with return — `const t = document.title; return t.length`.
// The value comes back as JSON (DOM nodes, cycles, Maps, errors… described),
// capped at MAX_RESULT_CHARS. A throw or rejection is an isError result with
// the message and stack. allFrames evaluates in every frame's main world
// (the default execution context of each frame, out-of-process ones included
// when cdp.js auto-attaches them).

import { cdp, onCdpEvent } from '../worker/cdp.js';
import { executionContexts, frameSessions } from '../worker/tab_state.js';
import { dialogOf, dialogPromise } from '../worker/dialogs.js';
import { dialogRead } from './stack/dialog_reads.js';
import { noteRead } from './stack/reads.js';
import { inflightRequests } from '../worker/network_log.js';
import { ToolError } from './stack/errors.js';
import { cutEnd } from '../worker/text_cut.js';
import { catchToolError, pageTool } from './stack/page_tool.js';
import { dataResult } from './stack/results.js';
import { navGraceWithin, withNavigatedTo } from './shared/navigated_to.js';

const MAX_RESULT_CHARS = 100 * 1024;
const EVAL_TIMEOUT_MS = 20000; // the host gives a page request 30 s
const PARSE_TIMEOUT_MS = 5000;
const GROUP = 'tabbridge-evaluate';

// ---------------------------------------------------------------------------
// Main-world execution contexts per tab (for allFrames), from Runtime events.

// tabId -> Map(key -> {id, frameId, origin, sessionId}); tabId -> Map(sessionId
// -> {url}) of out-of-process iframes. tab_state.js drops both when the tab
// goes or the debugger lets it go.
const contexts = executionContexts;
const key = (sessionId, id) => `${sessionId ?? ''}|${id}`;

// Must run at the service worker's top level (cdp.js delivers events to
// listeners registered before the debugger attaches).
export function registerListeners() {
  onCdpEvent('Runtime.executionContextCreated', (tabId, { context }, sessionId) => {
    if (!context?.auxData?.isDefault || !context.auxData.frameId) return;
    if (!contexts.has(tabId)) contexts.set(tabId, new Map());
    contexts.get(tabId).set(key(sessionId, context.id), {
      id: context.id, frameId: context.auxData.frameId, origin: context.origin, sessionId,
    });
  });
  onCdpEvent('Runtime.executionContextDestroyed', (tabId, { executionContextId }, sessionId) => {
    contexts.get(tabId)?.delete(key(sessionId, executionContextId));
  });
  onCdpEvent('Runtime.executionContextsCleared', (tabId, _params, sessionId) => {
    const map = contexts.get(tabId);
    if (!map) return;
    for (const [k, c] of map) if ((c.sessionId ?? '') === (sessionId ?? '')) map.delete(k);
  });
  // Out-of-process iframes: cdp.js auto-attaches them as flat child sessions.
  onCdpEvent('Target.attachedToTarget', (tabId, { sessionId, targetInfo }) => {
    if (!sessionId || targetInfo?.type !== 'iframe') return;
    if (!frameSessions.has(tabId)) frameSessions.set(tabId, new Map());
    frameSessions.get(tabId).set(sessionId, { url: targetInfo.url, targetId: targetInfo.targetId });
  });
  onCdpEvent('Target.targetInfoChanged', (tabId, { targetInfo }) => {
    for (const info of frameSessions.get(tabId)?.values() ?? []) if (info.targetId === targetInfo?.targetId) info.url = targetInfo.url;
  });
  onCdpEvent('Target.detachedFromTarget', (tabId, { sessionId }) => {
    frameSessions.get(tabId)?.delete(sessionId);
    const map = contexts.get(tabId);
    if (!map) return;
    for (const [k, c] of map) if (c.sessionId === sessionId) map.delete(k);
  });
}

// ---------------------------------------------------------------------------

// Code that navigates the tab (location.href = …) says where to in the
// answer's _meta (navigated_to.js), as an action does. The renderer reports
// the navigation it was asked for (Page.frameRequestedNavigation) on the same
// CDP session before the evaluation's answer: only then is the navigation's
// start looked for a little longer (webNavigation's events may come after the
// answer) — an evaluation that navigates nothing does not wait.
async function evaluateTool(tabId, args, ctx) {
  // ctx.nav watches from before the wrapper's site check (watchTop): a
  // commit after it is seen, so the site needs no second look.
  let requested = false;
  const offRequested = onCdpEvent('Page.frameRequestedNavigation', (id, { disposition }) => {
    if (id === tabId && (disposition ?? 'currentTab') === 'currentTab') requested = true;
  });
  try {
    const r = await evaluateInPage(tabId, args, ctx);
    const graceMs = requested ? navGraceWithin(ctx?.deadline) : 0;
    return withNavigatedTo(r, await ctx.nav.navigatedTo({ graceMs, quiet: !requested }));
  } finally {
    offRequested();
  }
}

const evaluateInPage = catchToolError(async (tabId, { expression, allFrames = false }) => {
  if (typeof expression !== 'string' || !expression.trim()) {
    throw new ToolError('expression is empty: give JavaScript such as document.title or () => location.href');
  }
  const open = dialogOf(tabId);
  if (open) throw new ToolError(`the page shows ${dialogRead(tabId, open)}: answer it with handle_dialog first`);
  const plan = await planFor(tabId, expression);
  if (!allFrames) {
    const out = await runIn(tabId, plan, {});
    if (out.error) throw new ToolError(out.error);
    return answer(out);
  }

  const frames = await frameContexts(tabId);
  const results = [];
  for (const f of frames) {
    const out = await runIn(tabId, plan, { contextId: f.id, sessionId: f.sessionId }).catch((e) => ({ error: e.message }));
    const item = { frameId: f.frameId, url: f.url };
    if (out.error) item.error = out.error;
    else Object.assign(item, { result: out.value, type: out.type }, out.truncated ? { truncated: true, chars: out.chars } : {});
    results.push(item);
  }
  const failed = results.filter((r) => r.error).length;
  const structured = { frames: results };
  let text = `evaluated in ${results.length} frame${results.length === 1 ? '' : 's'}`;
  if (failed) text += ` (${failed} threw)`;
  const json = JSON.stringify(structured);
  if (json.length > MAX_RESULT_CHARS) {
    return dataResult(`${text}; the results are ${json.length} characters, more than the ${MAX_RESULT_CHARS} cap: ` +
      'return smaller values (pick the fields you need)', { frames: results.map(({ result, ...rest }) => ({ ...rest, omitted: true })) });
  }
  if (failed === results.length && results.length) throw new ToolError(`${text}:\n${results.map((r) => `${r.url}: ${r.error}`).join('\n')}`);
  return dataResult(text, structured);
});

export const tool = pageTool(evaluateTool, { watchTop: true, name: 'evaluate', newPageTools: true });

function answer(out) {
  const structured = { result: out.value, type: out.type };
  if (out.truncated) {
    structured.truncated = true;
    structured.chars = out.chars;
    return dataResult(`the result is ${out.chars} characters of JSON; here are the first ${MAX_RESULT_CHARS} as a string. ` +
      'Return a smaller value (slice it, or pick the fields you need).', structured);
  }
  return dataResult('', structured);
}

// ---------------------------------------------------------------------------
// Which shape the source has (see the top of this file).

const FUNCTION_SYNTAX = /^\s*(async\s+)?(function\b|\([^()]*\)\s*=>|[\w$]+\s*=>)/;

// Whether source parses, by evaluating it wrapped in a function that is never
// called (nothing runs; V8 reports early errors when it compiles the wrapper);
// `void` leaves no function object in the page to release.
// Not Runtime.compileScript: that needs Runtime.enable, which hangs while a
// navigation is pending.
async function parses(tabId, wrapped) {
  let r;
  try {
    r = await cdp(tabId, 'Runtime.evaluate', { expression: `void ${wrapped}`, returnByValue: true },
      { timeoutMs: PARSE_TIMEOUT_MS });
  } catch (e) {
    if (!/timed out/.test(e.message)) throw e;
    // Chrome holds CDP commands while a navigation is pending (until it commits).
    const loading = inflightRequests(tabId).find((q) => q.type === 'main_frame');
    throw new ToolError(loading
      ? `the tab is loading ${loading.url} and the server has not answered yet; the browser runs evaluate once that ` +
        'page arrives. Wait for it (navigate, wait_for) and call evaluate again, or navigate elsewhere.'
      : `the page did not answer within ${PARSE_TIMEOUT_MS / 1000} s (busy with a long script, or a dialog is open — ` +
        'see handle_dialog); try again');
  }
  return r.exceptionDetails ? describeException(r.exceptionDetails) : true;
}

// How a source is to be run depends only on the grammar: the last plans are
// kept, so an expression evaluated again (polling document.readyState, a
// counter) costs one round trip to the page instead of two or three.
const plans = new Map();
const PLANS_KEPT = 64;

async function planFor(tabId, src) {
  const known = plans.get(src);
  if (known) return known;
  const plan = await probePlan(tabId, src);
  if (plans.size >= PLANS_KEPT) plans.delete(plans.keys().next().value);
  plans.set(src, plan);
  return plan;
}

async function probePlan(tabId, src) {
  const expr = `(${src}\n)`;
  if ((await parses(tabId, `(() => ${expr})`)) === true) {
    return { expression: FUNCTION_SYNTAX.test(src) ? `${expr}()` : expr };
  }
  if ((await parses(tabId, `(async () => ${expr})`)) === true) {
    return { expression: `(async () => ${expr})()` };
  }
  const asBody = await parses(tabId, `(async () => {${src}\n})`);
  if (asBody === true) {
    // Statements: replMode answers the last one's value (top-level await allowed),
    // unless they return one themselves.
    return /\breturn\b/.test(src) ? { expression: `(async () => {${src}\n})()` } : { expression: src, replMode: true };
  }
  throw new ToolError(`the expression does not parse: ${await syntaxError(tabId, src, asBody)}. Give an expression (document.title), ` +
    'statements (const a = 1; a + 1), a function body with return, or a function (() => …)');
}

// The script's own syntax error ("Unexpected end of input"), not the wrapper's.
async function syntaxError(tabId, src, fallback) {
  try {
    await cdp(tabId, 'Runtime.enable', {}, { timeoutMs: PARSE_TIMEOUT_MS });
    const r = await cdp(tabId, 'Runtime.compileScript', { expression: src, sourceURL: '', persistScript: false },
      { timeoutMs: PARSE_TIMEOUT_MS });
    if (r.exceptionDetails) return describeException(r.exceptionDetails).replace(/^Uncaught /, '');
  } catch { /* keep the fallback */ }
  return fallback.replace(/^Uncaught /, '');
}

// ---------------------------------------------------------------------------

async function runIn(tabId, plan, { contextId, sessionId }) {
  const params = {
    expression: plan.expression,
    awaitPromise: true,
    returnByValue: false,
    userGesture: true,
    objectGroup: GROUP,
    replMode: !!plan.replMode,
    timeout: EVAL_TIMEOUT_MS, // ends synchronous endless loops
  };
  if (contextId !== undefined) params.contextId = contextId;
  let r;
  const dialog = dialogPromise(tabId);
  try {
    r = await Promise.race([
      cdp(tabId, 'Runtime.evaluate', params, { sessionId, timeoutMs: EVAL_TIMEOUT_MS + 500 }),
      dialog.promise.then((d) => ({ dialog: d })),
    ]).finally(() => dialog.cancel());
    if (r.dialog) {
      return { error: `the page opened ${dialogRead(tabId, r.dialog)} and waits for an answer: call handle_dialog; ` +
        'the evaluation goes on once it is closed, but its result is lost — evaluate again if you need it' };
    }
  } catch (e) {
    if (/timed out/.test(e.message)) {
      return { error: `the evaluation did not finish within ${EVAL_TIMEOUT_MS / 1000} s (a promise that never settles?)` };
    }
    // What Runtime.evaluate answers when its timeout terminated the script.
    if (/internal error/i.test(e.message)) {
      return { error: `the evaluation ran longer than ${EVAL_TIMEOUT_MS / 1000} s and was stopped (an endless loop?)` };
    }
    throw e;
  }
  try {
    await noteEvaluated(tabId, { contextId, sessionId });
    if (r.exceptionDetails) return { error: describeException(r.exceptionDetails) };
    return await toJson(tabId, r.result, sessionId);
  } finally {
    // A primitive answer (1+1) left nothing in the group to release.
    if (r.result?.objectId || r.exceptionDetails?.exception?.objectId) {
      cdp(tabId, 'Runtime.releaseObjectGroup', { objectGroup: GROUP }, { sessionId }).catch(() => {});
    }
  }
}

// What an evaluation answered is a read of its document: its URL, asked in
// the same execution context (a context lives as long as its document; the
// top frame's default one, asked right after, is covered by the call's
// navigatedTo when a new document came: stack/reads.js). No URL: noted with
// none, and the host withholds the answer.
async function noteEvaluated(tabId, { contextId, sessionId }) {
  const params = { expression: 'location.href', returnByValue: true };
  if (contextId !== undefined) params.contextId = contextId;
  const r = await cdp(tabId, 'Runtime.evaluate', params, { sessionId, timeoutMs: PARSE_TIMEOUT_MS }).catch(() => null);
  noteRead(tabId, { documentId: null, url: typeof r?.result?.value === 'string' ? r.result.value : '' });
}

function describeException(d) {
  const ex = d.exception;
  let msg = ex?.description ?? (ex && 'value' in ex ? JSON.stringify(ex.value) : null) ?? d.text ?? 'exception';
  if (/terminated/i.test(msg) || /terminated/i.test(d.text ?? '')) {
    return `the evaluation ran longer than ${EVAL_TIMEOUT_MS / 1000} s and was stopped (an endless loop?)`;
  }
  if (d.text && /in promise/i.test(d.text) && !/^Uncaught/.test(msg)) msg = `Uncaught (in promise) ${msg}`;
  else if (!/^Uncaught/.test(msg)) msg = `Uncaught ${msg}`;
  return msg;
}

// A RemoteObject -> {value, type, truncated?, chars?}.
async function toJson(tabId, obj, sessionId) {
  const type = obj.subtype ?? obj.type;
  if (obj.type === 'undefined') return { value: null, type: 'undefined' };
  if ('unserializableValue' in obj) return { value: obj.unserializableValue, type };
  if (!obj.objectId) {
    const json = JSON.stringify(obj.value ?? null);
    if (json.length > MAX_RESULT_CHARS) return { value: json.slice(0, cutEnd(json, MAX_RESULT_CHARS)), type, truncated: true, chars: json.length };
    return { value: obj.value ?? null, type };
  }
  const r = await cdp(tabId, 'Runtime.callFunctionOn', {
    objectId: obj.objectId,
    functionDeclaration: SERIALIZE.toString(),
    arguments: [{ value: MAX_RESULT_CHARS }],
    returnByValue: true,
    objectGroup: GROUP,
  }, { sessionId, timeoutMs: EVAL_TIMEOUT_MS });
  if (r.exceptionDetails) return { value: obj.description ?? null, type };
  const { json, chars } = r.result.value;
  if (chars > MAX_RESULT_CHARS) return { value: json, type, truncated: true, chars };
  return { value: json === undefined ? null : JSON.parse(json), type };
}

// Runs in the page with `this` = the value: JSON text of a JSON-safe copy.
function SERIALIZE(max) {
  const seen = new WeakSet();
  const describeNode = (n) => {
    if (n.nodeType === 1) {
      let s = `<${n.localName}`;
      if (n.id) s += ` id="${n.id}"`;
      if (typeof n.className === 'string' && n.className.trim()) s += ` class="${n.className.trim().slice(0, 80)}"`;
      return `${s}>`;
    }
    if (n.nodeType === 3) return `#text ${JSON.stringify(n.data.slice(0, 200))}`;
    if (n.nodeType === 9) return `#document ${n.URL}`;
    return n.nodeName;
  };
  const conv = (v, depth) => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (typeof v === 'undefined') return null;
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'symbol') return v.toString();
    if (typeof v === 'function') return `ƒ ${v.name || 'anonymous'}()`;
    if (typeof Node === 'function' && v instanceof Node) return describeNode(v);
    if (typeof Window === 'function' && v instanceof Window) return '[Window]';
    if (seen.has(v)) return '[Circular]';
    if (depth > 20) return '[…]';
    seen.add(v);
    try {
      if (v instanceof Error) return { name: v.name, message: v.message, stack: v.stack };
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
      if (v instanceof RegExp) return String(v);
      if (v instanceof Map) return Object.fromEntries([...v].slice(0, 1000).map(([k, x]) => [String(k), conv(x, depth + 1)]));
      if (v instanceof Set) return [...v].slice(0, 1000).map((x) => conv(x, depth + 1));
      if (ArrayBuffer.isView(v)) return Array.from(v.subarray ? v.subarray(0, 1000) : []);
      if (Array.isArray(v) || (typeof NodeList === 'function' && v instanceof NodeList) ||
          (typeof HTMLCollection === 'function' && v instanceof HTMLCollection)) {
        return Array.from(v).slice(0, 10000).map((x) => conv(x, depth + 1));
      }
      if (typeof v.toJSON === 'function') return conv(v.toJSON(), depth + 1);
      const out = {};
      for (const k of Object.keys(v)) {
        let x;
        try { x = v[k]; } catch (e) { x = `[getter threw: ${e?.message}]`; }
        if (typeof x !== 'undefined') out[k] = conv(x, depth + 1);
      }
      return out;
    } finally {
      seen.delete(v);
    }
  };
  const json = JSON.stringify(conv(this, 0));
  return json.length > max ? { json: json.slice(0, max), chars: json.length } : { json, chars: json.length };
}

// ---------------------------------------------------------------------------
// allFrames: the default (main-world) context of every frame.

async function frameContexts(tabId) {
  await cdp(tabId, 'Runtime.enable');
  const tree = await cdp(tabId, 'Page.getFrameTree');
  const urls = new Map();
  const order = [];
  (function walk(node) {
    urls.set(node.frame.id, node.frame.url);
    order.push(node.frame.id);
    for (const child of node.childFrames ?? []) walk(child);
  })(tree.frameTree);
  let map = contexts.get(tabId);
  // Runtime was enabled before this worker started: have it report the contexts again.
  if (!map || ![...map.values()].some((c) => c.frameId === order[0])) {
    await cdp(tabId, 'Runtime.disable');
    await cdp(tabId, 'Runtime.enable');
    map = contexts.get(tabId) ?? new Map();
  }
  // Out-of-process iframes report their contexts on their own sessions.
  for (const sessionId of frameSessions.get(tabId)?.keys() ?? []) {
    await cdp(tabId, 'Runtime.enable', {}, { sessionId, timeoutMs: PARSE_TIMEOUT_MS }).catch(() => {});
  }
  map = contexts.get(tabId) ?? map;
  const sessionUrl = (c) => (c.sessionId ? frameSessions.get(tabId)?.get(c.sessionId)?.url : undefined);
  const list = [...map.values()].map((c) => ({ ...c, url: urls.get(c.frameId) ?? sessionUrl(c) ?? c.origin }));
  const rank = (c) => {
    const i = order.indexOf(c.frameId);
    return i < 0 ? order.length : i;
  };
  return list.sort((a, b) => rank(a) - rank(b));
}
