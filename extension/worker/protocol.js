// The one JS definition of the extension <-> host wire names, limits and codes.
// docs/protocol.md explains them; common/protocol.h is the C++ twin.
// Change all three together.

// Bumped whenever a message changes shape; the host exits on a mismatch.
export const PROTOCOL_VERSION = 1;

// The one rule for which URLs are the agent's (kAgentUrlSchemes in
// common/protocol.h): tabs on them are listed, open_tab and navigate go only
// there; about:blank, data: and chrome:// pages stay the user's.
export const AGENT_URL_SCHEMES = Object.freeze(['http:', 'https:', 'file:']);
export const isAgentUrl = (url) => {
  try {
    return AGENT_URL_SCHEMES.includes(new URL(url).protocol);
  } catch {
    return false;
  }
};

// Native-messaging host name (Chrome's rule: lowercase, dots).
export const NATIVE_HOST_NAME = 'com.tabbridge.host';

// Chrome drops the port on a larger message from the host, so the host sends
// bigger ones as `chunk` notifications that chunk_assembler.js puts together.
export const MAX_FRAME_TO_EXTENSION = 1024 * 1024;

// Deadlines (common/protocol.h is the C++ twin; the comment names each one, and
// tests/e2e/protocol_sync.test.mjs holds the two to the same values). The
// host sends each request's whole budget as params.deadlineMs; native_port.js
// answers ANSWER_MARGIN_MS before it runs out, and a CDP command or page
// script inside gives up sooner still.
export const Deadlines = Object.freeze({
  PAGE_TOOL_MS: 30_000, // kPageToolDeadlineMs: a page tool without its own timeoutMs
  PAGE_MARGIN_MS: 5_000, // kPageDeadlineMarginMs: navigate/wait_for get timeoutMs + this
  DOWNLOAD_MS: 120_000, // kDownloadDeadlineMs
  PAGE_TOOL_CALL_MS: 30_000, // kPageToolCallDeadlineMs: pagetool.call
  ANSWER_MARGIN_MS: 1_000, // kExtensionAnswerMarginMs
  CDP_COMMAND_MS: 20_000, // kCdpCommandTimeoutMs
  PAGE_SCRIPT_MS: 10_000, // kPageScriptTimeoutMs
});

// Requests (host -> extension).
export const Method = Object.freeze({
  PING: 'ping',
  TABS_CREATE: 'tabs.create',
  TABS_CLOSE: 'tabs.close',
  // One of the page's own tools (WebMCP, forms): docs/protocol.md "The page's own tools".
  PAGE_TOOL_CALL: 'pagetool.call',
});

// Page tools arrive as PAGE_PREFIX + the tool's name (common/tool_catalog.cpp).
export const PAGE_PREFIX = 'page.';

// Notifications (host -> extension).
export const Notification = Object.freeze({
  CHUNK: 'chunk',
  CANCEL: 'cancel',
  // {tabIds, idleMs}: the tabs some session is focused on (docs/protocol.md).
  TABS_FOCUSED: 'tabs.focused',
  // {host, policy, sessions}: what the popup and the badge show (docs/protocol.md "The popup").
  HOST_STATE: 'host.state',
});

// Requests (extension -> host): the popup's questions and buttons
// (docs/protocol.md "The popup"); ext_request in common/protocol.h.
export const HostRequest = Object.freeze({
  POLICY_CHECK: 'policy.check', // {url} -> {site, agentUrl, policy, caps, sessions}
  DETACH_TAB: 'tab.detach', // {tabId} -> {tabId, detached: [sessionId]}
  DISCONNECT_SESSION: 'session.disconnect', // {sessionId} -> {sessionId, disconnected}
  // A page call reached a URL the host did not check (a download's redirect).
  POLICY_DECIDE: 'policy.decide', // {call, url, capability} -> {allowed, result?: the denial}
});

// host.state comes at most this often (kHostStateCoalesceMs).
export const HOST_STATE_COALESCE_MS = 250;

// A focused tab keeps chrome.debugger attached this long after its last page
// tool call (kDebuggerIdleMs; the host's tabs.focused may say otherwise);
// other tabs are detached as soon as no call uses them.
export const DEBUGGER_IDLE_MS = 15_000;

// Events (extension -> host).
export const Event = Object.freeze({
  HELLO: 'hello',
  TAB_CREATED: 'tab.created',
  TAB_UPDATED: 'tab.updated',
  TAB_REMOVED: 'tab.removed',
  PAGE_PROGRESS: 'page.progress',
  CONSOLE_ENTRY: 'console.entry',
  PAGE_TOOLS: 'page.tools',
  DEBUGGER_DETACHED: 'debugger.detached',
});

// The page's own tools (common/protocol.h has the host's side of these limits).
export const PageToolLimits = Object.freeze({
  MAX_REPORTED_TOOLS: 256, // kMaxReportedPageTools
  MAX_FORM_TOOLS: 8, // kMaxFormTools
  MAX_NAME_CHARS: 128,
  MAX_DESCRIPTION_CHARS: 1024,
  MAX_SCHEMA_BYTES: 8 * 1024,
  MAX_RESULT_TEXT_CHARS: 64 * 1024,
  MAX_ERROR_CHARS: 4 * 1024, // a page's own error message in an answer
  DEBOUNCE_MS: 150,
});

// Page text cut to max characters, "…" marking the cut.
export const cut = (s, max) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

// A page tool's name as messages show it: one line, at most MAX_NAME_CHARS.
export const toolLabel = (name) => cut(String(name).replace(/\s+/g, ' ').trim(), PageToolLimits.MAX_NAME_CHARS);

// JSON-RPC error codes the extension answers with.
export const ErrorCode = Object.freeze({
  METHOD_NOT_FOUND: -32601,
  BROWSER_ERROR: -32000,
  TAB_NOT_FOUND: -32001,
  INVALID_ARGUMENT: -32002,
  DOCUMENT_CHANGED: -32003, // pagetool.call: the named document is gone
  PAGE_MOVED: -32004, // the tab left the site params.policyUrl names: nothing was done
});

// The policy (docs/policy.md): page requests carry POLICY_URL_PARAM, the tab
// URL the host approved; a result whose action navigated the top frame says
// where in _meta[NAVIGATED_TO_META], for the host to check.
export const POLICY_URL_PARAM = 'policyUrl';
export const NAVIGATED_TO_META = 'tabbridge/navigatedTo';
// Where a call really went ({link?, url}), for the audit line; the host takes it out.
export const WENT_TO_META = 'tabbridge/wentTo';

// Thrown by handlers to answer with a specific code (and the error's `data`,
// when given); any other exception becomes BROWSER_ERROR with its message.
export class RpcError extends Error {
  constructor(code, message, data = undefined) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}
