#include "common/wire_js.h"

#include <string_view>
#include <utility>
#include <vector>

#include "common/protocol.h"

namespace tb {
namespace {

// One exported constant: its JS name, its value, the C++ name it comes from.
struct Entry {
  std::string_view js;
  Json value;
  std::string_view cpp;
};

// An exported frozen object of entries, or (name "") top-level constants.
struct Group {
  std::string_view name;
  std::string_view comment;
  std::vector<Entry> entries;
};

Json Str(std::string_view s) { return std::string(s); }

std::vector<Group> Groups() {
  Json schemes = Json::array();
  for (auto scheme : kAgentUrlSchemes) schemes.push_back(std::string(scheme) + ":");
  return {
      {"",
       "",
       {
           {"PROTOCOL_VERSION", kExtensionProtocol, "kExtensionProtocol"},
           {"AGENT_URL_SCHEMES", schemes, "kAgentUrlSchemes"},
           {"NATIVE_HOST_NAME", Str(kNativeHostName), "kNativeHostName"},
           {"MAX_FRAME_TO_EXTENSION", kMaxFrameToExtension, "kMaxFrameToExtension"},
           {"PAGE_PREFIX", Str(ext_method::kPagePrefix), "ext_method::kPagePrefix"},
           {"HOST_STATE_COALESCE_MS", kHostStateCoalesceMs, "kHostStateCoalesceMs"},
           {"DEBUGGER_IDLE_MS", kDebuggerIdleMs, "kDebuggerIdleMs"},
           {"POLICY_URL_PARAM", Str(ext_method::kPolicyUrlParam), "ext_method::kPolicyUrlParam"},
           {"NAVIGATED_TO_META", Str(ext_method::kNavigatedToMeta), "ext_method::kNavigatedToMeta"},
           {"WENT_TO_META", Str(ext_method::kWentToMeta), "ext_method::kWentToMeta"},
           {"READ_META", Str(ext_method::kReadMeta), "ext_method::kReadMeta"},
       }},
      {"Deadlines",
       "The host sends each request's whole budget as params.deadlineMs; native_port.js\n"
       "// answers ANSWER_MARGIN_MS before it runs out, and a CDP command or page\n"
       "// script inside gives up sooner still.",
       {
           {"PAGE_TOOL_MS", kPageToolDeadlineMs, "kPageToolDeadlineMs"},
           {"PAGE_MARGIN_MS", kPageDeadlineMarginMs, "kPageDeadlineMarginMs"},
           {"DOWNLOAD_MS", kDownloadDeadlineMs, "kDownloadDeadlineMs"},
           {"OWN_TOOL_CALL_MS", kOwnToolCallDeadlineMs, "kOwnToolCallDeadlineMs"},
           {"ANSWER_MARGIN_MS", kExtensionAnswerMarginMs, "kExtensionAnswerMarginMs"},
           {"CDP_COMMAND_MS", kCdpCommandTimeoutMs, "kCdpCommandTimeoutMs"},
           {"PAGE_SCRIPT_MS", kPageScriptTimeoutMs, "kPageScriptTimeoutMs"},
       }},
      {"Method",
       "Requests (host -> extension); page tools arrive as PAGE_PREFIX + the tool's name.",
       {
           {"PING", Str(ext_method::kPing), "ext_method::kPing"},
           {"TABS_CREATE", Str(ext_method::kTabsCreate), "ext_method::kTabsCreate"},
           {"TABS_CLOSE", Str(ext_method::kTabsClose), "ext_method::kTabsClose"},
           {"TABS_SHOW", Str(ext_method::kTabsShow), "ext_method::kTabsShow"},
           {"OWN_TOOL_CALL", Str(ext_method::kOwnToolCall), "ext_method::kOwnToolCall"},
       }},
      {"Notification",
       "Notifications (host -> extension).",
       {
           {"CHUNK", Str(ext_method::kChunk), "ext_method::kChunk"},
           {"CANCEL", Str(ext_method::kCancel), "ext_method::kCancel"},
           {"TABS_FOCUSED", Str(ext_method::kTabsFocused), "ext_method::kTabsFocused"},
           {"HOST_STATE", Str(ext_method::kHostState), "ext_method::kHostState"},
           {"HOST_STATE_NETWORK_LOG", Str(ext_method::kHostStateNetworkLog), "ext_method::kHostStateNetworkLog"},
           {"PERSON_ASK", Str(ext_method::kPersonAsk), "ext_method::kPersonAsk"},
           {"PERSON_CLOSE", Str(ext_method::kPersonClose), "ext_method::kPersonClose"},
           {"SESSION_ENDED", Str(ext_method::kSessionEnded), "ext_method::kSessionEnded"},
           {"NO_DEBUGGER_BAR", Str(ext_method::kNoDebuggerBar), "ext_method::kNoDebuggerBar"},
       }},
      {"HostRequest",
       "Requests (extension -> host): the popup's questions and buttons, and policy.decide.",
       {
           {"POLICY_CHECK", Str(ext_request::kPolicyCheck), "ext_request::kPolicyCheck"},
           {"DETACH_TAB", Str(ext_request::kDetachTab), "ext_request::kDetachTab"},
           {"DISCONNECT_SESSION", Str(ext_request::kDisconnectSession), "ext_request::kDisconnectSession"},
           {"POLICY_DECIDE", Str(ext_request::kPolicyDecide), "ext_request::kPolicyDecide"},
           {"PERSON_ANSWER", Str(ext_request::kPersonAnswer), "ext_request::kPersonAnswer"},
           {"GRANT_REVOKE", Str(ext_request::kGrantRevoke), "ext_request::kGrantRevoke"},
       }},
      {"Event",
       "Events (extension -> host).",
       {
           {"HELLO", Str(ext_event::kHello), "ext_event::kHello"},
           {"TAB_CREATED", Str(ext_event::kTabCreated), "ext_event::kTabCreated"},
           {"TAB_UPDATED", Str(ext_event::kTabUpdated), "ext_event::kTabUpdated"},
           {"TAB_REMOVED", Str(ext_event::kTabRemoved), "ext_event::kTabRemoved"},
           {"PAGE_PROGRESS", Str(ext_event::kPageProgress), "ext_event::kPageProgress"},
           {"CONSOLE_ENTRY", Str(ext_event::kConsoleEntry), "ext_event::kConsoleEntry"},
           {"OWN_TOOLS", Str(ext_event::kOwnTools), "ext_event::kOwnTools"},
           {"DEBUGGER_DETACHED", Str(ext_event::kDebuggerDetached), "ext_event::kDebuggerDetached"},
       }},
      {"OwnToolLimits",
       "The page's own tools: what the page scripts keep of them.",
       {
           {"MAX_REPORTED_TOOLS", kMaxReportedOwnTools, "kMaxReportedOwnTools"},
           {"MAX_FORM_TOOLS", kMaxFormTools, "kMaxFormTools"},
           {"MAX_RESULT_LISTS", kMaxResultListTools, "kMaxResultListTools"},
           {"MAX_BUTTON_TOOLS", kMaxButtonTools, "kMaxButtonTools"},
           {"MAX_NAME_CHARS", kMaxOwnToolNameChars, "kMaxOwnToolNameChars"},
           {"MAX_DESCRIPTION_CHARS", kMaxOwnToolDescriptionChars, "kMaxOwnToolDescriptionChars"},
           {"MAX_SCHEMA_BYTES", kMaxOwnToolSchemaBytes, "kMaxOwnToolSchemaBytes"},
           {"MAX_RESULT_TEXT_CHARS", kMaxOwnToolResultChars, "kMaxOwnToolResultChars"},
           {"MAX_ERROR_CHARS", kMaxOwnToolErrorChars, "kMaxOwnToolErrorChars"},
           {"DEBOUNCE_MS", kOwnToolsDebounceMs, "kOwnToolsDebounceMs"},
       }},
      {"ErrorCode",
       "JSON-RPC error codes the extension answers with.",
       {
           {"METHOD_NOT_FOUND", rpc_error::kMethodNotFound, "rpc_error::kMethodNotFound"},
           {"BROWSER_ERROR", rpc_error::kBrowserError, "rpc_error::kBrowserError"},
           {"TAB_NOT_FOUND", rpc_error::kTabNotFound, "rpc_error::kTabNotFound"},
           {"INVALID_ARGUMENT", rpc_error::kInvalidArgument, "rpc_error::kInvalidArgument"},
           {"DOCUMENT_CHANGED", rpc_error::kDocumentChanged, "rpc_error::kDocumentChanged"},
           {"PAGE_MOVED", rpc_error::kPageMoved, "rpc_error::kPageMoved"},
       }},
  };
}

std::string Literal(const Json& value) {
  if (value.is_array()) {
    std::string out = "Object.freeze([";
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + Literal(value[i]);
    return out + "])";
  }
  if (value.is_string()) {
    std::string quoted = "'";
    for (char c : value.get<std::string>()) quoted += c == '\'' ? std::string("\\'") : std::string(1, c);
    return quoted + "'";
  }
  return rpc::Dump(value);
}

}  // namespace

std::string WireJs() {
  std::string out =
      "// GENERATED from common/protocol.h by `tabbridge tools --wire-js` (codegen/generate.mjs) — do not edit.\n"
      "// The extension <-> host wire names, limits, deadlines and error codes\n"
      "// (docs/protocol.md); each value names its C++ constant.\n";
  for (const auto& group : Groups()) {
    out += "\n";
    if (!group.comment.empty()) out += "// " + std::string(group.comment) + "\n";
    if (group.name.empty()) {
      for (const auto& e : group.entries) {
        out += "export const " + std::string(e.js) + " = " + Literal(e.value) + "; // " + std::string(e.cpp) + "\n";
      }
      continue;
    }
    out += "export const " + std::string(group.name) + " = Object.freeze({\n";
    for (const auto& e : group.entries) {
      out += "  " + std::string(e.js) + ": " + Literal(e.value) + ", // " + std::string(e.cpp) + "\n";
    }
    out += "});\n";
  }
  return out;
}

Json WireConstants() {
  Json out = Json::object();
  for (const auto& group : Groups()) {
    Json& target = out[std::string(group.name)];
    for (const auto& e : group.entries) target[std::string(e.js)] = e.value;
  }
  return out;
}

}  // namespace tb
