// The one C++ definition of tabbridge's wire names and limits.
// docs/protocol.md explains them; extension/worker/protocol.js mirrors the
// extension-facing half. Change all three together.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tb {

inline constexpr std::string_view kVersion = "0.1.0";

// Bumped whenever a message changes shape; peers with another number refuse.
inline constexpr int kExtensionProtocol = 2;
inline constexpr int kShimProtocol = 2;

// Native-messaging host name (lowercase, dots: Chrome's rule) and the ID that
// the `key` in extension/manifest.json gives our unpacked extension.
inline constexpr std::string_view kNativeHostName = "com.tabbridge.host";
inline constexpr std::string_view kExtensionId = "adpkeaffmapkegingficmdcbffgoapmk";

// --- the agent's pages -----------------------------------------------------
// The one rule for which URLs are the agent's: tabs on them are listed and
// focusable, open_tab and navigate go only there (about:blank, data:,
// chrome:// and the like stay the user's). extension/worker/protocol.js has the
// same list (AGENT_URL_SCHEMES); extension/worker/wire.js is generated from it (codegen/generate.mjs).
inline constexpr std::string_view kAgentUrlSchemes[] = {"http", "https", "file"};
constexpr bool IsAgentUrl(std::string_view url) {
  for (const std::string_view scheme : kAgentUrlSchemes) {
    if (url.size() > scheme.size() && url.substr(0, scheme.size()) == scheme && url[scheme.size()] == ':') return true;
  }
  return false;
}
static_assert(IsAgentUrl("https://x.test/") && IsAgentUrl("file:///tmp/a") && !IsAgentUrl("about:blank"));

// --- framing limits -------------------------------------------------------
// Chrome closes the port when a host sends a larger message.
inline constexpr std::size_t kMaxFrameToExtension = 1024 * 1024;
// Screenshots arrive this way; anything larger is a misbehaving extension.
inline constexpr std::size_t kMaxFrameFromExtension = 64 * 1024 * 1024;
// Raw JSON bytes per chunk: JSON-escaping at most doubles them, plus the envelope.
inline constexpr std::size_t kChunkDataBytes = 384 * 1024;
// One line on the shim socket or MCP stdio; big enough for a forwarded screenshot.
inline constexpr std::size_t kMaxLineBytes = 64 * 1024 * 1024;

// Tool results beyond this are not sent to a model: the extension caps images
// and text far below it, so only a bug (or a hostile page) gets here.
inline constexpr std::size_t kMaxToolResultBytes = 16 * 1024 * 1024;

// upload_file: the shim reads the files (they are the agent's machine's, which
// is not the browser's when the socket is forwarded) and sends their bytes;
// base64 and the native-messaging chunks make 16 MiB about 22 MiB on each hop.
inline constexpr std::size_t kMaxUploadBytes = 16 * 1024 * 1024;  // all files of one call
inline constexpr std::size_t kMaxUploadFiles = 32;
// Where in tools/call's _meta the shim puts them (MCP reserves _meta for such additions).
inline constexpr std::string_view kUploadFilesMeta = "tabbridge.dev/files";

// --- deadlines --------------------------------------------------------------
// Every request to the extension ends by then; tab operations take milliseconds.
inline constexpr std::uint64_t kDefaultExtensionDeadlineMs = 10'000;
// open_tab answers once the new tab's page is parsed (DOMContentLoaded), or
// after this with loading: true — within the request's own deadline, with
// room for the answer (the host asks for less when that deadline is shorter).
inline constexpr std::uint64_t kOpenTabLoadWaitMs = 8'000;
static_assert(kOpenTabLoadWaitMs + 2'000 <= kDefaultExtensionDeadlineMs);
// Page tools (snapshot of a huge page, a slow click) end by then; navigate and
// wait_for get their own timeout plus kPageDeadlineMarginMs.
inline constexpr std::uint64_t kPageToolDeadlineMs = 30'000;
inline constexpr std::uint64_t kPageDeadlineMarginMs = 5'000;
// download_file answers once the file is complete (the extension gives up at 115 s).
inline constexpr std::uint64_t kDownloadDeadlineMs = 120'000;
// A forwarded tool call answers by then even if the host never does.
inline constexpr std::uint64_t kDefaultHostDeadlineMs = 150'000;  // > the longest page tool timeout
// How long connect_browser waits for a host to appear (browser restarting).
inline constexpr std::uint64_t kConnectWaitMs = 3'000;
// How long connect_browser {launch: true} waits for the launched browser: its
// DevTools pipe answer (pipe mode) and then its host, all within this.
inline constexpr std::uint64_t kLaunchWaitMs = 30'000;
// The host sends each page request's whole budget as params.deadlineMs; the
// extension answers this long before it runs out (the answer still has to travel).
inline constexpr std::uint64_t kExtensionAnswerMarginMs = 1'000;
// Inside the extension: one CDP command and one page script give up by then,
// so a tool that waits on one still answers within its own budget.
inline constexpr std::uint64_t kCdpCommandTimeoutMs = 20'000;
inline constexpr std::uint64_t kPageScriptTimeoutMs = 10'000;
// Budgets nest: each layer gives up before its caller does.
static_assert(kCdpCommandTimeoutMs + kExtensionAnswerMarginMs < kPageToolDeadlineMs);
static_assert(kPageScriptTimeoutMs < kCdpCommandTimeoutMs);
static_assert(kPageDeadlineMarginMs > kExtensionAnswerMarginMs);
static_assert(120'000 + kPageDeadlineMarginMs < kDefaultHostDeadlineMs);  // navigate/wait_for timeoutMs ≤ 120 s
static_assert(kDownloadDeadlineMs < kDefaultHostDeadlineMs && kPageToolDeadlineMs < kDefaultHostDeadlineMs);

// --- the page's own tools (WebMCP, forms) -------------------------------------
// The extension reports at most this many tools a document (owntools.changed `total`
// says how many there are): a page registering thousands must not flood the host.
inline constexpr std::size_t kMaxReportedOwnTools = 256;
// Introspected form tools a page: forms beyond are left to fill_form.
inline constexpr std::size_t kMaxFormTools = 8;
// Introspected result-list tools a page (select_…): further lists are left to click.
inline constexpr std::size_t kMaxResultListTools = 3;
// Button tools (press_…) a page: the extension reports at most this many
// (buttons_isolated.js) and the host lists at most as many.
inline constexpr std::size_t kMaxButtonTools = 6;
// What the page scripts keep of a tool a page registers: longer names and
// descriptions are cut, larger schemas dropped (the page wrote them).
inline constexpr std::size_t kMaxOwnToolNameChars = 128;
inline constexpr std::size_t kMaxOwnToolDescriptionChars = 1024;
inline constexpr std::size_t kMaxOwnToolSchemaBytes = 8 * 1024;
// What a page's own tool answered and its error message, as they reach the model.
inline constexpr std::size_t kMaxOwnToolResultChars = 64 * 1024;
inline constexpr std::size_t kMaxOwnToolErrorChars = 4 * 1024;
// A page changing its tools is reported once it has been quiet this long.
inline constexpr std::uint64_t kOwnToolsDebounceMs = 150;
// What tools/list carries of one tab's own tools: a page that registers 200
// tools must not flood the model's context; list_webmcp_tools shows them all.
inline constexpr std::size_t kMaxListedOwnTools = 24;
inline constexpr std::size_t kMaxListedOwnToolBytes = 12 * 1024;
// A page-written description in tools/list is cut here (list_webmcp_tools: 1024).
inline constexpr std::size_t kMaxListedDescriptionChars = 300;
// A page's own tool whose schema is larger stays out of tools/list (call_webmcp_tool still runs it).
inline constexpr std::size_t kMaxListedSchemaBytes = 4 * 1024;
// Claude's API refuses tool names over 64 characters including the client's
// "mcp__tabbridge__" prefix (16), so the names we give stay within 48.
inline constexpr std::size_t kMaxToolNameChars = 48;
// After a navigation a tab's own tools are re-read; the sessions focused on it
// hear of the change once the new page reported (or this long after the
// commit), so a page that brings the same tools back changes nothing.
inline constexpr std::uint64_t kNavigationSettleMs = 3'000;
// A page's own tool's execute() ends by then (the extension gives up first: deadlineMs).
inline constexpr std::uint64_t kOwnToolCallDeadlineMs = 30'000;

// --- the debugger bar -----------------------------------------------------------
// A focused tab keeps chrome.debugger attached this long after its last page
// tool call, then the extension detaches (and the browser's "started debugging
// this browser" bar goes); the next call attaches again. The host sends it in
// `tabs.focused` (TABBRIDGE_DEBUGGER_IDLE_MS overrides it, for tests).
inline constexpr std::uint64_t kDebuggerIdleMs = 15'000;
// How long a browser a shim launched stays open without any session
// (TABBRIDGE_LAUNCHED_IDLE_MS; 0: until it is closed by hand; host/idle_browser.h).
inline constexpr std::uint64_t kLaunchedIdleMs = 600'000;

// Tab events from the browser (created, updated, removed) reach the sessions
// as list_changed this long after the first of them: a burst — the browser
// quitting closes every tab and then our port — is one notification, not one
// per state it passes through. A session's own calls are told at once.
inline constexpr std::uint64_t kTabEventCoalesceMs = 100;

// --- liveness ------------------------------------------------------------------
// The host pings the extension this often (TABBRIDGE_HEARTBEAT_MS overrides it,
// for tests); each ping must be answered within the same time, and this many
// misses in a row end the link as lost (the browser then starts a new host).
inline constexpr std::uint64_t kHeartbeatIntervalMs = 15'000;
inline constexpr int kHeartbeatMissesAllowed = 2;

// --- JSON-RPC error codes -----------------------------------------------------
namespace rpc_error {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
// Extension -> host application errors (docs/protocol.md §1).
inline constexpr int kBrowserError = -32000;
inline constexpr int kTabNotFound = -32001;
inline constexpr int kInvalidArgument = -32002;
// owntool.call named a document the tab no longer shows (the page changed).
inline constexpr int kDocumentChanged = -32003;
// A page request's params.policyUrl names another site than the tab is on now:
// the page moved after the host checked the policy, so nothing was done.
inline constexpr int kPageMoved = -32004;
// Raised locally when a peer does not answer or goes away.
inline constexpr int kTimeout = -32010;
inline constexpr int kPeerGone = -32011;
inline constexpr int kCancelled = -32012;
}  // namespace rpc_error

// --- MCP ----------------------------------------------------------------------
namespace mcp {
inline constexpr std::string_view kInitialize = "initialize";
inline constexpr std::string_view kInitialized = "notifications/initialized";
inline constexpr std::string_view kPing = "ping";
inline constexpr std::string_view kToolsList = "tools/list";
inline constexpr std::string_view kToolsCall = "tools/call";
inline constexpr std::string_view kSetLevel = "logging/setLevel";
inline constexpr std::string_view kCancelled = "notifications/cancelled";
inline constexpr std::string_view kProgress = "notifications/progress";
inline constexpr std::string_view kMessage = "notifications/message";
inline constexpr std::string_view kToolsListChanged = "notifications/tools/list_changed";
// 2026-07-28 (docs/protocol.md "MCP revisions"): no handshake; every request
// names its revision in _meta, list changes go to subscriptions/listen streams.
inline constexpr std::string_view kDiscover = "server/discover";
inline constexpr std::string_view kListen = "subscriptions/listen";
inline constexpr std::string_view kSubscriptionsAcknowledged = "notifications/subscriptions/acknowledged";
inline constexpr std::string_view kMetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view kMetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view kMetaClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view kMetaLogLevel = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view kMetaServerInfo = "io.modelcontextprotocol/serverInfo";
inline constexpr std::string_view kMetaSubscriptionId = "io.modelcontextprotocol/subscriptionId";
// Claude Code's tool _meta (docs/clients.md "Claude Code"): it defers every
// MCP tool (the model sees names only, and loads a schema with its ToolSearch)
// unless the tool is pinned; a search hint is matched by that search.
inline constexpr std::string_view kMetaAlwaysLoad = "anthropic/alwaysLoad";
inline constexpr std::string_view kMetaSearchHint = "anthropic/searchHint";
// A request naming a revision we do not speak (data: supported, requested).
inline constexpr int kUnsupportedProtocolVersion = -32022;

// Every revision spoken, newest first (tabbridge --version, doctor, server/discover).
inline constexpr std::string_view kProtocolVersions[] = {"2026-07-28", "2025-11-25", "2025-06-18"};
// Those served per request (_meta); the others are chosen by initialize.
inline constexpr std::string_view kStatelessVersions[] = {"2026-07-28"};
// Newest first: initialize answers an unknown requested revision with the first.
inline constexpr std::string_view kInitializeVersions[] = {"2025-11-25", "2025-06-18"};

// "2026-07-28, 2025-11-25, 2025-06-18": what --version and doctor print.
inline std::string ProtocolVersionList() {
  std::string out;
  for (const std::string_view version : kProtocolVersions) out.append(out.empty() ? "" : ", ").append(version);
  return out;
}
}  // namespace mcp

// --- shim <-> host --------------------------------------------------------------
namespace shim_method {
inline constexpr std::string_view kHello = "tabbridge/hello";
// host -> shim notification, to a session whose hello asked (tellTabs): the
// tabs it opened or focused that are still open, with their URLs, and its
// focus — what the shim reopens if the browser dies (docs/protocol.md §2).
inline constexpr std::string_view kSessionTabs = "tabbridge/tabs";
// host -> shim notification, to such a session, right before the host closes
// it because the user said so (the popup's Disconnect): not a loss to recover.
inline constexpr std::string_view kUserDisconnected = "tabbridge/userDisconnected";
// shim -> host request: what the person answered through the MCP client's
// elicitation to a question the host could not show in the browser
// ({site, access, choice: once|always|deny} -> {granted, rule?}).
inline constexpr std::string_view kGrant = "tabbridge/grant";
}  // namespace shim_method
// The most of the client's clientInfo name (and version) the host keeps, cleaned
// (page_text::Name): what the person sees of it on the surface and in tab groups.
inline constexpr std::size_t kMaxClientNameBytes = 48;
// tabbridge/hello's params (docs/protocol.md §2 "Handshake").
namespace hello_param {
inline constexpr std::string_view kProtocol = "protocol";
inline constexpr std::string_view kClient = "client";      // MCP clientInfo
inline constexpr std::string_view kCaps = "caps";          // tabbridge --caps
inline constexpr std::string_view kOwnTools = "ownTools";  // false: --disable-webmcp-auto-register
inline constexpr std::string_view kReadOnly = "readOnly";  // true: --read-only
inline constexpr std::string_view kSurface = "surface";    // tools::SurfaceName: how tools/list follows the state
// The pid of the headless browser this shim launched: that browser's launch
// tab (about:blank) takes the first page open_tab opens, or is closed once an
// agent tab is open elsewhere (docs/protocol.md).
inline constexpr std::string_view kLaunchedHeadlessPid = "launchedHeadlessPid";
// The pid of any browser this shim launched (headless or not).
inline constexpr std::string_view kLaunchedPid = "launchedPid";
// With kLaunchedPid: close that browser once no session has been connected for
// this long (0: keep it; host/idle_browser.h). TABBRIDGE_LAUNCHED_IDLE_MS.
inline constexpr std::string_view kLaunchedIdleMs = "launchedIdleMs";
// With kLaunchedPid: true when that browser was started with
// --silent-debugger-extension-api (not under TABBRIDGE_DEBUGGER_BAR=show).
inline constexpr std::string_view kLaunchedNoDebuggerBar = "launchedNoDebuggerBar";
// true: send this session tabbridge/tabs whenever its tabs or focus change.
inline constexpr std::string_view kTellTabs = "tellTabs";
}  // namespace hello_param

// --- host <-> extension -------------------------------------------------------
namespace ext_method {
// requests, host -> extension
inline constexpr std::string_view kPing = "ping";
inline constexpr std::string_view kTabsCreate = "tabs.create";
inline constexpr std::string_view kTabsClose = "tabs.close";
// {tabId}: the tab to the front of its window, the window focused (focus_tab show)
inline constexpr std::string_view kTabsShow = "tabs.show";
// page tools: "page." + the tool's name (docs/protocol.md "Page tools")
inline constexpr std::string_view kPagePrefix = "page.";
// one of the page's own tools (WebMCP, forms): docs/protocol.md "The page's own tools"
inline constexpr std::string_view kOwnToolCall = "owntool.call";
// params of page requests: the tab URL the host's policy check approved
// (docs/policy.md); the extension acts only while the tab is still on its site.
inline constexpr std::string_view kPolicyUrlParam = "policyUrl";
// result _meta key: the URL a call's action navigated the tab's top frame to,
// which the host checks against the policy before the model sees the result.
inline constexpr std::string_view kNavigatedToMeta = "tabbridge/navigatedTo";
// result _meta key: where a call really went when the page or a server chose
// it ({link?, url}: a link the call resolved, the final URL after redirects),
// for the audit line; the host removes it before the model sees the result.
inline constexpr std::string_view kWentToMeta = "tabbridge/wentTo";
// _meta key on each content block of a page or own tool's result, and on the
// result (for structuredContent): [{documentId, url}, ...], the documents whose
// text it may hold, taken by the script or CDP answer that read it ([]: no
// page text). The host decides `read` on every URL and removes the key
// (host/read_provenance.h); a block without it is dropped.
inline constexpr std::string_view kReadMeta = "tabbridge/read";
// notifications, host -> extension
inline constexpr std::string_view kChunk = "chunk";
inline constexpr std::string_view kCancel = "cancel";
// the tabs some session is focused on, and kDebuggerIdleMs (docs/protocol.md)
inline constexpr std::string_view kTabsFocused = "tabs.focused";
// the host's sessions, version and policy, for the popup and the badge (docs/protocol.md "The popup")
inline constexpr std::string_view kHostState = "host.state";
// host.state's field: whether some session has the network capability; the
// extension keeps its request log (and the debugger's Network domain) only then
inline constexpr std::string_view kHostStateNetworkLog = "networkLog";
// a question for the person on the extension's surface, and its end when not
// by their click (docs/protocol.md "Asking the person"):
// {askId, kind: grant|handoff, client, tabId, timeoutMs, site?, access?, message?} / {askId}
inline constexpr std::string_view kPersonAsk = "person.ask";
inline constexpr std::string_view kPersonClose = "person.close";
// {sessionId, title, color}: the session's tab group says it ended (docs/protocol.md)
inline constexpr std::string_view kSessionEnded = "session.ended";
// {}: this browser shows no "started debugging" bar (a shim launched it with
// --silent-debugger-extension-api): the first pointer action after an attach
// does not wait for the viewport to shrink (worker/debugger_bar.js)
inline constexpr std::string_view kNoDebuggerBar = "debugger.noBar";
}  // namespace ext_method

// Requests, extension -> host: what the popup asks and the buttons it has
// (docs/protocol.md "The popup"). The host answers each at once.
namespace ext_request {
inline constexpr std::string_view kPolicyCheck = "policy.check";              // {url}
inline constexpr std::string_view kDetachTab = "tab.detach";                  // {tabId}
inline constexpr std::string_view kDisconnectSession = "session.disconnect";  // {sessionId}
// A page call in flight reaches a URL the host did not check (a download
// redirected to another site): may that call's session do `capability` there?
// {call: the host's request id, url, capability} -> {allowed, result?: the denial}
inline constexpr std::string_view kPolicyDecide = "policy.decide";
// The person's click on the surface: {askId, choice: once|always|deny|done|cannot}
inline constexpr std::string_view kPersonAnswer = "person.answer";
// The popup's Revoke: {site, scope: session|always, sessionId?} -> {revoked}
inline constexpr std::string_view kGrantRevoke = "grant.revoke";
}  // namespace ext_request

// How long a call waits for the person to answer a site question: under the
// MCP SDK clients' default request timeout (60 s), so the model hears why.
inline constexpr std::uint64_t kGrantAskTimeoutMs = 50'000;
// ask_person's wait: its default, and the most a call may ask for (under the
// shim's deadline for a host call, kDefaultHostDeadlineMs).
inline constexpr std::uint64_t kAskPersonDefaultSeconds = 50;
inline constexpr std::uint64_t kAskPersonMaxSeconds = 140;
inline constexpr std::size_t kMaxAskPersonMessageChars = 500;
// run_steps: the most page-tool calls one call runs.
inline constexpr std::size_t kMaxRunSteps = 20;

// host.state goes out at most once per this: a session calling tools in a
// tight loop changes its last tool every few ms and must not flood the port.
inline constexpr std::uint64_t kHostStateCoalesceMs = 250;
// A page's own tools change a session's list at most once per this per tab
// (the first change at once, the last one at the end of the interval): a page
// re-registering a tool every 200 ms must not flood the model with list_changed.
inline constexpr std::uint64_t kOwnToolsChangeIntervalMs = 1000;

// A tools/call answer that follows a list_changed waits, at most this long,
// until the client fetched tools/list again (mcp_shim/list_catch_up.h): Claude
// Code re-fetches 4-571 ms after the notification and builds the model's next
// request from the list it has when the answer comes.
inline constexpr std::uint64_t kListCatchUpMs = 1'500;
// Clients known to fetch tools/list again on every list_changed (clientInfo
// name), waited for from their first change on; any other client is waited
// for once it has shown it re-fetches by itself.
inline constexpr std::string_view kRefetchingClients[] = {"claude-code"};
// Clients known to defer MCP tools (the model sees names, and searches for a
// schema before a call): they get the dispatch surface by default (docs/clients.md).
inline constexpr std::string_view kToolDeferringClients[] = {"claude-code"};

namespace ext_event {
inline constexpr std::string_view kHello = "hello";
inline constexpr std::string_view kTabCreated = "tab.created";
inline constexpr std::string_view kTabUpdated = "tab.updated";
inline constexpr std::string_view kTabRemoved = "tab.removed";
inline constexpr std::string_view kPageProgress = "page.progress";
inline constexpr std::string_view kConsoleEntry = "console.entry";
inline constexpr std::string_view kOwnTools = "owntools.changed";
inline constexpr std::string_view kDebuggerDetached = "debugger.detached";
}  // namespace ext_event

}  // namespace tb
