// The one reading of Chrome's error messages (chrome.tabs, chrome.scripting,
// chrome.debugger), for the worker and the page tools alike, and the tab
// that is gone (TAB_NOT_FOUND, docs/protocol.md). The page tools' own error
// type is tools/stack/errors.js's ToolError.

import { ErrorCode, RpcError } from './protocol.js';

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
