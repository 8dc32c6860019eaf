// The one error type of the page tools. A tool throws ToolError to end with an isError result (the
// message says what happened and what to do next; page_tool.js turns it into
// the answer); RpcError (protocol.js) is for the situations docs/protocol.md
// gives a code: a tab that is gone is tabGone(tabId), TAB_NOT_FOUND.

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

// Chrome's errors are read in one place, worker/chrome_errors.js; the page
// tools take them from here.
export { chromeErrorKind, tabGone, TimedOut } from '../../worker/chrome_errors.js';

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
