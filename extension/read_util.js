// Shared helpers of the read-and-observe page tools (page_read.js and the
// modules it registers): CallToolResult builders, tab look-up, script
// injection with readable errors, cursors, time formatting, progress events.

import { ErrorCode, Event, RpcError } from './protocol.js';
import { sendEvent } from './native_port.js';
import { describeDialog, dialogOf } from './dialogs.js';
import { executeAgent } from './agent_runner.js';

// Cursors and text formatting live in read_format.js (no chrome: unit-tested).
export { clock, decodeCursor, encodeCursor, truncate } from './read_format.js';

const INJECT_TIMEOUT_MS = 10000;

// ---------------------------------------------------------------------------
// CallToolResult builders (docs/protocol.md "Page tools")

// A result with data: a one-line summary for the model, the same data as
// structuredContent, and (MCP: "SHOULD also return the serialized JSON in a
// TextContent block") that JSON as a second text block.
export function dataResult(summary, structured) {
  const content = [];
  if (summary) content.push({ type: 'text', text: summary });
  content.push({ type: 'text', text: JSON.stringify(structured) });
  return { content, structuredContent: structured };
}

// A document (markdown, text, a list): the body is the text the model reads;
// structuredContent carries only the small metadata (URL, cursor, counts).
export function documentResult(body, meta) {
  return {
    content: [{ type: 'text', text: body }, { type: 'text', text: JSON.stringify(meta) }],
    structuredContent: meta,
  };
}

// A failure in the page: the message says what happened and what to do next.
export const errorResult = (message) => ({ content: [{ type: 'text', text: message }], isError: true });

// Thrown inside a tool to end it with errorResult(message); see toolHandler.
export class ToolError extends Error {}

// Wraps a tool function: ToolError -> isError result; RpcError and any other
// throw go up to native_port (TAB_NOT_FOUND, BROWSER_ERROR).
export function toolHandler(fn) {
  return async (params, ctx = {}) => {
    try {
      return await fn(params ?? {}, ctx);
    } catch (e) {
      if (e instanceof ToolError) return errorResult(e.message);
      throw e;
    }
  };
}

// ---------------------------------------------------------------------------
// Tabs and injection

export const tabGone = (tabId) => new RpcError(ErrorCode.TAB_NOT_FOUND, `tab ${tabId} is gone — call list_tabs`);
const isNoTab = (m) => /no tab with (given )?id|no tab with id|tab was closed|tab not found|no target with given id/i.test(m);

export function requireTabId(tabId) {
  if (!Number.isInteger(tabId)) throw new RpcError(ErrorCode.INVALID_ARGUMENT, 'tabId must be an integer');
  return tabId;
}

export async function getTab(tabId) {
  requireTabId(tabId);
  try {
    return await chrome.tabs.get(tabId);
  } catch (e) {
    throw isNoTab(e.message) ? tabGone(tabId) : e;
  }
}

const shortUrl = (u) => (u && u.length > 120 ? `${u.slice(0, 120)}…` : u || '(no URL)');

// chrome.scripting.executeScript with errors the model can act on. Returns the
// InjectionResult array. Pages extensions may not script (chrome:, the error
// page) become ToolError; a frame removed under us (navigation) NavigatedError.
// injectImmediately: run now, not at document_idle (a page still loading).
// agentOp (and agentArgs): an op of the page agent instead of func or files,
// installed where the document has none (agent_runner.js).
export async function inject(tabId, { func, args = [], allFrames = false, frameIds, world = 'ISOLATED', files, timeoutMs = INJECT_TIMEOUT_MS,
  injectImmediately = false, agentOp, agentArgs = {} }) {
  const target = frameIds ? { tabId, frameIds } : { tabId, allFrames };
  // A JavaScript dialog blocks the page: scripts would wait for it.
  const dialog = dialogOf(tabId);
  if (dialog) throw new ToolError(`the page shows ${describeDialog(dialog)}: answer it with handle_dialog first`);
  let timer;
  try {
    return await Promise.race([
      agentOp
        ? executeAgent(tabId, frameIds ?? (allFrames ? 'all' : [0]), agentOp, agentArgs)
        : chrome.scripting.executeScript({ target, world, injectImmediately, ...(files ? { files } : { func, args }) }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`__timeout`)), timeoutMs);
      }),
    ]);
  } catch (e) {
    const m = String(e?.message ?? e);
    if (m === '__timeout') {
      const d = dialogOf(tabId);
      throw new ToolError(d ? `the page shows ${describeDialog(d)}: answer it with handle_dialog first`
        : `the page did not answer within ${timeoutMs / 1000} s (busy with a long script, or a dialog is open — see handle_dialog)`);
    }
    if (isNoTab(m)) throw tabGone(tabId);
    if (/showing error page/i.test(m)) {
      const tab = await chrome.tabs.get(tabId).catch(() => null);
      throw new ToolError(`the tab shows the browser's error page for ${shortUrl(tab?.url || tab?.pendingUrl)} ` +
        '(the page failed to load): navigate again, or check network_errors');
    }
    if (/cannot access|cannot be scripted|extensions gallery|chrome:\/\/|chrome-error|edge:\/\/|missing host permission/i.test(m)) {
      const tab = await chrome.tabs.get(tabId).catch(() => null);
      throw new ToolError(
        `cannot read this page (${shortUrl(tab?.url || tab?.pendingUrl)}): the browser does not let extensions ` +
          `run in it (${m}). Navigate to an http(s) page first.`);
    }
    if (/frame.*(removed|not found)|page.*(navigated|removed)|document.*(unloaded|removed)|no frame with id/i.test(m)) {
      throw new NavigatedError(m);
    }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

// The page went away while a script ran in it (navigation): callers retry or report.
export class NavigatedError extends ToolError {
  constructor(m) {
    super(`the page navigated while it was being read (${m}); call the tool again`);
  }
}

// The main frame's result of an inject() (frameId 0), or the first one.
export function mainResult(results) {
  const r = results?.find((x) => x.frameId === 0) ?? results?.[0];
  return r?.result;
}

// ---------------------------------------------------------------------------
// Progress (docs/protocol.md: page.progress {id, progress, total?, message})

// Returns report(progress, total, message); a no-op when the request id is unknown.
export function progressReporter(ctx) {
  const id = ctx?.requestId;
  if (id === undefined || id === null) return () => {};
  let last = -Infinity;
  return (progress, total, message) => {
    if (ctx.signal?.aborted || progress <= last) return; // MCP: progress must increase
    last = progress;
    const params = { id, progress };
    if (total !== undefined && total !== null) params.total = total;
    if (message) params.message = message;
    sendEvent(Event.PAGE_PROGRESS, params);
  };
}

// Sleep that ends early (and rejects with AbortError) when signal aborts.
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('aborted', 'AbortError'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
