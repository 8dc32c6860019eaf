// The one definition of every tool tabbridge itself serves: name, schema,
// annotations. The shim serves connect_browser; the host serves the rest.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/jsonrpc.h"
#include "common/policy.h"

namespace tb::tools {

inline constexpr std::string_view kConnectBrowser = "connect_browser";
inline constexpr std::string_view kListTabs = "list_tabs";
inline constexpr std::string_view kOpenTab = "open_tab";
inline constexpr std::string_view kFocusTab = "focus_tab";
inline constexpr std::string_view kCloseTab = "close_tab";
// The focused tab's own tools (WebMCP, forms) for clients that miss list_changed.
inline constexpr std::string_view kListWebMcpTools = "list_webmcp_tools";
inline constexpr std::string_view kCallWebMcpTool = "call_webmcp_tool";
// The hand-off: the person does what only they can (docs/policy.md "Asking the person").
inline constexpr std::string_view kAskPerson = "ask_person";
// Several page tools in one call, in order (host/run_steps.cpp).
inline constexpr std::string_view kRunSteps = "run_steps";

// Capabilities a session turns on with `tabbridge --caps …`: the less common
// page tools, kept out of the default list because every byte of tools/list
// costs the model context on every turn.
inline constexpr std::string_view kCapEval = "eval";          // evaluate
inline constexpr std::string_view kCapDownload = "download";  // download_file
inline constexpr std::string_view kCapHtml = "html";          // read_page {mode: "html"}
inline constexpr std::string_view kCapEmulate = "emulate";    // emulate
inline constexpr std::string_view kCapDrag = "drag";          // drag
inline constexpr std::string_view kCapUpload = "upload";      // upload_file: reads the user's files
inline constexpr std::string_view kCapNetwork = "network";    // network_requests, network_request
inline constexpr std::string_view kAllCaps[] = {kCapEval, kCapDownload, kCapHtml,   kCapEmulate,
                                                kCapDrag, kCapUpload,   kCapNetwork};

// The page tool whose call the shim completes with the files' bytes (kUploadFilesMeta).
inline constexpr std::string_view kUploadFile = "upload_file";

// What the host and the extension both need of a page tool beyond its
// schema: the capability the policy checks and how long a call may take.
// extension/worker/tool_catalog.js is generated from this (ExtensionCatalogJs) and a
// test fails when the two differ.
struct PageToolSpec {
  std::string_view name;
  policy::Cap cap;
  std::uint64_t deadline_ms;            // the whole call, the extension's answer included
  std::int64_t default_timeout_ms = 0;  // tools with a timeoutMs argument: its default;
                                        // their deadline is timeoutMs + kPageDeadlineMarginMs
  std::string_view unpinned = {};       // why it is not pinned to the checked document (empty: it is)
};
// Why a call of a page's own tool is not pinned to the checked document.
inline constexpr std::string_view kOwnToolUnpinned =
    "runs the page's own tool, which may act and move the page: its inputs go through the input broker, and what "
    "it answers carries the provenance of the document that answered, judged by the host";
const std::vector<PageToolSpec>& PageToolSpecs();
// The deadline of a call of page tool `name` with `args` (timeoutMs counted in).
std::uint64_t PageToolDeadline(std::string_view name, const Json& args);
// extension/worker/tool_catalog.js as it must read: every page tool's name,
// capability, deadline and argument defaults (`tabbridge tools --js`).
std::string ExtensionCatalogJs();

// What the host's policy decides a call on: every tool declares it here, in
// its catalog entry, and the call gate (host/call_gate.cpp) reads nothing
// else — it names no tool. A tool that declares nothing cannot run (the gate
// refuses it, and tests/unit/tool_catalog_test.cpp fails first).
struct PolicyTargets {
  bool focused_tab = false;          // the URL of the session's focused tab
  std::string_view tab_arg = {};     // the tab this argument names, else the focused one (close_tab: tabId)
  std::string_view url_arg = {};     // where this argument goes, resolved against the tab's URL (open_tab: url)
  bool frames = false;               // each frame of another site it acts in: the extension asks (policy.decide, act)
  bool reached_urls = false;         // URLs it reaches while it runs (a redirect, a request): the extension asks
  std::string_view untargeted = {};  // touches no page: why. The only way to declare no target
  // A schema property that looks like a URL (url, href, format uri) but is not
  // where the call goes: why. A test fails when such a property is neither.
  std::string_view url_arg_not_target = {};

  bool Declared() const { return focused_tab || !tab_arg.empty() || !url_arg.empty() || !untargeted.empty(); }
};

// What the audit line of a call may say besides its outcome (docs/audit.md).
struct AuditFields {
  // An error's words only where they can quote nothing of the call or the
  // page: the others may hold evaluated code and the values it met
  // (evaluate), selectors and page text (click…), what was typed (type…) —
  // docs/audit.md "What is never logged". Opt-in: a new tool logs none.
  bool error_text = false;
  std::string_view own_tool_arg = {};  // the argument naming the page's own tool it runs (call_webmcp_tool: name)
  // The argument listing the local files it sends (upload_file: paths): the
  // shim sends their bytes with the call (kUploadFilesMeta), the call gate
  // checks them, and the audit line names the files.
  std::string_view files_arg = {};
};

// A tool's policy declaration: the capability it needs on its targets
// (nullopt: it touches no page), the targets, the audit line's fields.
struct ToolPolicy {
  std::optional<policy::Cap> cap = std::nullopt;
  PolicyTargets targets = {};
  AuditFields audit = {};
};
// The declaration of tabbridge's tool `name`, or nullptr when there is no such tool.
const ToolPolicy* PolicyOf(std::string_view name);
// The page's own tools (WebMCP, forms, result lists, buttons): act on the focused tab's page.
const ToolPolicy& OwnToolPolicy();

// The policy capability a tool of tabbridge's needs on the tab's page
// (docs/policy.md), or nullopt for the tools that touch no page
// (connect_browser, list_tabs, focus_tab, ask_person). The page's own tools are kAct.
std::optional<policy::Cap> CapabilityOf(std::string_view name);

// The MCP tool object for `name`, or nullptr when tabbridge has no such tool.
// Page tools are found whatever the capabilities.
const Json* Find(std::string_view name);

// `tool` (one of tabbridge's) as tools/list gives it: its arguments, at every
// depth, without bounds, defaults and closed objects ("minimum", "maximum",
// "minItems", "maxItems", "default", "additionalProperties": false), which the check (against the
// catalog's own schema) enforces and its error names — the model rarely needs
// them, and the list is paid for whenever it changes.
Json Listed(Json tool);

// `tool` pinned for a client that defers tools (Claude Code loads its schema
// from the first request on, without a search).
Json Pinned(Json tool);

// How a session's tools/list follows the browser (tabbridge --surface;
// docs/clients.md says which client gets which, and the measurements why):
//   kState           the seeds' state table: connect_browser, then the tab
//                    tools, then the focused tab's page tools
//   kStatePinned     the same, tabbridge's state tools pinned
//   kStable          tabbridge's tools always listed, pinned: the state tools
//                    and the generic page tools (a call without a browser or
//                    a focused tab says which call comes first); only the
//                    page's own tools follow the page
//   kStableDeferred  the same, not pinned
//   kDispatch        stable, and the page's own tools never listed: the
//                    answer of the call after which they changed says them,
//                    and call_webmcp_tool (listed) runs them; the list never
//                    changes. Only the common tools are pinned
enum class Surface { kState, kStatePinned, kStable, kStableDeferred, kDispatch };
std::optional<Surface> ParseSurface(std::string_view name);
std::string_view SurfaceName(Surface surface);
bool IsStable(Surface surface);
// Whether tabbridge's state tools (connect_browser ... close_tab) are pinned.
bool PinsStateTools(Surface surface);
// A stable surface's tools (the same whatever the state) for a session with `caps`, as listed.
Json StableTools(const std::vector<std::string>& caps, Surface surface);

// The focused tab's generic page tools for a session with `caps`.
Json PageTools(const std::vector<std::string>& caps);
bool IsPageTool(std::string_view name);
// The capability page tool `name` needs, or "" when every session has it.
std::string_view RequiredCap(std::string_view name);
// A session's variant of page tool `name` (caps widen some schemas), or
// nullopt when its caps do not offer the tool.
std::optional<Json> PageTool(std::string_view name, const std::vector<std::string>& caps);

// Checks `args` against the tool's inputSchema (the subset of JSON Schema our
// schemas use). The message names the argument and what was wrong with it.
// An argument the schema does not name is refused (kRefuse: tabbridge's own
// tools, whose listed schemas leave "additionalProperties": false out), or
// judged by the schema itself (kPerSchema: the page's own tools).
enum class Extra { kRefuse, kPerSchema };
std::expected<void, std::string> CheckArguments(const Json& tool, const Json& args, Extra extra = Extra::kRefuse);

// A tool result: the JSON as structuredContent and as text (for clients that
// read only content), flagged as an error when `is_error`.
Json Result(Json structured, bool is_error = false);
// Adds `value` under `key` to `result`'s structuredContent and to the JSON
// copy of it among the content blocks; where there is no such copy (or no
// structuredContent), `text` goes in a content block of its own as well.
// Claude Code shows its model a result's structuredContent alone when a
// content block is its copy, the content blocks otherwise.
void AddToResult(Json& result, std::string_view key, Json value, std::string text);
// A tool error with only a message; the message says what to do next.
Json ErrorResult(std::string_view message);
// What a call that lost the browser on its way says (the shim when the host
// went, the host when the extension did).
inline constexpr std::string_view kBrowserConnectionLost =
    "the browser connection was lost — call connect_browser, then retry";
// Whether `json` has the shape of an MCP CallToolResult (a content array).
bool IsResult(const Json& json);
// The names of every tool tabbridge itself serves (page tools of every caps
// included): what the page's own tools must never be called.
const std::vector<std::string>& ReservedNames();

}  // namespace tb::tools
