#include "host/own_tools.h"

#include <algorithm>
#include <cctype>

#include "common/protocol.h"
#include "host/own_tool_names.h"

namespace tb::own_tools {
namespace {

// The extension drops names over 128 UTF-16 units; in UTF-8 that is at most
// 3 bytes each. A longer name is refused, never cut (a cut name is another tool).
constexpr std::size_t kMaxNameBytes = 3 * 128;
constexpr std::size_t kMaxSchemaTextChars = 200;        // a description or title inside a schema
constexpr std::size_t kMaxFullDescriptionChars = 1024;  // as the extension reports at most
constexpr std::string_view kSources[] = {"native", "polyfill", "legacy", "declarative", "form", "results", "buttons"};

bool IsSource(const std::string& s) {
  for (auto known : kSources) {
    if (s == known) return true;
  }
  return false;
}

// Page-written text inside a schema (descriptions, titles, enum values,
// defaults, …) is cleaned like any other; the structure stays as the page
// wrote it.
Json CleanSchema(const Json& schema, int depth = 0) {
  if (depth > 32) return Json::object();  // a page cannot make us recurse forever
  if (schema.is_string()) return CleanText(schema.get_ref<const std::string&>(), kMaxSchemaTextChars);
  if (schema.is_object()) {
    Json out = Json::object();
    // Keys are page text too (property names reach the model through
    // list_webmcp_tools); a key cleaning changes is listed cleaned — such a
    // tool stays out of tools/list anyway (PropertyKeysAreValid).
    for (const auto& [key, value] : schema.items())
      out[CleanText(key, kMaxSchemaTextChars)] = CleanSchema(value, depth + 1);
    return out;
  }
  if (schema.is_array()) {
    Json out = Json::array();
    for (const auto& item : schema) out.push_back(CleanSchema(item, depth + 1));
    return out;
  }
  return schema;
}

// MCP wants an object schema; anything else the page wrote becomes "any object".
Json ObjectSchema(const Json& schema) {
  if (!schema.is_object() || schema.value("type", Json("object")) != "object") {
    return {{"type", "object"}, {"properties", Json::object()}};
  }
  Json out = CleanSchema(schema);
  out["type"] = "object";
  if (!out.contains("properties") || !out["properties"].is_object()) out["properties"] = Json::object();
  return out;
}

std::expected<OwnTool, std::string> ParseTool(const Json& json, std::size_t index) {
  const std::string where = "tools[" + std::to_string(index) + "]";
  if (!json.is_object()) return std::unexpected(where + " is not an object");
  const auto name = json.find("name");
  if (name == json.end() || !name->is_string() || name->get_ref<const std::string&>().empty() ||
      name->get_ref<const std::string&>().size() > kMaxNameBytes) {
    return std::unexpected(where + ".name must be a non-empty string of at most 128 characters");
  }
  const auto source = json.find("source");
  if (source == json.end() || !source->is_string() || !IsSource(source->get<std::string>())) {
    return std::unexpected(where +
                           ".source must be one of native, polyfill, legacy, declarative, form, results, buttons");
  }
  OwnTool tool;
  tool.name = name->get<std::string>();
  tool.source = source->get<std::string>();
  if (const auto d = json.find("description"); d != json.end() && d->is_string()) {
    tool.description = CleanText(d->get_ref<const std::string&>(), kMaxFullDescriptionChars);
  }
  tool.input_schema = ObjectSchema(json.value("inputSchema", Json::object()));
  if (const auto r = json.find("readOnly"); r != json.end() && r->is_boolean()) tool.read_only = r->get<bool>();
  if (const auto d = json.find("schemaDropped"); d != json.end() && d->is_boolean())
    tool.schema_dropped = d->get<bool>();
  return tool;
}

// Claude's API refuses a whole request when one property key of one tool
// does not match ^[a-zA-Z0-9_.-]{1,64}$ (a form field named user[email]):
// such a tool stays out of tools/list (call_webmcp_tool still runs it).
bool IsPropertyKey(const std::string& key) {
  return !key.empty() && key.size() <= 64 &&
         std::ranges::all_of(key, [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '.' || c == '-'; });
}

bool PropertyKeysAreValid(const Json& schema, int depth = 0) {
  if (depth > 32) return false;
  if (schema.is_array()) {
    return std::ranges::all_of(schema, [&](const Json& item) { return PropertyKeysAreValid(item, depth + 1); });
  }
  if (!schema.is_object()) return true;
  for (const auto& [key, value] : schema.items()) {
    if (key == "properties" && value.is_object()) {
      for (const auto& [name, property] : value.items()) {
        if (!IsPropertyKey(name) || !PropertyKeysAreValid(property, depth + 1)) return false;
      }
    } else if (!PropertyKeysAreValid(value, depth + 1)) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::expected<OwnToolsEvent, std::string> ParseOwnToolsEvent(const Json& params) {
  if (!params.is_object()) return std::unexpected("params must be an object");
  const auto tab = params.find("tabId");
  if (tab == params.end() || !tab->is_number_integer()) return std::unexpected("tabId must be an integer");
  const auto tools = params.find("tools");
  if (tools == params.end() || !tools->is_array()) return std::unexpected("tools must be an array");
  OwnToolsEvent event;
  event.tab_id = tab->get<std::int64_t>();
  OwnToolSet& set = event.set;
  auto text = [&](const char* key) {
    const auto it = params.find(key);
    return it != params.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  set.document_id = text("documentId");
  set.url = text("url");
  set.api = text("api");
  if (const auto native = params.find("native"); native != params.end() && native->is_boolean()) {
    set.native = native->get<bool>();
  }
  if (const auto settled = params.find("settled"); settled != params.end() && settled->is_boolean()) {
    event.settled = settled->get<bool>();
  }
  std::set<std::string> seen;
  for (std::size_t i = 0; i < tools->size() && set.tools.size() < kMaxReportedOwnTools; ++i) {
    auto tool = ParseTool((*tools)[i], i);
    if (!tool) return std::unexpected(tool.error());
    if (!seen.insert(tool->name).second) continue;  // first one wins, as in the page
    set.tools.push_back(std::move(*tool));
  }
  const auto total = params.find("total");
  set.total = total != params.end() && total->is_number_unsigned() ? total->get<std::size_t>() : 0;
  set.total = std::max(set.total, set.tools.size());
  if (!set.tools.empty() && set.document_id.empty()) return std::unexpected("documentId must be a non-empty string");
  return event;
}

std::string Describe(const OwnTool& tool, const std::string& site_display, std::size_t page_index) {
  const std::string kind = tool.is_form()      ? "Form"
                           : tool.is_results() ? "Results"
                           : tool.is_button()  ? "Button"
                                               : "WebMCP";
  const std::string text =
      tool.description.empty() ? "No description" : CleanText(tool.description, kMaxListedDescriptionChars);
  return "[" + kind + " • " + site_display + " • Page " + std::to_string(page_index) + "] " + text +
         " (untrusted page text)";
}

// Words a client's tool search matches (Claude Code's ToolSearch), ours
// alone: the kind of tool and the site, never the page's own text.
static std::string SearchHint(const OwnTool& tool, const std::string& site_display) {
  const std::string_view words = tool.is_form()      ? "page form: fill in and submit"
                                 : tool.is_results() ? "page results list: open a result"
                                 : tool.is_button()  ? "page button: press"
                                                     : "page's own webmcp tool";
  return std::string(words) + " on " + site_display;
}

std::vector<Offered> Offer(const OwnToolSet& set, std::size_t page_index, const std::set<std::string>& reserved,
                           bool list) {
  const Site site = SiteOf(set.url);
  std::set<std::string> taken = reserved;
  std::vector<Offered> offered;
  offered.reserve(set.tools.size());
  std::size_t listed = 0;
  std::size_t buttons = 0;
  std::size_t bytes = 0;
  for (const OwnTool& tool : set.tools) {
    Offered o;
    o.tool = &tool;
    o.mcp_name = tool.is_form()      ? FormName(tool.name, taken)
                 : tool.is_results() ? ResultListName(tool.name, taken)
                 : tool.is_button()  ? ButtonName(tool.name, taken)
                                     : WebMcpName(site, page_index, tool.name, taken);
    taken.insert(o.mcp_name);
    // No annotations: the page's word that a tool only reads is not ours to
    // give (nothing checks it, and a GET form can still change things), and
    // MCP's defaults (may change things, open world) are what we do know;
    // list_webmcp_tools shows what the page said.
    o.mcp_tool = {{"name", o.mcp_name},
                  {"description", Describe(tool, site.display, page_index)},
                  {"inputSchema", tool.input_schema},
                  {"_meta", {{mcp::kMetaSearchHint, SearchHint(tool, site.display)}}}};
    const std::size_t size = rpc::Dump(o.mcp_tool).size();
    const bool schema_fits =
        rpc::Dump(tool.input_schema).size() <= kMaxListedSchemaBytes && PropertyKeysAreValid(tool.input_schema);
    const bool button_fits = !tool.is_button() || buttons < kMaxListedButtonTools;
    if (list && schema_fits && button_fits && listed < kMaxListedOwnTools && bytes + size <= kMaxListedOwnToolBytes) {
      o.listed = true;
      ++listed;
      if (tool.is_button()) ++buttons;
      bytes += size;
    }
    offered.push_back(std::move(o));
  }
  return offered;
}

std::optional<std::string> ArgumentsInOrder(const std::string& text, const Json& args) {
  if (text.empty() || !args.is_object()) return std::nullopt;
  const auto given = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!given.is_object()) return std::nullopt;
  // The same values (Json compares them whatever the order): the text may not
  // say other arguments than the ones checked.
  for (const nlohmann::ordered_json* candidate :
       {&given, given.contains("arguments") ? &given["arguments"] : nullptr}) {
    if (candidate != nullptr && candidate->is_object() && Json(*candidate) == args) {
      return candidate->dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    }
  }
  return std::nullopt;
}

}  // namespace tb::own_tools
