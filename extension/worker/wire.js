// GENERATED from common/protocol.h by `tabbridge tools --wire-js` (codegen/generate.mjs) — do not edit.
// The extension <-> host wire names, limits, deadlines and error codes
// (docs/protocol.md); each value names its C++ constant.

export const PROTOCOL_VERSION = 2; // kExtensionProtocol
export const AGENT_URL_SCHEMES = Object.freeze(['http:', 'https:', 'file:']); // kAgentUrlSchemes
export const NATIVE_HOST_NAME = 'com.tabbridge.host'; // kNativeHostName
export const MAX_FRAME_TO_EXTENSION = 1048576; // kMaxFrameToExtension
export const PAGE_PREFIX = 'page.'; // ext_method::kPagePrefix
export const HOST_STATE_COALESCE_MS = 250; // kHostStateCoalesceMs
export const DEBUGGER_IDLE_MS = 15000; // kDebuggerIdleMs
export const POLICY_URL_PARAM = 'policyUrl'; // ext_method::kPolicyUrlParam
export const NAVIGATED_TO_META = 'tabbridge/navigatedTo'; // ext_method::kNavigatedToMeta
export const WENT_TO_META = 'tabbridge/wentTo'; // ext_method::kWentToMeta
export const READ_META = 'tabbridge/read'; // ext_method::kReadMeta

// The host sends each request's whole budget as params.deadlineMs; native_port.js
// answers ANSWER_MARGIN_MS before it runs out, and a CDP command or page
// script inside gives up sooner still.
export const Deadlines = Object.freeze({
  PAGE_TOOL_MS: 30000, // kPageToolDeadlineMs
  PAGE_MARGIN_MS: 5000, // kPageDeadlineMarginMs
  DOWNLOAD_MS: 120000, // kDownloadDeadlineMs
  OWN_TOOL_CALL_MS: 30000, // kOwnToolCallDeadlineMs
  ANSWER_MARGIN_MS: 1000, // kExtensionAnswerMarginMs
  CDP_COMMAND_MS: 20000, // kCdpCommandTimeoutMs
  PAGE_SCRIPT_MS: 10000, // kPageScriptTimeoutMs
});

// Requests (host -> extension); page tools arrive as PAGE_PREFIX + the tool's name.
export const Method = Object.freeze({
  PING: 'ping', // ext_method::kPing
  TABS_CREATE: 'tabs.create', // ext_method::kTabsCreate
  TABS_CLOSE: 'tabs.close', // ext_method::kTabsClose
  TABS_SHOW: 'tabs.show', // ext_method::kTabsShow
  OWN_TOOL_CALL: 'owntool.call', // ext_method::kOwnToolCall
});

// Notifications (host -> extension).
export const Notification = Object.freeze({
  CHUNK: 'chunk', // ext_method::kChunk
  CANCEL: 'cancel', // ext_method::kCancel
  TABS_FOCUSED: 'tabs.focused', // ext_method::kTabsFocused
  HOST_STATE: 'host.state', // ext_method::kHostState
  HOST_STATE_NETWORK_LOG: 'networkLog', // ext_method::kHostStateNetworkLog
  PERSON_ASK: 'person.ask', // ext_method::kPersonAsk
  PERSON_CLOSE: 'person.close', // ext_method::kPersonClose
  SESSION_ENDED: 'session.ended', // ext_method::kSessionEnded
  NO_DEBUGGER_BAR: 'debugger.noBar', // ext_method::kNoDebuggerBar
});

// Requests (extension -> host): the popup's questions and buttons, and policy.decide.
export const HostRequest = Object.freeze({
  POLICY_CHECK: 'policy.check', // ext_request::kPolicyCheck
  DETACH_TAB: 'tab.detach', // ext_request::kDetachTab
  DISCONNECT_SESSION: 'session.disconnect', // ext_request::kDisconnectSession
  POLICY_DECIDE: 'policy.decide', // ext_request::kPolicyDecide
  PERSON_ANSWER: 'person.answer', // ext_request::kPersonAnswer
  GRANT_REVOKE: 'grant.revoke', // ext_request::kGrantRevoke
});

// Events (extension -> host).
export const Event = Object.freeze({
  HELLO: 'hello', // ext_event::kHello
  TAB_CREATED: 'tab.created', // ext_event::kTabCreated
  TAB_UPDATED: 'tab.updated', // ext_event::kTabUpdated
  TAB_REMOVED: 'tab.removed', // ext_event::kTabRemoved
  PAGE_PROGRESS: 'page.progress', // ext_event::kPageProgress
  CONSOLE_ENTRY: 'console.entry', // ext_event::kConsoleEntry
  OWN_TOOLS: 'owntools.changed', // ext_event::kOwnTools
  DEBUGGER_DETACHED: 'debugger.detached', // ext_event::kDebuggerDetached
});

// The page's own tools: what the page scripts keep of them.
export const OwnToolLimits = Object.freeze({
  MAX_REPORTED_TOOLS: 256, // kMaxReportedOwnTools
  MAX_FORM_TOOLS: 8, // kMaxFormTools
  MAX_RESULT_LISTS: 3, // kMaxResultListTools
  MAX_BUTTON_TOOLS: 6, // kMaxButtonTools
  MAX_NAME_CHARS: 128, // kMaxOwnToolNameChars
  MAX_DESCRIPTION_CHARS: 1024, // kMaxOwnToolDescriptionChars
  MAX_SCHEMA_BYTES: 8192, // kMaxOwnToolSchemaBytes
  MAX_RESULT_TEXT_CHARS: 65536, // kMaxOwnToolResultChars
  MAX_ERROR_CHARS: 4096, // kMaxOwnToolErrorChars
  DEBOUNCE_MS: 150, // kOwnToolsDebounceMs
});

// JSON-RPC error codes the extension answers with.
export const ErrorCode = Object.freeze({
  METHOD_NOT_FOUND: -32601, // rpc_error::kMethodNotFound
  BROWSER_ERROR: -32000, // rpc_error::kBrowserError
  TAB_NOT_FOUND: -32001, // rpc_error::kTabNotFound
  INVALID_ARGUMENT: -32002, // rpc_error::kInvalidArgument
  DOCUMENT_CHANGED: -32003, // rpc_error::kDocumentChanged
  PAGE_MOVED: -32004, // rpc_error::kPageMoved
});
