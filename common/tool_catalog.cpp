#include "common/tool_catalog.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>
#include <vector>

#include "common/json_field.h"
#include "common/protocol.h"

namespace tb::tools {
namespace {

// What a client may assume of a tool (MCP annotations). Claude Code runs
// readOnlyHint tools of one turn concurrently. kAdds: changes things, but
// destroys nothing (a new tab, the mouse over an element, a new file):
// destructiveHint false. kActs: MCP's defaults (may destroy, open world), so
// nothing is listed for it.
enum class Hint { kReadOnly, kAdds, kActs };

// The schema as listed has no "additionalProperties": false — CheckArguments
// refuses unknown arguments of our tools all the same (the bytes are paid on
// every turn, the check is ours to make).
Json Tool(std::string_view name, std::string_view description, Json properties, Json required, Hint hint) {
  Json schema = {{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) schema["required"] = std::move(required);
  Json tool = {{"name", name}, {"description", description}, {"inputSchema", std::move(schema)}};
  if (hint == Hint::kReadOnly) tool["annotations"] = {{"readOnlyHint", true}};
  if (hint == Hint::kAdds) tool["annotations"] = {{"destructiveHint", false}};
  return tool;
}

// tabbridge's own tools (not the page tools): the MCP object and the policy
// declaration of each (PolicyTargets: what the call gate decides a call on).
struct HostToolDef {
  Json tool;
  ToolPolicy policy;  // required: an entry without targets cannot run
};

const std::array<HostToolDef, 9>& HostToolDefs() {
  using policy::Cap;
  static const std::array<HostToolDef, 9> defs = {{
      {.tool = Tool(kConnectBrowser,
                    "Connect to the user's browser (Chrome, Chromium, Edge, Brave) running the tabbridge extension.",
                    {{"launch", {{"type", "boolean"}, {"description", "start one if none runs"}}},
                     {"browser", {{"type", "string"}, {"description", "which, when several run: id or name"}}}},
                    Json::array(), Hint::kAdds),
       .policy = {.targets = {.untargeted = "served by the shim: it finds the browser"}}},
      {.tool = Tool(kListTabs, "Open tabs: id, title, URL, focused, the user's active one, tools per page.",
                    Json::object(), Json::array(), Hint::kReadOnly),
       .policy =
           {.targets = {.untargeted =
                            "reads no page; each tab's title and URL are withheld where the policy denies read"}}},
      {.tool = Tool(kOpenTab, "Open a URL in a new tab, focused (unless focus is false) for its page tools.",
                    {{"url", {{"type", "string"}, {"description", "http(s) or file URL"}}},
                     {"focus", {{"type", "boolean"}, {"default", true}}}},
                    {"url"}, Hint::kAdds),
       .policy = {.cap = Cap::kNavigate, .targets = {.url_arg = "url"}, .audit = {.error_text = true}}},
      {.tool = Tool(
           kFocusTab,
           "Focus a tab (id from list_tabs, or \"active\": the user's) to get its page tools; show: bring it to the "
           "front.",
           {{"tabId", {{"anyOf", {{{"type", "integer"}}, {{"type", "string"}, {"enum", {"active"}}}}}}},
            {"show", {{"type", "boolean"}, {"default", false}}}},
           {"tabId"}, Hint::kAdds),
       .policy = {.targets = {.untargeted = "reads no page; every call on the tab is decided as its own"}}},
      {.tool = Tool(kCloseTab, "Close a tab; defaults to the focused one.", {{"tabId", {{"type", "integer"}}}},
                    Json::array(), Hint::kActs),
       .policy = {.cap = Cap::kAct, .targets = {.tab_arg = "tabId"}, .audit = {.error_text = true}}},
      {.tool =
           Tool(kListWebMcpTools, "The focused tab's own tools (WebMCP, forms) with schemas, listed or not.",
                {{"name", {{"type", "string"}, {"description", "Just this tool"}}}}, Json::array(), Hint::kReadOnly),
       .policy = {.cap = Cap::kRead, .targets = {.focused_tab = true}}},
      {.tool = Tool(kCallWebMcpTool, "Call one of the focused tab's own tools by name.",
                    {{"name", {{"type", "string"}}}, {"arguments", {{"type", "object"}}}}, {"name"}, Hint::kActs),
       .policy = {.cap = Cap::kAct, .targets = {.focused_tab = true}, .audit = {.own_tool_arg = "name"}}},
      {.tool = Tool(kAskPerson,
                    "Hand the browser to the user for what only they can do (log in, CAPTCHA, 2FA, confirm a payment): "
                    "shows them message over the focused tab; answers when they click Done or I can't.",
                    {{"message", {{"type", "string"}}},
                     {"timeoutSeconds",
                      {{"type", "integer"},
                       {"minimum", 1},
                       {"maximum", kAskPersonMaxSeconds},
                       {"default", kAskPersonDefaultSeconds}}}},
                    {"message"}, Hint::kAdds),
       .policy = {.targets = {.untargeted = "shows the person a message; the page is theirs to touch"}}},
      {.tool = Tool(kRunSteps, "Page tools (or the page's own) in order, in one call; stops at the first error.",
                    {{"steps",
                      {{"type", "array"},
                       {"minItems", 1},
                       {"maxItems", kMaxRunSteps},
                       {"items",
                        {{"type", "object"},
                         {"properties", {{"tool", {{"type", "string"}}}, {"arguments", {{"type", "object"}}}}},
                         {"required", {"tool"}}}}}}},
                    {"steps"}, Hint::kActs),
       .policy = {.targets = {.untargeted = "each step passes the call gate as its own call"}}},
  }};
  return defs;
}

// ref or selector: how every page tool names an element (snapshot's
// description explains both once, instead of every tool repeating it).
Json Target(Json properties) {
  properties["ref"] = {{"type", "string"}};
  properties["selector"] = {{"type", "string"}};
  return properties;
}

Json Timeout() { return {{"type", "integer"}, {"minimum", 0}, {"maximum", 120000}}; }
// How much text snapshot and read_page answer at once (the model pages on with cursor).
Json MaxChars() { return {{"type", "integer"}, {"minimum", 500}, {"default", 20000}}; }

// Every page tool, once: its MCP object (name, description, schema,
// annotations), the policy capability it needs, its deadline (0: the call's
// timeoutMs, default_timeout_ms when absent, plus kPageDeadlineMarginMs), and
// the session capability (--caps) that lists it. Everything else — the
// extension's tool_catalog.js, the docs' tables, the tests' name lists — is
// generated from this (codegen/generate.mjs).
struct PageToolDef {
  Json tool;
  policy::Cap cap;
  PolicyTargets targets;  // required: an entry without it cannot run (PolicyTargets::Declared)
  std::uint64_t deadline_ms;
  std::int64_t default_timeout_ms = 0;
  std::string_view session_cap = {};
  AuditFields audit = {};
  // Why its answer may come from another document than the one the site
  // check passed for (empty: pinned, extension/tools/stack/pinned_top.js).
  std::string_view unpinned = {};
};

// Why a tool may answer from another document than the one checked: the
// structure that keeps its guarantee instead (docs/policy.md "Threat model").
constexpr std::string_view kActsUnpinned =
    "acts, and an action may move the page: every input goes through the input broker, which decides the site of "
    "the frame it reaches when it is sent, and what the tool reads after carries its documents' provenance";
constexpr std::string_view kLogUnpinned =
    "reads the tab's log, not a document: each entry carries its page's URL as provenance, and the host judges it";

const std::vector<PageToolDef>& PageToolDefs() {
  using policy::Cap;
  static const std::vector<PageToolDef> defs = {
      {.tool = Tool("snapshot",
                    "Accessibility snapshot of the focused tab; pass an element's [ref=eN] (or a CSS selector) to the "
                    "action tools.",
                    {{"maxChars", MaxChars()}, {"cursor", {{"type", "string"}}}, {"ref", {{"type", "string"}}}},
                    Json::array(), Hint::kReadOnly),
       .cap = Cap::kRead,
       .targets = {.focused_tab = true},
       .deadline_ms = kPageToolDeadlineMs},
      {.tool = Tool("click", "Click an element; answers what happened (navigation, dialog, …).",
                    Target({{"button", {{"type", "string"}, {"enum", {"left", "right", "middle"}}}},
                            {"doubleClick", {{"type", "boolean"}}}}),
                    Json::array(), Hint::kActs),
       .cap = Cap::kAct,
       .targets = {.focused_tab = true, .frames = true},
       .deadline_ms = kPageToolDeadlineMs,
       .unpinned = kActsUnpinned},
      {.tool = Tool("type", "Type text into an element; clear first and/or press Enter after.",
                    Target({{"text", {{"type", "string"}}},
                            {"clear", {{"type", "boolean"}}},
                            {"submit", {{"type", "boolean"}}},
                            {"keyEvents", {{"type", "boolean"}}}}),
                    {"text"}, Hint::kActs),
       .cap = Cap::kAct,
       .targets = {.focused_tab = true, .frames = true},
       .deadline_ms = kPageToolDeadlineMs,
       .unpinned = kActsUnpinned},
      {.tool = Tool("fill_form",
                    "Fill fields: text, checkbox (true/false), radio, select; then submit their form or "
                    "click submitRef.",
                    {{"fields",
                      {{"type", "array"},
                       {"items",
                        {{"type", "object"},
                         {"properties", Target({{"value", {{"type", {"string", "boolean"}}}}})},
                         {"required", {"value"}}}}}},
                     {"submit", {{"type", "boolean"}}},
                     {"submitRef", {{"type", "string"}}}},
                    {"fields"}, Hint::kActs),
       .cap = Cap::kAct,
       .targets = {.focused_tab = true, .frames = true},
       .deadline_ms = kPageToolDeadlineMs,
       .unpinned = kActsUnpinned},
      {.tool =
           Tool("select_option", "Select options of a <select> by value or label.",
                Target({{"values", {{"type", "array"}, {"items", {{"type", "string"}}}}}}), {"values"}, Hint::kActs),
       .cap = Cap::kAct,
       .targets = {.focused_tab = true, .frames = true},
       .deadline_ms = kPageToolDeadlineMs,
       .unpinned = kActsUnpinned},
      {.tool = Tool("hover", "Move the mouse over an element.", Target(Json::object()), Json::array(), Hint::kAdds),
       .cap = Cap::kAct,
       .targets = {.focused_tab = true, .frames = true},
       .deadline_ms = kPageToolDeadlineMs,
       .unpinned = kActsUnpinned},
      {.tool = Tool("scroll", "Scroll an element into view, or the page (or element) by dx/dy px or to x/y.",
                    Target({{"dx", {{"type", "number"}}},
                            {"dy", {{"type", "number"}}},
                            {"x", {{"type", "number"}}},
                            {"y", {{"type", "number"}}}}),
                    Json::array(), Hint::kAdds),
       .cap = Cap::kAct,
       .targets = {.focused_tab = true, .frames = true},
       .deadline_ms = kPageToolDeadlineMs,
       .unpinned = kActsUnpinned},
      {.tool = Tool("press_key", "Press a key or chord in the page, e.g. Enter, Escape, Control+A.",
                    {{"key", {{"type", "string"}}}}, {"key"}, Hint::kActs),
       .cap = Cap::kAct,
       .targets = {.focused_tab = true, .frames = true},
       .deadline_ms = kPageToolDeadlineMs,
       .unpinned = kActsUnpinned},
      {.tool = Tool("navigate", "Go to url, or back/forward/reload; waits for the page.",
                    {{"url", {{"type", "string"}}},
                     {"action", {{"type", "string"}, {"enum", {"back", "forward", "reload"}}}},
                     {"waitUntil", {{"type", "string"}, {"enum", {"load", "domcontentloaded", "networkidle"}}}},
                     {"timeoutMs", Timeout()}},
                    Json::array(), Hint::kActs),
       .cap = Cap::kNavigate,
       .targets = {.focused_tab = true, .url_arg = "url"},
       .deadline_ms = 0,
       .default_timeout_ms = 30'000,
       .audit = {.error_text = true},
       .unpinned = "moves the page by design: where it goes is a declared policy target (url), and what it reads where "
                   "it landed carries that document's provenance"},
      {.tool = Tool("wait_for", "Wait until a selector or text appears (gone: disappears).",
                    {{"selector", {{"type", "string"}}},
                     {"text", {{"type", "string"}}},
                     {"gone", {{"type", "boolean"}}},
                     {"timeoutMs", Timeout()}},
                    Json::array(), Hint::kReadOnly),
       .cap = Cap::kRead,
       .targets = {.focused_tab = true},
       .deadline_ms = 0,
       .default_timeout_ms = 10'000,
       .unpinned = "waits across navigations by design: each read carries the provenance of the document it read, and "
                   "the host judges it"},
      {.tool = Tool("screenshot", "Screenshot of the viewport, full page or one element, scaled down.",
                    Target({{"fullPage", {{"type", "boolean"}}},
                            {"format", {{"type", "string"}, {"enum", {"jpeg", "png"}}}},
                            {"quality", {{"type", "integer"}, {"minimum", 1}, {"maximum", 100}}}}),
                    Json::array(), Hint::kReadOnly),
       .cap = Cap::kRead,
       .targets = {.focused_tab = true},
       .deadline_ms = kPageToolDeadlineMs},
      {.tool = Tool("read_page", "Read the page as markdown (main content), text, links, info or the selection.",
                    {{"mode", {{"type", "string"}, {"enum", {"markdown", "text", "links", "info", "selection"}}}},
                     {"selector", {{"type", "string"}}},
                     {"ref", {{"type", "string"}}},
                     {"sameOrigin", {{"type", "boolean"}, {"description", "links: only this site's"}}},
                     {"include", {{"type", "string"}, {"description", "links: href part, * wildcard"}}},
                     {"exclude", {{"type", "string"}}},
                     {"maxChars", MaxChars()},
                     {"cursor", {{"type", "string"}}}},
                    Json::array(), Hint::kReadOnly),
       .cap = Cap::kRead,
       .targets = {.focused_tab = true},
       .deadline_ms = kPageToolDeadlineMs},
      {.tool = Tool("console_logs", "The tab's console messages and uncaught errors.",
                    {{"level", {{"type", "string"}, {"enum", {"all", "error", "warn", "info", "log", "debug"}}}},
                     {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 1000}}},
                     {"since", {{"type", "number"}, {"description", "epoch ms"}}},
                     {"format", {{"type", "string"}, {"enum", {"markdown", "json"}}}}},
                    Json::array(), Hint::kReadOnly),
       .cap = Cap::kRead,
       .targets = {.focused_tab = true},
       .deadline_ms = kPageToolDeadlineMs,
       .unpinned = kLogUnpinned},
      {.tool = Tool("network_errors", "Failed requests: network errors, HTTP status >= 400.",
                    {{"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 1000}}},
                     {"since", {{"type", "number"}}},
                     {"format", {{"type", "string"}, {"enum", {"markdown", "json"}}}}},
                    Json::array(), Hint::kReadOnly),
       .cap = Cap::kRead,
       .targets = {.focused_tab = true},
       .deadline_ms = kPageToolDeadlineMs,
       .unpinned = kLogUnpinned},
      // Its dialog's frame is not decided yet (issue 42 D1: the input broker's).
      {.tool = Tool("handle_dialog", "Accept or dismiss the open alert/confirm/prompt/beforeunload dialog.",
                    {{"accept", {{"type", "boolean"}}}, {"promptText", {{"type", "string"}}}}, {"accept"}, Hint::kActs),
       .cap = Cap::kAct,
       .targets = {.focused_tab = true},
       .deadline_ms = kPageToolDeadlineMs,
       .unpinned = "answers the dialog the tab holds through the input broker, bound to the frame that opened it; the "
                   "dialog's words carry that frame's provenance"},
      // Listed only with --caps (session_cap).
      {.tool = Tool("evaluate",
                    "Run a JavaScript expression or function body in the page (CSP cannot block it); awaits promises, "
                    "returns JSON.",
                    {{"expression", {{"type", "string"}}}, {"allFrames", {{"type", "boolean"}}}}, {"expression"},
                    Hint::kActs),
       .cap = Cap::kEval,
       .targets = {.focused_tab = true},
       .deadline_ms = kPageToolDeadlineMs,
       .session_cap = kCapEval,
       .unpinned = "runs code that may move the page: each evaluation carries the provenance of its context (its URL), "
                   "which the host judges the answer by"},
      {.tool = Tool("drag", "Drag one element onto another with the mouse (HTML5 drag and drop or pointer events).",
                    {{"from", {{"type", "string"}, {"description", "ref or CSS selector"}}},
                     {"to", {{"type", "string"}, {"description", "ref or CSS selector"}}}},
                    {"from", "to"}, Hint::kActs),
       .cap = Cap::kAct,
       .targets = {.focused_tab = true, .frames = true},
       .deadline_ms = kPageToolDeadlineMs,
       .session_cap = kCapDrag,
       .unpinned = kActsUnpinned},
      {.tool = Tool(kUploadFile,
                    "Put local files into a file input, or into the one a button opens (no dialog shows); answers what "
                    "the page now holds.",
                    Target({{"paths",
                             {{"type", "array"},
                              {"items", {{"type", "string"}}},
                              {"minItems", 1},
                              {"maxItems", kMaxUploadFiles},
                              {"description", "files on this machine; relative to the working directory"}}}}),
                    {"paths"}, Hint::kActs),
       .cap = Cap::kAct,
       .targets = {.focused_tab = true, .frames = true},
       .deadline_ms = kPageToolDeadlineMs,
       .session_cap = kCapUpload,
       .audit = {.files_arg = "paths"},
       .unpinned = kActsUnpinned},
      {.tool = Tool("emulate",
                    "Make the focused tab look like another device or setting until you leave the tab: viewport, color "
                    "scheme, offline, user agent; reset ends it.",
                    {{"viewport",
                      {{"type", "object"},
                       {"properties",
                        {{"width", {{"type", "integer"}, {"minimum", 1}, {"maximum", 10000}}},
                         {"height", {{"type", "integer"}, {"minimum", 1}, {"maximum", 10000}}},
                         {"deviceScaleFactor", {{"type", "number"}, {"minimum", 0}, {"maximum", 4}}},
                         {"mobile", {{"type", "boolean"}}}}},
                       {"required", {"width", "height"}},
                       {"additionalProperties", false}}},
                     {"colorScheme", {{"type", "string"}, {"enum", {"light", "dark", "no-preference"}}}},
                     {"offline", {{"type", "boolean"}}},
                     {"userAgent", {{"type", "string"}}},
                     {"reset", {{"type", "boolean"}}}},
                    Json::array(), Hint::kAdds),
       .cap = Cap::kAct,
       .targets = {.focused_tab = true, .frames = true},
       .deadline_ms = kPageToolDeadlineMs,
       .session_cap = kCapEmulate,
       .unpinned = "changes how the browser shows the tab and reads nothing of the page"},
      {.tool = Tool("download_file",
                    "Download a URL or a link (ref) into tabbridge's download folder; answers path, bytes, type.",
                    Target({{"url", {{"type", "string"}}}, {"suggestedName", {{"type", "string"}}}}), Json::array(),
                    Hint::kAdds),
       .cap = Cap::kDownload,
       .targets = {.focused_tab = true, .url_arg = "url", .reached_urls = true},
       .deadline_ms = kDownloadDeadlineMs,
       .session_cap = kCapDownload,
       .audit = {.error_text = true},
       .unpinned = "the file is decided at its own final URL before it is kept; the page only names it"},
      {.tool =
           Tool("save_pdf", "Save the focused page as a PDF in tabbridge's download folder; answers path and bytes.",
                {{"landscape", {{"type", "boolean"}}},
                 {"printBackground", {{"type", "boolean"}, {"default", true}}},
                 {"fileName", {{"type", "string"}}}},
                Json::array(), Hint::kAdds),
       .cap = Cap::kDownload,
       .targets = {.focused_tab = true},
       .deadline_ms = kDownloadDeadlineMs,
       .session_cap = kCapDownload},
      {.tool =
           Tool("network_requests",
                "The page's requests since it loaded, newest last: id, method, status, type, size, time; failed ones "
                "flagged.",
                {{"filter", {{"type", "string"}, {"description", "part of method, URL or type"}}},
                 {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 500}}}},
                Json::array(), Hint::kReadOnly),
       .cap = Cap::kRead,
       .targets = {.focused_tab = true, .reached_urls = true},
       .deadline_ms = kPageToolDeadlineMs,
       .session_cap = kCapNetwork,
       .unpinned = kLogUnpinned},
      {.tool = Tool("network_request", "One request of network_requests: its headers and bodies (text, capped).",
                    {{"id", {{"type", "string"}}}}, {"id"}, Hint::kReadOnly),
       .cap = Cap::kRead,
       .targets = {.focused_tab = true},
       .deadline_ms = kPageToolDeadlineMs,
       .session_cap = kCapNetwork,
       .unpinned = kLogUnpinned},
  };
  return defs;
}

const std::vector<Json>& PageCatalog() {
  static const std::vector<Json> catalog = [] {
    std::vector<Json> tools;
    for (const auto& def : PageToolDefs()) tools.push_back(def.tool);
    return tools;
  }();
  return catalog;
}

const PageToolDef* FindDef(std::string_view name) {
  for (const auto& def : PageToolDefs()) {
    if (def.tool["name"] == name) return &def;
  }
  return nullptr;
}

std::string_view TypeName(const Json& value) {
  if (value.is_boolean()) return "a boolean";
  if (value.is_number_integer() || value.is_number_unsigned()) return "an integer";
  if (value.is_number()) return "a number";
  if (value.is_string()) return "a string";
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  return "null";
}

bool HasType(const Json& value, std::string_view type) {
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "number") return value.is_number();
  // 3.0 is an integer in JSON Schema; one past int64_t is not one we can use.
  if (type == "integer") return field::AsInt(value).has_value();
  if (type == "array") return value.is_array();
  if (type == "object") return value.is_object();
  if (type == "null") return value.is_null();
  return true;
}

// Page-written schemas nest anyOf at will: parts deeper than this go
// unchecked (the page checks its own arguments) rather than risk the stack.
constexpr int kMaxSchemaDepth = 32;

// What checking anyOf/oneOf forms may cost a call: schema nodes checked
// against a value while inside a form. A form is tried on the whole value,
// each item of an array may try every form, and each failed try writes why:
// a page's 8 KB schema against a long array from the model would otherwise
// cost it seconds. Past the budget the forms are left unchecked (the page
// checks its own arguments). Our own catalog has one small form (focus_tab's tabId).
constexpr long kMaxFormSteps = 100'000;

struct CheckBudget {
  long form_steps = kMaxFormSteps;
  int in_forms = 0;  // how many forms the check is inside
};

std::expected<void, std::string> CheckValue(const std::string& path, const Json& schema, const Json& value,
                                            CheckBudget& budget, int depth = 0);

// Whether `value` has at most `left` parts (a string counts one a 16 chars).
bool IsSmall(const Json& value, long& left) {
  left -= 1 + (value.is_string() ? static_cast<long>(value.get_ref<const std::string&>().size() / 16) : 0);
  if (left < 0) return false;
  if (value.is_structured()) {
    for (const auto& part : value) {
      if (!IsSmall(part, left)) return false;
    }
  }
  return true;
}

// A value as an error message shows it: whole when small, else what it is.
// Never the whole of a long one (its text would be the message, and a form
// that fails writes it each time).
std::string Preview(const Json& value) {
  long left = 40;
  if (IsSmall(value, left)) return rpc::Dump(value);
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    std::size_t end = 60;  // on a code point's first byte
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) ++end;
    return rpc::Dump(text.substr(0, end)) + "…";
  }
  const std::string n = std::to_string(value.size());
  return value.is_array() ? n + " items" : n + " keys";
}

// The constants of an anyOf made only of {const} forms (descriptions aside), else none.
std::optional<Json> ConstChoices(const Json& forms) {
  Json choices = Json::array();
  for (const auto& form : forms) {
    if (!form.is_object() || !form.contains("const")) return std::nullopt;
    for (const auto& [key, unused] : form.items()) {
      if (key != "const" && key != "description" && key != "title" && key != "type") return std::nullopt;
    }
    choices.push_back(form["const"]);
  }
  return choices;
}

// An anyOf whose forms are each a bare type or a one-value enum ({type:
// "integer"}, {type: "string", enum: ["active"]}) in words: `an integer or
// "active"`; else none (the forms' own reasons say it then).
std::optional<std::string> SimpleChoices(const Json& forms) {
  std::string words;
  for (const auto& form : forms) {
    if (!form.is_object()) return std::nullopt;
    const auto type = form.find("type");
    const auto values = form.find("enum");
    std::string word;
    if (values != form.end()) {
      if (!values->is_array() || values->size() != 1) return std::nullopt;
      word = rpc::Dump((*values)[0]);
    } else if (type != form.end() && type->is_string()) {
      const auto name = type->get<std::string>();
      word = (name == "integer" || name == "array" || name == "object" ? "an " : "a ") + name;
    } else {
      return std::nullopt;
    }
    for (const auto& [key, unused] : form.items()) {
      if (key != "type" && key != "enum" && key != "description") return std::nullopt;
    }
    words += (words.empty() ? "" : " or ") + word;
  }
  return words;
}

// anyOf and oneOf (taken as "at least one", as a client need not be stricter
// than the page): the value fits one of the forms.
std::expected<void, std::string> CheckForms(const std::string& path, const Json& schema, const Json& value,
                                            CheckBudget& budget, int depth) {
  const std::string what = path.empty() ? "the arguments" : path;
  for (const char* key : {"anyOf", "oneOf"}) {
    const auto forms = schema.find(key);
    if (forms == schema.end() || !forms->is_array() || forms->empty()) continue;
    constexpr std::size_t kMaxWhyChars = 400;  // one line a model reads, not every branch in full
    std::string why;
    bool fits = false;
    for (const auto& form : *forms) {
      if (!form.is_object()) return {};  // a form we cannot read: not ours to refuse
      ++budget.in_forms;
      auto ok = CheckValue(path, form, value, budget, depth + 1);
      --budget.in_forms;
      if (ok || budget.form_steps <= 0) {  // past the budget: not ours to refuse
        fits = true;
        break;
      }
      if (why.size() <= kMaxWhyChars) why += (why.empty() ? "" : "; or ") + ok.error();
    }
    if (fits) continue;
    if (const auto choices = ConstChoices(*forms))
      return std::unexpected(what + " must be one of " + rpc::Dump(*choices));
    if (const auto words = SimpleChoices(*forms))
      return std::unexpected(what + " must be " + *words + ", not " + std::string(TypeName(value)) + " (" +
                             Preview(value) + ")");
    if (why.size() > kMaxWhyChars) why = why.substr(0, kMaxWhyChars) + "…";
    return std::unexpected(what + " fits none of its " + std::string(key) + " forms: " + why);
  }
  return {};
}

std::expected<void, std::string> CheckValue(const std::string& path, const Json& schema, const Json& value,
                                            CheckBudget& budget, int depth) {
  if (depth > kMaxSchemaDepth || !schema.is_object()) return {};
  if (budget.in_forms > 0 && --budget.form_steps < 0) return {};
  if (auto ok = CheckForms(path, schema, value, budget, depth); !ok) return ok;
  if (const auto constant = schema.find("const"); constant != schema.end() && value != *constant) {
    return std::unexpected((path.empty() ? "the arguments" : path) + " must be " + rpc::Dump(*constant));
  }
  if (const auto type = schema.find("type"); type != schema.end()) {
    const Json types = type->is_array() ? *type : Json::array({*type});
    const bool ok = std::ranges::any_of(
        types, [&](const Json& t) { return t.is_string() && HasType(value, t.get<std::string>()); });
    if (!ok) {
      std::string wanted;
      for (const auto& t : types) {
        if (!t.is_string()) continue;
        const auto name = t.get<std::string>();
        wanted += (wanted.empty() ? "" : " or ") +
                  std::string(name == "integer" || name == "array" || name == "object" ? "an " : "a ") + name;
      }
      return std::unexpected(path + " must be " + wanted + ", not " + std::string(TypeName(value)) + " (" +
                             Preview(value) + ")");
    }
  }
  if (const auto allowed = schema.find("enum"); allowed != schema.end() && allowed->is_array()) {
    if (std::find(allowed->begin(), allowed->end(), value) == allowed->end()) {
      return std::unexpected(path + " must be one of " + rpc::Dump(*allowed));
    }
  }
  if (value.is_number()) {
    if (const auto min = schema.find("minimum");
        min != schema.end() && min->is_number() && value.get<double>() < min->get<double>()) {
      return std::unexpected(path + " must be at least " + rpc::Dump(*min));
    }
    if (const auto max = schema.find("maximum");
        max != schema.end() && max->is_number() && value.get<double>() > max->get<double>()) {
      return std::unexpected(path + " must be at most " + rpc::Dump(*max));
    }
  }
  // Page-written schemas (the page's own tools) are checked too: a field of an
  // unexpected type is skipped, never trusted.
  if (value.is_object() && schema.contains("properties") && schema["properties"].is_object()) {
    const Json& properties = schema["properties"];
    const auto required = schema.find("required");
    for (const auto& name : required != schema.end() && required->is_array() ? *required : Json::array()) {
      if (name.is_string() && !value.contains(name.get<std::string>())) {
        return std::unexpected("missing required argument " + (path.empty() ? "" : path + ".") +
                               name.get<std::string>());
      }
    }
    for (const auto& [key, item] : value.items()) {
      const std::string item_path = path.empty() ? key : path + "." + key;
      if (const auto property = properties.find(key); property != properties.end()) {
        if (auto ok = CheckValue(item_path, *property, item, budget, depth + 1); !ok) return ok;
      } else if (const auto extra = schema.find("additionalProperties"); extra != schema.end() && *extra == false) {
        std::string known;
        for (const auto& [name, unused] : properties.items()) known += (known.empty() ? "" : ", ") + name;
        return std::unexpected("unknown argument " + item_path +
                               (known.empty() ? " (this tool takes none)" : " (expected: " + known + ")"));
      }
    }
  }
  if (value.is_array()) {
    if (const auto min = schema.find("minItems");
        min != schema.end() && min->is_number_integer() && std::cmp_less(value.size(), min->get<std::int64_t>())) {
      return std::unexpected(path + " must have at least " + rpc::Dump(*min) + " item" + (*min == 1 ? "" : "s"));
    }
    if (const auto max = schema.find("maxItems");
        max != schema.end() && max->is_number_integer() && std::cmp_greater(value.size(), max->get<std::int64_t>())) {
      return std::unexpected(path + " must have at most " + rpc::Dump(*max) + " items");
    }
    if (const auto items = schema.find("items"); items != schema.end() && items->is_object()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (auto ok = CheckValue(path + "[" + std::to_string(i) + "]", *items, value[i], budget, depth + 1); !ok)
          return ok;
      }
    }
  }
  return {};
}

}  // namespace

const Json* Find(std::string_view name) {
  for (const auto& def : HostToolDefs()) {
    if (def.tool["name"].get_ref<const std::string&>() == name) return &def.tool;
  }
  for (const auto& tool : PageCatalog()) {
    if (tool["name"].get_ref<const std::string&>() == name) return &tool;
  }
  return nullptr;
}

bool IsPageTool(std::string_view name) {
  return std::ranges::any_of(PageCatalog(), [&](const Json& t) { return t["name"] == name; });
}

const std::vector<PageToolSpec>& PageToolSpecs() {
  static const std::vector<PageToolSpec> specs = [] {
    std::vector<PageToolSpec> out;
    for (const auto& def : PageToolDefs()) {
      out.push_back({def.tool["name"].get_ref<const std::string&>(), def.cap, def.deadline_ms, def.default_timeout_ms,
                     def.unpinned});
    }
    return out;
  }();
  return specs;
}

namespace {

const PageToolSpec* FindSpec(std::string_view name) {
  for (const auto& spec : PageToolSpecs()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

}  // namespace

std::uint64_t PageToolDeadline(std::string_view name, const Json& args) {
  const PageToolSpec* spec = FindSpec(name);
  if (spec == nullptr) return kPageToolDeadlineMs;
  if (spec->default_timeout_ms == 0) return spec->deadline_ms;
  const auto timeout = field::Int(args, "timeoutMs").value_or(spec->default_timeout_ms);
  return static_cast<std::uint64_t>(std::max<std::int64_t>(0, timeout)) + kPageDeadlineMarginMs;
}

const ToolPolicy* PolicyOf(std::string_view name) {
  static const std::vector<std::pair<std::string, ToolPolicy>> policies = [] {
    std::vector<std::pair<std::string, ToolPolicy>> out;
    for (const auto& def : HostToolDefs()) out.emplace_back(def.tool["name"], def.policy);
    for (const auto& def : PageToolDefs()) {
      out.emplace_back(def.tool["name"], ToolPolicy{.cap = def.cap, .targets = def.targets, .audit = def.audit});
    }
    return out;
  }();
  for (const auto& [tool, policy] : policies) {
    if (tool == name) return &policy;
  }
  return nullptr;
}

const ToolPolicy& OwnToolPolicy() {
  static const ToolPolicy own{.cap = policy::Cap::kAct, .targets = {.focused_tab = true}};
  return own;
}

std::optional<policy::Cap> CapabilityOf(std::string_view name) {
  const ToolPolicy* declared = PolicyOf(name);
  return declared != nullptr ? declared->cap : std::nullopt;
}

std::string ExtensionCatalogJs() {
  std::string out =
      "// GENERATED from common/tool_catalog.cpp by `tabbridge tools --js` (codegen/generate.mjs) — do not edit.\n"
      "// The test generated_in_sync fails when this file and the C++ catalog\n"
      "// differ; regenerate it with: node codegen/generate.mjs\n"
      "//\n"
      "// Every page tool the host sends as page.<name>: the policy capability it\n"
      "// needs, the session capability (--caps) that lists it (null: listed by\n"
      "// default), its deadline (0: timeoutMs + marginMs), its arguments' defaults\n"
      "// and, when it is not pinned to the document its site check passed for,\n"
      "// why (unpinned; extension/tools/stack/page_tool.js).\n\n"
      "export const PAGE_TOOLS = Object.freeze({\n";
  for (const auto& spec : PageToolSpecs()) {
    Json defaults = Json::object();
    if (const Json* tool = Find(spec.name)) {
      for (const auto& [key, property] : (*tool)["inputSchema"]["properties"].items()) {
        if (property.contains("default")) defaults[key] = property["default"];
      }
    }
    if (spec.default_timeout_ms != 0) defaults["timeoutMs"] = spec.default_timeout_ms;
    const std::string_view session_cap = RequiredCap(spec.name);
    out += "  " + std::string(spec.name) + ": Object.freeze({ capability: '" + std::string(policy::Name(spec.cap)) +
           "', sessionCap: " + (session_cap.empty() ? std::string("null") : "'" + std::string(session_cap) + "'") +
           ", deadlineMs: " + std::to_string(spec.deadline_ms) + ", defaults: Object.freeze(" + rpc::Dump(defaults) +
           "), unpinned: " + (spec.unpinned.empty() ? std::string("null") : rpc::Dump(Json(spec.unpinned))) + " }),\n";
  }
  out += "});\n\nexport const PAGE_DEADLINE_MARGIN_MS = " + std::to_string(kPageDeadlineMarginMs) + ";\n";
  out += "\n// A page's own tool, called by name (owntool.call): why it is not pinned.\n";
  out += "export const OWN_TOOL_UNPINNED = " + rpc::Dump(Json(kOwnToolUnpinned)) + ";\n";
  // Every tool's policy declaration, for the catalog walk (tests/js/catalog_walk.test.mjs).
  Json policies = Json::object();
  auto declared = [](std::string_view kind, const ToolPolicy& p) {
    Json targets = Json::object();
    if (p.targets.focused_tab) targets["focusedTab"] = true;
    if (!p.targets.tab_arg.empty()) targets["tabArg"] = p.targets.tab_arg;
    if (!p.targets.url_arg.empty()) targets["urlArg"] = p.targets.url_arg;
    if (p.targets.frames) targets["frames"] = true;
    if (p.targets.reached_urls) targets["reachedUrls"] = true;
    if (!p.targets.untargeted.empty()) targets["untargeted"] = p.targets.untargeted;
    return Json{{"kind", kind},
                {"capability", p.cap ? Json(policy::Name(*p.cap)) : Json(nullptr)},
                {"targets", std::move(targets)}};
  };
  for (const auto& def : HostToolDefs()) policies[def.tool["name"].get<std::string>()] = declared("host", def.policy);
  for (const auto& spec : PageToolSpecs()) policies[std::string(spec.name)] = declared("page", *PolicyOf(spec.name));
  policies["owntool.call"] = declared("own", OwnToolPolicy());
  out +=
      "\n// Every tool's policy declaration (common/tool_catalog.h ToolPolicy): kind (host:\n"
      "// run by the host; page: page.<name> in the extension; own: a page's own\n"
      "// tool), capability, and the targets the call gate decides it on.\n";
  out += "export const TOOL_POLICIES = Object.freeze(" + rpc::Dump(policies) + ");\n";
  return out;
}

std::string_view RequiredCap(std::string_view name) {
  const PageToolDef* def = FindDef(name);
  return def != nullptr ? def->session_cap : std::string_view();
}

namespace {

// `tool` as a session with `caps` sees it, or nullopt when they do not offer it.
std::optional<Json> VariantFor(const Json& tool, const std::vector<std::string>& caps) {
  auto has = [&](std::string_view cap) { return std::ranges::find(caps, cap) != caps.end(); };
  const std::string& name = tool["name"].get_ref<const std::string&>();
  if (const auto cap = RequiredCap(name); !cap.empty() && !has(cap)) return std::nullopt;
  Json variant = tool;
  if (name == "read_page" && has(kCapHtml)) variant["inputSchema"]["properties"]["mode"]["enum"].push_back("html");
  return variant;
}

}  // namespace

Json PageTools(const std::vector<std::string>& caps) {
  Json tools = Json::array();
  for (const auto& tool : PageCatalog()) {
    if (auto variant = VariantFor(tool, caps)) tools.push_back(std::move(*variant));
  }
  return tools;
}

namespace {
// What Listed() leaves out, at every depth (emulate's viewport, array items).
void StripForListing(Json& schema) {
  if (!schema.is_object()) return;
  for (const char* key : {"minimum", "maximum", "minItems", "maxItems", "default"}) schema.erase(key);
  if (const auto closed = schema.find("additionalProperties"); closed != schema.end() && *closed == false) {
    schema.erase(closed);
  }
  if (const auto properties = schema.find("properties"); properties != schema.end() && properties->is_object()) {
    for (auto& [name, property] : properties->items()) StripForListing(property);
  }
  if (const auto items = schema.find("items"); items != schema.end()) StripForListing(*items);
}
}  // namespace

namespace {
// Words a client's tool search matches (Claude Code's ToolSearch): what a
// model asking for the tool would type, in our words.
constexpr std::pair<std::string_view, std::string_view> kSearchHints[] = {
    {kConnectBrowser, "browser chrome connect launch start"},
    {kListTabs, "browser tabs list windows open pages"},
    {kOpenTab, "browser open url new tab visit website"},
    {kFocusTab, "browser switch select tab active"},
    {kCloseTab, "browser close tab"},
    {kListWebMcpTools, "page own tools webmcp forms schemas"},
    {kCallWebMcpTool, "page own tool webmcp call"},
    {kAskPerson, "ask user human login captcha 2fa hand over"},
    {kRunSteps, "batch several page actions in one call"},
    {"snapshot", "page elements accessibility tree refs inspect"},
    {"click", "page click button link press"},
    {"type", "page type text input field"},
    {"fill_form", "page form fill fields submit"},
    {"select_option", "page dropdown select choose option"},
    {"hover", "page mouse hover menu tooltip"},
    {"scroll", "page scroll down up into view"},
    {"press_key", "page keyboard key press shortcut enter"},
    {"navigate", "page go to url back forward reload"},
    {"wait_for", "page wait until text appears loaded"},
    {"screenshot", "page screenshot image picture see"},
    {"read_page", "page read text markdown content links"},
    {"console_logs", "page console log javascript errors"},
    {"network_errors", "page failed requests http errors"},
    {"handle_dialog", "page alert confirm prompt dialog"},
    {"evaluate", "page javascript run script eval"},
    {"drag", "page drag drop mouse"},
    {"upload_file", "page upload file attach"},
    {"emulate", "page device viewport mobile dark mode offline"},
    {"download_file", "download file save link"},
    {"save_pdf", "page pdf print save"},
    {"network_requests", "page network requests xhr fetch"},
    {"network_request", "page network request headers body"},
};
}  // namespace

Json Listed(Json tool) {
  StripForListing(tool["inputSchema"]);
  const std::string& name = tool["name"].get_ref<const std::string&>();
  for (const auto& [tool_name, hint] : kSearchHints) {
    if (tool_name == name) tool["_meta"][std::string(mcp::kMetaSearchHint)] = hint;
  }
  return tool;
}

Json Pinned(Json tool) {
  tool["_meta"][std::string(mcp::kMetaAlwaysLoad)] = true;
  return tool;
}

std::optional<Surface> ParseSurface(std::string_view name) {
  if (name == "state") return Surface::kState;
  if (name == "state-pinned") return Surface::kStatePinned;
  if (name == "stable") return Surface::kStable;
  if (name == "stable-deferred") return Surface::kStableDeferred;
  if (name == "dispatch") return Surface::kDispatch;
  return std::nullopt;
}

std::string_view SurfaceName(Surface surface) {
  switch (surface) {
    case Surface::kState:
      return "state";
    case Surface::kStatePinned:
      return "state-pinned";
    case Surface::kStable:
      return "stable";
    case Surface::kStableDeferred:
      return "stable-deferred";
    case Surface::kDispatch:
      return "dispatch";
  }
  return "state";
}

bool IsStable(Surface surface) {
  return surface == Surface::kStable || surface == Surface::kStableDeferred || surface == Surface::kDispatch;
}

bool PinsStateTools(Surface surface) { return surface == Surface::kStatePinned || surface == Surface::kStable; }

Json StableTools(const std::vector<std::string>& caps, Surface surface) {
  Json list = Json::array();
  for (const std::string_view name :
       {kConnectBrowser, kListTabs, kOpenTab, kFocusTab, kCloseTab, kAskPerson, kRunSteps}) {
    list.push_back(Listed(*Find(name)));
  }
  for (auto& tool : PageTools(caps)) list.push_back(Listed(std::move(tool)));
  if (surface == Surface::kDispatch) {
    // The page's own tools are run by name; their list comes in the answers.
    for (const std::string_view name : {kListWebMcpTools, kCallWebMcpTool}) list.push_back(Listed(*Find(name)));
  }
  // Pinned: in every request from the first (bytes on each, cached); the
  // rest cost a name until a search loads one. Dispatch pins what nearly
  // every task uses (measured: bench/README.md "Claude Code").
  constexpr std::string_view kCommon[] = {kOpenTab, "snapshot", "click", "type", "fill_form", kCallWebMcpTool};
  for (auto& tool : list) {
    const bool common = std::ranges::find(kCommon, tool["name"].get_ref<const std::string&>()) != std::end(kCommon);
    if (surface == Surface::kStable || (surface == Surface::kDispatch && common)) tool = Pinned(std::move(tool));
  }
  return list;
}

std::optional<Json> PageTool(std::string_view name, const std::vector<std::string>& caps) {
  for (const auto& tool : PageCatalog()) {
    if (tool["name"] == name) return VariantFor(tool, caps);
  }
  return std::nullopt;
}

std::expected<void, std::string> CheckArguments(const Json& tool, const Json& args, Extra extra) {
  const Json& schema = tool["inputSchema"];
  if (!args.is_object()) return std::unexpected("arguments must be an object");
  if (extra == Extra::kRefuse && schema.contains("properties") && !schema.contains("additionalProperties")) {
    // Our schemas are listed open (see Tool()); the arguments are still checked closed.
    Json closed = schema;
    closed["additionalProperties"] = false;
    CheckBudget budget;
    return CheckValue("", closed, args, budget);
  }
  CheckBudget budget;
  return CheckValue("", schema, args, budget);
}

Json Result(Json structured, bool is_error) {
  Json result = {{"content", Json::array({{{"type", "text"}, {"text", rpc::Dump(structured)}}})},
                 {"structuredContent", std::move(structured)}};
  if (is_error) result["isError"] = true;
  return result;
}

bool IsResult(const Json& json) { return json.is_object() && json.contains("content") && json["content"].is_array(); }

const std::vector<std::string>& ReservedNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& def : HostToolDefs()) out.push_back(def.tool["name"]);
    for (const auto& tool : PageCatalog()) out.push_back(tool["name"]);
    return out;
  }();
  return names;
}

void AddToResult(Json& result, std::string_view key, Json value, std::string text) {
  if (!result.is_object()) return;
  Json& content = result["content"];
  if (!content.is_array()) content = Json::array();
  bool copied = false;
  if (const auto structured = result.find("structuredContent"); structured != result.end() && structured->is_object()) {
    const std::string before = rpc::Dump(*structured);
    (*structured)[std::string(key)] = std::move(value);
    for (Json& block : content) {
      if (block.is_object() && block.value("type", "") == "text" && block.value("text", "") == before) {
        block["text"] = rpc::Dump(*structured);
        copied = true;
      }
    }
  }
  if (!copied) content.push_back({{"type", "text"}, {"text", std::move(text)}});
}

Json ErrorResult(std::string_view message) {
  return {{"content", Json::array({{{"type", "text"}, {"text", message}}})}, {"isError", true}};
}

}  // namespace tb::tools
