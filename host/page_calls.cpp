#include "host/page_calls.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"

namespace tb {

Json ExtensionToolResult(const std::string& name, std::int64_t tab_id, std::expected<Json, rpc::Error> outcome,
                         const std::string& changed_page) {
  if (!outcome) {
    const rpc::Error& error = outcome.error();
    if (error.code == rpc_error::kTabNotFound) {
      return tools::ErrorResult(name + ": tab " + std::to_string(tab_id) + " is gone — call list_tabs");
    }
    if (error.code == rpc_error::kDocumentChanged && !changed_page.empty())
      return tools::ErrorResult(name + ": " + changed_page);
    return tools::ErrorResult(name + ": " + error.message);
  }
  if (!tools::IsResult(*outcome)) {
    spdlog::error("the extension answered {} without a tool result", name);
    return tools::ErrorResult(name + ": the extension gave no result — reload it and retry");
  }
  if (rpc::Dump(*outcome).size() > kMaxToolResultBytes) {
    return tools::ErrorResult(name + ": the result is too large to return — narrow it (selector, maxChars)");
  }
  return std::move(*outcome);
}

bool MayMoveThePage(std::string_view name) {
  const auto cap = tools::CapabilityOf(name);
  return cap == policy::Cap::kNavigate || cap == policy::Cap::kAct || cap == policy::Cap::kEval;
}

void PageCalls::Call(Session& session, const ToolCall& call, Reply reply) {
  const std::string& name = call.name;
  const auto focus = session.focused_tab();
  if (!focus || parts_.tabs.Find(*focus) == nullptr) {
    return reply(
        tools::ErrorResult(name + ": no tab is focused — call focus_tab (ids from list_tabs) or open_tab first"));
  }
  Json params = call.args;
  params["tabId"] = *focus;
  params[ext_method::kPolicyUrlParam] = parts_.tabs.Find(*focus)->url;  // what the gate's policy check approved
  const std::int64_t tab_id = *focus;
  const std::int64_t session_id = session.id();
  // A call that may move the page answers once the new page's own tools are
  // in (the extension waits for them when the tab got another document):
  // what the navigation changed in the session's list is told once, right
  // before its answer.
  const std::function<void()> release =
      MayMoveThePage(name) ? session.HoldUntilReleased() : std::function<void()>([] {});
  auto sent = std::make_shared<std::int64_t>(0);  // known once the call is out
  const auto out = parts_.gate.CallExtension({.session_id = session_id,
                                              .tool = name,
                                              .cap = *tools::CapabilityOf(name),
                                              .method = std::string(ext_method::kPagePrefix) + name,
                                              .params = std::move(params),
                                              .deadline_ms = tools::PageToolDeadline(name, call.args),
                                              .decides = true,
                                              .settled =
                                                  [this, sent, release] {
                                                    progress_routes_.erase(*sent);
                                                    release();
                                                  }},
                                             reply, [name, tab_id](std::expected<Json, rpc::Error> outcome, Reply r) {
                                               r(ExtensionToolResult(name, tab_id, std::move(outcome)));
                                             });
  if (out == 0) return;  // answered at once: the extension is gone
  *sent = out;
  if (!call.progress.is_null()) progress_routes_[out] = {session_id, call.progress};
  session.SetCanceller(call.key, [this, out, release] {
    progress_routes_.erase(out);
    parts_.gate.CancelExtension(out);  // its callback never runs
    release();
  });
}

void PageCalls::OnProgress(const Json& params) {
  const auto call = field::Int(params, "id");
  const auto route = call ? progress_routes_.find(*call) : progress_routes_.end();
  if (route == progress_routes_.end()) return;
  Session* session = parts_.sessions.Find(route->second.first);
  if (session == nullptr) return;
  // MCP: progress and total are numbers, message a string.
  Json progress = {{"progressToken", route->second.second},
                   {"progress", field::Number(params, "progress").value_or(0.0)}};
  if (const auto total = field::Number(params, "total")) progress["total"] = *total;
  if (const auto message = field::String(params, "message")) progress["message"] = *message;
  session->Notify(mcp::kProgress, std::move(progress));
}

void PageCalls::OnDebuggerDetached(const Json& params) {
  const auto tab = field::Int(params, "tabId");
  if (!tab) return;
  const std::string reason = field::String(params, "reason").value_or("unknown");
  const std::string text = "the user stopped tabbridge's debugging of tab " + std::to_string(*tab) + " (" + reason +
                           ": \"Cancel\" on the browser's bar) — the next page tool call attaches again; "
                           "ask the user before going on";
  for (auto& [id, session] : parts_.sessions) {
    if (session->focused_tab() != *tab) continue;
    session->Notify(mcp::kMessage, {{"level", "warning"},
                                    {"logger", "tabbridge"},
                                    {"data", {{"tabId", *tab}, {"reason", reason}, {"text", text}}}});
  }
}

void PageCalls::OnConsoleEntry(const Json& params) {
  const auto tab = field::Int(params, "tabId");
  if (!tab) return;
  const std::int64_t tab_id = *tab;
  const std::string level = field::String(params, "level").value_or("error");
  const Tab* page = parts_.tabs.Find(tab_id);
  if (page == nullptr) return;
  for (auto& [id, session] : parts_.sessions) {
    // A page the policy keeps from a session does not speak to it either.
    if (session->focused_tab() != tab_id || !parts_.policy.Allows(*session, policy::Cap::kRead, page->url)) continue;
    session->Notify(mcp::kMessage, {{"level", level == "warn" ? "warning" : "error"},
                                    {"logger", "console"},
                                    {"data",
                                     {{"tabId", tab_id},
                                      {"text", field::String(params, "text").value_or("")},
                                      {"url", field::String(params, "url").value_or("")}}}});
  }
}

}  // namespace tb
