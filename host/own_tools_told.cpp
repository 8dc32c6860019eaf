// The dispatch surface (tools::Surface::kDispatch): the page's own tools are
// never in tools/list, so the list never changes and a client that defers
// tools (Claude Code) neither searches for them nor loses its prompt cache.
// Instead the answer of the call after which they changed says them, with
// their schemas, as the page's words; call_webmcp_tool runs them by name.
#include <string>

#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "host/own_tool_calls.h"

namespace tb {
namespace {

// What one tool takes in an answer, and all of them: the rest by name only
// (list_webmcp_tools {name} gives a schema).
constexpr std::size_t kMaxToldSchemaBytes = 1'200;
constexpr std::size_t kMaxToldBytes = 6'000;

// The page's own tools go where a client shows them (tools::AddToResult):
// as data in structuredContent, or as lines of text.
void Say(Json& result, Json told, std::string text) {
  tools::AddToResult(result, "pageTools", std::move(told), std::move(text));
}

}  // namespace

Json OwnToolCalls::WithOwnToolsTold(Session& session, Json result) {
  if (session.surface() != tools::Surface::kDispatch || !result.is_object() || !result.contains("content") ||
      !result["content"].is_array()) {
    return result;
  }
  const auto offered = session.focused_tab() && !parts_.own_tools.Settling(*session.focused_tab())
                           ? OfferedTo(session)
                           : std::vector<own_tools::Offered>{};
  std::string now;
  for (const auto& o : offered) now += rpc::Dump(o.mcp_tool) + "\n";
  if (now == session.own_tools_told()) return result;
  const bool had = !session.own_tools_told().empty();
  session.set_own_tools_told(now);
  if (offered.empty()) {
    constexpr std::string_view kGone = "the page's own tools are gone (the page changed or took them away)";
    if (had) Say(result, kGone, std::string(kGone));
    return result;
  }
  session.set_shown_page(ShownPage(session));  // the page whose tools a call means now
  const std::string head = std::string("the page's own tools") + (had ? " changed; now" : "") +
                           ": run one with call_webmcp_tool {name, arguments}; " +
                           std::string(own_tools::kUntrustedListNote);
  std::string text = head + ":";
  Json list = Json::array();
  std::size_t bytes = 0;
  for (const auto& o : offered) {
    const std::string schema = rpc::Dump(o.tool->input_schema);
    const bool fits = bytes + schema.size() <= kMaxToldBytes && schema.size() <= kMaxToldSchemaBytes;
    const std::string& description = o.mcp_tool["description"].get_ref<const std::string&>();
    Json entry = {{"name", o.mcp_name}, {"description", description}};
    if (fits) {
      entry["inputSchema"] = o.tool->input_schema;
      bytes += schema.size();
    } else {
      entry["inputSchema"] = "list_webmcp_tools {name} gives it";
    }
    bytes += description.size();
    text += "\n- " + o.mcp_name + " " + (fits ? schema : "(schema: list_webmcp_tools {name})") + " " + description;
    list.push_back(std::move(entry));
  }
  Say(result, {{"note", head}, {"tools", std::move(list)}}, std::move(text));
  return result;
}

}  // namespace tb
