// The one error type of the page tools, and the one reading of Chrome's
// error messages. A tool throws ToolError to end with an isError result (the
// message says what happened and what to do next; page_tool.js turns it into
// the answer); RpcError (protocol.js) is for the situations docs/protocol.md
// gives a code: a tab that is gone is tabGone(tabId), TAB_NOT_FOUND.

import { ErrorCode, RpcError } from '../../worker/protocol.js';

// extra: what callers may look at besides the message — stale (a ref or frame
// that no longer exists: take a new snapshot), desc (the element's description).
export class ToolError extends Error {
  constructor(message, extra = {}) {
    super(message);
    this.name = 'ToolError';
    Object.assign(this, extra);
  }
}

// The page went away while a script ran in it (navigation): callers retry or report.
export class NavigatedError extends ToolError {
  constructor(m) {
    super(`the page navigated while it was being read (${m}); call the tool again`);
  }
}

export const tabGone = (tabId) => new RpcError(ErrorCode.TAB_NOT_FOUND, `tab ${tabId} is gone — call list_tabs`);

// What a Chrome error message (chrome.tabs, chrome.scripting, chrome.debugger)
// says happened; each caller words the answer for its tool. The order matters:
// an error page's message names a frame too.
const KINDS = [
  ['tabGone', /no tab with (given )?id|tab was closed|tab not found|no target with given id|target closed|detached while handling/i],
  ['errorPage', /error page/i],
  ['frameGone', /no (frame|document) with id|no document|(frame|document).*(removed|not found|gone|invalid|unloaded)|invalid (frame|document)|page.*(navigated|removed)/i],
  ['notScriptable', /cannot access|cannot be scripted|extensions gallery|chrome:\/\/|chrome-error|edge:\/\/|permission/i],
];

// 'tabGone' | 'errorPage' | 'frameGone' | 'notScriptable' | 'timeout' | null
export function chromeErrorKind(e) {
  if (e instanceof TimedOut) return 'timeout';
  const m = String(e?.message ?? e);
  return KINDS.find(([, re]) => re.test(m))?.[0] ?? null;
}

// withTimeout's rejection (time.js); its message says what timed out.
export class TimedOut extends Error {
  constructor(message) {
    super(message);
    this.name = 'TimedOut';
  }
}

// What to do about a page hung in a script: it cannot even reload (that needs
// the page to answer too), but a new tab can show its URL.
export const HUNG_ADVICE = 'try again later; if it stays hung, close_tab it and open_tab its URL again (a hung page cannot reload)';

// Called before every step that changes the page: a call that was cancelled
// or ran out of time (signal from native_port.js) stops there — a click the
// model was told failed must not land later.
export function checkpoint(signal, before) {
  if (!signal?.aborted) return;
  const late = signal.reason?.name === 'TimeoutError';
  throw new ToolError(late
    ? `ran out of time before ${before} (the page is slow or not responding); nothing more was done`
    : `cancelled before ${before}`);
}
