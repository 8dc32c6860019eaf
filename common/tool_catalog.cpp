#include "common/tool_catalog.h"

#include <array>

namespace tb::tools {
namespace {

Json Annotations(std::string_view title, bool read_only, bool destructive, bool idempotent, bool open_world) {
  return {{"title", title},
          {"readOnlyHint", read_only},
          {"destructiveHint", destructive},
          {"idempotentHint", idempotent},
          {"openWorldHint", open_world}};
}

Json Tool(std::string_view name, std::string_view description, Json properties, Json required, Json annotations) {
  Json schema = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = std::move(required);
  return {{"name", name}, {"description", description}, {"inputSchema", std::move(schema)},
          {"annotations", std::move(annotations)}};
}

const std::array<Json, 5>& Catalog() {
  static const std::array<Json, 5> catalog = {
      Tool(kConnectBrowser,
           "Connect to the user's browser (Chrome, Chromium, Brave, Edge, Vivaldi) running the tabbridge "
           "extension. Set launch to start one with a dedicated profile if none is running.",
           {{"launch", {{"type", "boolean"}, {"default", false},
                        {"description", "Launch a browser if none is running"}}},
            {"browser", {{"type", "string"},
                         {"description", "When several browsers run tabbridge: an id (browser-1) or a name"}}}},
           Json::array(), Annotations("Connect to browser", false, false, true, false)),
      Tool(kListTabs, "List the browser's open tabs with their ids, titles, URLs and tool counts.",
           Json::object(), Json::array(), Annotations("List tabs", true, false, true, false)),
      Tool(kOpenTab, "Open a URL in a new tab and, unless focus is false, focus it to get its page tools.",
           {{"url", {{"type", "string"}, {"description", "http(s) or file URL"}}},
            {"focus", {{"type", "boolean"}, {"default", true}}}},
           {"url"}, Annotations("Open tab", false, false, false, true)),
      Tool(kFocusTab, "Focus a tab (id from list_tabs): its page tools replace the previous tab's.",
           {{"tabId", {{"type", "integer"}}}}, {"tabId"}, Annotations("Focus tab", false, false, true, false)),
      Tool(kCloseTab, "Close a tab; defaults to the focused one.",
           {{"tabId", {{"type", "integer"}, {"description", "Defaults to the focused tab"}}}}, Json::array(),
           Annotations("Close tab", false, true, false, false)),
  };
  return catalog;
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
  if (type == "integer") {
    if (value.is_number_integer()) return true;
    if (!value.is_number_float()) return false;
    const double d = value.get<double>();  // 3.0 is an integer in JSON Schema
    return d == static_cast<double>(static_cast<long long>(d));
  }
  if (type == "array") return value.is_array();
  if (type == "object") return value.is_object();
  return true;
}

std::expected<void, std::string> CheckValue(const std::string& path, const Json& schema, const Json& value) {
  if (const auto type = schema.find("type"); type != schema.end() && type->is_string()) {
    const auto expected = type->get<std::string>();
    if (!HasType(value, expected)) {
      return std::unexpected(path + " must be " + (expected == "integer" || expected == "array" ? "an " : "a ") +
                             expected + ", not " + std::string(TypeName(value)) + " (" + rpc::Dump(value) + ")");
    }
  }
  if (const auto allowed = schema.find("enum"); allowed != schema.end() && allowed->is_array()) {
    if (std::find(allowed->begin(), allowed->end(), value) == allowed->end()) {
      return std::unexpected(path + " must be one of " + rpc::Dump(*allowed));
    }
  }
  if (value.is_number()) {
    if (const auto min = schema.find("minimum"); min != schema.end() && value.get<double>() < min->get<double>()) {
      return std::unexpected(path + " must be at least " + rpc::Dump(*min));
    }
    if (const auto max = schema.find("maximum"); max != schema.end() && value.get<double>() > max->get<double>()) {
      return std::unexpected(path + " must be at most " + rpc::Dump(*max));
    }
  }
  if (value.is_object() && schema.contains("properties")) {
    const Json& properties = schema["properties"];
    for (const auto& name : schema.value("required", Json::array())) {
      if (!value.contains(name.get<std::string>())) {
        return std::unexpected("missing required argument " + (path.empty() ? "" : path + ".") + name.get<std::string>());
      }
    }
    for (const auto& [key, item] : value.items()) {
      const std::string item_path = path.empty() ? key : path + "." + key;
      if (const auto property = properties.find(key); property != properties.end()) {
        if (auto ok = CheckValue(item_path, *property, item); !ok) return ok;
      } else if (schema.value("additionalProperties", true) == false) {
        std::string known;
        for (const auto& [name, unused] : properties.items()) known += (known.empty() ? "" : ", ") + name;
        return std::unexpected("unknown argument " + item_path + (known.empty() ? " (this tool takes none)" : " (expected: " + known + ")"));
      }
    }
  }
  if (value.is_array()) {
    if (const auto items = schema.find("items"); items != schema.end()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (auto ok = CheckValue(path + "[" + std::to_string(i) + "]", *items, value[i]); !ok) return ok;
      }
    }
  }
  return {};
}

}  // namespace

const Json* Find(std::string_view name) {
  for (const auto& tool : Catalog()) {
    if (tool["name"].get_ref<const std::string&>() == name) return &tool;
  }
  return nullptr;
}

std::expected<void, std::string> CheckArguments(const Json& tool, const Json& args) {
  const Json& schema = tool["inputSchema"];
  if (!args.is_object()) return std::unexpected("arguments must be an object");
  return CheckValue("", schema, args);
}

Json Result(Json structured, bool is_error) {
  Json result = {{"content", Json::array({{{"type", "text"}, {"text", rpc::Dump(structured)}}})},
                 {"structuredContent", std::move(structured)}};
  if (is_error) result["isError"] = true;
  return result;
}

Json ErrorResult(std::string_view message) {
  return {{"content", Json::array({{{"type", "text"}, {"text", message}}})}, {"isError", true}};
}

}  // namespace tb::tools
