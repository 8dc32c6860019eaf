#include "host/popup_requests.h"

#include <unistd.h>

#include <algorithm>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"

namespace tb {

Json PopupRequests::HostState() const {
  Json sessions = Json::array();
  for (const auto& [id, session] : parts_.sessions) {
    if (!session->helloed()) continue;  // not attached until it said who it is
    const auto focus = session->focused_tab();
    Json last = nullptr;
    if (!session->last_tool().empty()) last = {{"name", session->last_tool()}, {"at", session->last_tool_at_ms()}};
    sessions.push_back({{"id", id},
                        {"client", {{"name", session->client_name()}, {"version", session->client_version()}}},
                        {"focusedTabId", focus ? Json(*focus) : Json(nullptr)},
                        {"readOnly", session->read_only()},
                        {"lastTool", std::move(last)}});
  }
  return {{"host", {{"version", kVersion}, {"pid", static_cast<long>(getpid())}}},
          {"policy", PolicySummary(parts_.policy.policy())},
          {"grants", parts_.policy.Grants()},
          {"sessions", std::move(sessions)},
          {ext_method::kHostStateNetworkLog, AnySessionHasNetwork()}};
}

bool PopupRequests::AnySessionHasNetwork() const {
  for (const auto& [id, session] : parts_.sessions) {
    if (session->helloed() && std::ranges::find(session->caps(), tools::kCapNetwork) != session->caps().end())
      return true;
  }
  return false;
}

// What the policy file lets an agent do on `url`, and what it lets each
// attached session do there (--read-only narrows it): the popup's "may the
// agent act here". The same decisions a call on that URL gets.
std::expected<Json, rpc::Error> PopupRequests::CheckPolicy(const Json& params) const {
  const auto url = field::String(params, "url");
  if (!url)
    return std::unexpected(rpc::InvalidParams(std::string(ext_request::kPolicyCheck) + " needs params.url (a string)"));
  const policy::Policy& file = parts_.policy.policy();
  Json caps = Json::object();
  for (const policy::Cap cap : policy::kAllCaps) {
    const policy::Decision decision = policy::Decide(file, cap, *url);
    caps[std::string(policy::Name(cap))] = {
        {"allowed", decision.allowed}, {"ask", decision.ask}, {"reason", decision.reason}};
  }
  Json sessions = Json::array();
  for (const auto& [id, session] : parts_.sessions) {
    if (!session->helloed()) continue;
    sessions.push_back({{"id", id},
                        {"read", parts_.policy.Allows(*session, policy::Cap::kRead, *url)},
                        {"act", parts_.policy.Allows(*session, policy::Cap::kAct, *url)}});
  }
  const auto site = policy::SiteOf(*url);
  return Json{{"site", site ? site->Describe() : ""},
              {"agentUrl", IsAgentUrl(*url)},
              {"policy", PolicySummary(file)},
              {"caps", std::move(caps)},
              {"sessions", std::move(sessions)}};
}

// "Detach from this tab": every session focused on the tab loses that focus,
// as when the tab closes — its tool list shrinks (one list_changed) and a
// notifications/message says why. The tab stays open; focus_tab takes it again.
std::expected<Json, rpc::Error> PopupRequests::DetachTab(const Json& params) {
  const auto tab_id = field::Int(params, "tabId");
  if (!tab_id)
    return std::unexpected(
        rpc::InvalidParams(std::string(ext_request::kDetachTab) + " needs params.tabId (an integer)"));
  Json detached = Json::array();
  for (auto& [id, session] : parts_.sessions) {
    if (session->focused_tab() != *tab_id) continue;
    session->set_focused_tab(std::nullopt);
    detached.push_back(id);
    session->Notify(
        mcp::kMessage,
        {{"level", "warning"},
         {"logger", "tabbridge"},
         {"data",
          {{"tabId", *tab_id},
           {"text", "the user detached you from tab " + std::to_string(*tab_id) +
                        " (tabbridge popup): no tab is focused; ask the user before focus_tab on it again"}}}});
  }
  if (!detached.empty()) {
    spdlog::info("popup: detached {} session(s) from tab {}", detached.size(), *tab_id);
    parts_.after_tabs_changed();  // list_changed to each, tabs.focused to the extension
  }
  return Json{{"tabId", *tab_id}, {"detached", std::move(detached)}};
}

// "Disconnect": the host closes the session's socket. Its shim fails what was
// running ("the browser connection was lost"), tells its client the tool list
// changed, and answers "not connected" until connect_browser is called again.
std::expected<Json, rpc::Error> PopupRequests::DisconnectSession(const Json& params) {
  const auto session_id = field::Int(params, "sessionId");
  if (!session_id) {
    return std::unexpected(
        rpc::InvalidParams(std::string(ext_request::kDisconnectSession) + " needs params.sessionId (an integer)"));
  }
  Session* session = parts_.sessions.Find(*session_id);
  if (session == nullptr) {
    return std::unexpected(rpc::Error{rpc_error::kInvalidArgument,
                                      "no session " + std::to_string(*session_id) + " is attached (it has ended)",
                                      nullptr});
  }
  // Written before the close: a small line on a local socket leaves at once.
  session->Notify(mcp::kMessage, {{"level", "warning"},
                                  {"logger", "tabbridge"},
                                  {"data",
                                   {{"text",
                                     "the user disconnected this session from the browser (tabbridge popup); "
                                     "call connect_browser only if the user asks for it"}}}});
  session->TellUserDisconnected();
  spdlog::info("popup: disconnecting session {} ({})", *session_id, session->client());
  parts_.remove_session(*session_id);
  return Json{{"sessionId", *session_id}, {"disconnected", true}};
}

}  // namespace tb
