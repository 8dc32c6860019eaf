#include "mcp_shim/client_grants.h"

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/policy_grants.h"
#include "common/protocol.h"

namespace tb {

ClientGrants::ClientGrants(uv_loop_t* loop, std::function<void(const Json&)> send)
    : loop_(loop), send_(std::move(send)) {}

ClientGrants::~ClientGrants() { Close(); }

void ClientGrants::SetDeclared(const Json& elicitation) {
  // 2025-06-18: {}; 2025-11-25: {} means form, or {form: {}, url: {}} — url alone cannot ask this.
  declared_ = elicitation.is_object() && (elicitation.empty() || elicitation.contains("form"));
}

std::optional<ClientGrants::Question> ClientGrants::AskedIn(const Json& result) {
  const Json* structured = field::Find(result, "structuredContent");
  const Json* denied = structured != nullptr ? field::Find(*structured, "denied") : nullptr;
  const Json* ask = denied != nullptr ? field::Find(*denied, "ask") : nullptr;
  if (ask == nullptr || !field::Bool(*ask, "nobody").value_or(false)) return std::nullopt;
  auto site = field::String(*ask, "site");
  auto access = field::String(*ask, "access");
  if (!site || !access || !policy::AccessFromName(*access)) return std::nullopt;
  return Question{.site = std::move(*site), .access = std::move(*access)};
}

void ClientGrants::Ask(const Question& question, OnChoice on_choice) {
  for (auto& [key, open] : open_) {
    if (open.question.site == question.site && open.question.access == question.access) {
      open.waiting.push_back(std::move(on_choice));
      return;
    }
  }
  const Json id = "tabbridge-grant-" + std::to_string(next_id_++);
  const std::string key = rpc::Dump(id);
  const auto access = policy::AccessFromName(question.access).value_or(policy::Access::kRead);
  const std::string message = "tabbridge: the agent wants to " + std::string(policy::Verb(access)) + " " +
                              question.site +
                              " in your browser. Allow it once (this session), always (written to the tabbridge "
                              "policy file), or deny?";
  const Json schema = {
      {"type", "object"},
      {"properties",
       {{"choice",
         {{"type", "string"},
          {"title", "Answer"},
          {"description", "once: this session only; always: kept in the policy file; deny: not for this session"},
          {"enum", {"once", "always", "deny"}}}}}},
      {"required", {"choice"}}};
  Open& open = open_[key];
  open.question = question;
  open.waiting.push_back(std::move(on_choice));
  open.deadline = std::make_unique<Timer>(loop_);
  open.deadline->Start(kGrantAskTimeoutMs, [this, key] {
    spdlog::warn("the MCP client did not answer the site question in {} ms", kGrantAskTimeoutMs);
    Settle(key, std::nullopt);
  });
  spdlog::info("asking the client's user: may the agent {} {}?", policy::Verb(access), question.site);
  send_(rpc::MakeRequest(id, kElicitationCreate, {{"message", message}, {"requestedSchema", schema}}));
}

bool ClientGrants::OnResponse(const rpc::Message& msg) {
  const std::string key = rpc::Dump(msg.id);
  if (!open_.contains(key)) return false;
  if (msg.is_error) {
    spdlog::warn("elicitation/create failed: {}", msg.error.message);
    Settle(key, std::nullopt);
    return true;
  }
  const std::string action = field::String(msg.result, "action").value_or("");
  if (action == "decline") {
    Settle(key, "deny");
    return true;
  }
  const auto choice = field::String(field::Object(msg.result, "content"), "choice");
  const bool valid = choice && (*choice == "once" || *choice == "always" || *choice == "deny");
  Settle(key, action == "accept" && valid ? choice : std::nullopt);
  return true;
}

void ClientGrants::Settle(const std::string& key, std::optional<std::string> choice) {
  const auto it = open_.find(key);
  if (it == open_.end()) return;
  if (choice) answered_.insert(it->second.question.site + " " + it->second.question.access);
  std::vector<OnChoice> waiting = std::move(it->second.waiting);
  open_.erase(it);  // its timer too: this may run inside it (Timer copies its callback first)
  for (auto& on_choice : waiting) on_choice(choice);
}

void ClientGrants::Close() { open_.clear(); }

}  // namespace tb
