#include "host/person_desk.h"

#include <algorithm>
#include <string>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/page_text.h"
#include "common/policy_grants.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"

namespace tb {

void PersonDesk::AskPerson(Session& session, const ToolCall& call, Reply reply) {
  const Json& args = call.args;
  const std::string message = page_text::Cut(field::String(args, "message").value_or(""), kMaxAskPersonMessageChars);
  const auto seconds = std::clamp<std::int64_t>(
      field::Int(args, "timeoutSeconds").value_or(static_cast<std::int64_t>(kAskPersonDefaultSeconds)), 1,
      static_cast<std::int64_t>(kAskPersonMaxSeconds));
  if (!parts_.person_can_answer()) {
    return reply(tools::ErrorResult(
        "ask_person: nobody can see this browser (it runs headless) — ask the user in the conversation instead, "
        "or have them connect a browser with a window"));
  }
  if (parts_.asks.OpenFor(session.id()) >= kMaxOpenQuestions)
    return reply(tools::ErrorResult(TooManyQuestions("ask_person")));
  // The site the tab is on goes with the model's words: they alone must not say where to log in.
  const auto focus = session.focused_tab();
  const Tab* tab = focus ? parts_.tabs.Find(*focus) : nullptr;
  // No channel to the person about a site the session may not read: its words next to that site would borrow it.
  if (tab != nullptr && parts_.policy.Check(session, policy::Cap::kRead, tab->url) == PolicyGate::Verdict::kDenied) {
    return reply(tools::ErrorResult(
        "ask_person: the focused tab is on a site the policy denies this session — tabbridge does not ask the "
        "person about it; focus a tab you may read, or ask the user in the conversation"));
  }
  PersonAsks::Question question{.kind = "handoff",
                                .session_id = session.id(),
                                .client = session.client_name(),
                                .tab_id = focus,
                                .site = tab != nullptr ? policy::GrantSite(tab->url) : "",
                                .access = "",
                                .message = message,
                                .timeout_ms = static_cast<std::uint64_t>(seconds) * 1000};
  const auto session_id = session.id();
  const auto ticket =
      parts_.asks.Ask(std::move(question), [this, session_id, seconds, reply](const std::string& choice) {
        Session* s = parts_.find_session(session_id);
        if (s == nullptr) return;
        Json result = {{"answer", choice.empty() ? "no answer" : choice == "done" ? "done" : "cannot"}};
        // Where the tab is now, as the session may see it (its title and URL need read there).
        const auto focused = s->focused_tab();
        if (const Tab* now = focused ? parts_.tabs.Find(*focused) : nullptr)
          result["tab"] = parts_.tab_summary(*now, *s);
        if (choice.empty()) {
          result["note"] = "the person did not answer within " + std::to_string(seconds) + " s";
        } else if (choice == "cannot") {
          result["note"] = "the person could not do it: ask them in the conversation what to do";
        }
        reply(tools::Result(std::move(result)));
      });
  session.SetCanceller(call.key, [this, ticket] { parts_.asks.Cancel(ticket); });
}

std::expected<Json, rpc::Error> PersonDesk::AnswerFromPerson(const Json& params) {
  const std::string what(ext_request::kPersonAnswer);
  const auto ask_id = field::Int(params, "askId");
  const auto choice = field::String(params, "choice");
  if (!ask_id) return std::unexpected(rpc::InvalidParams(what + " needs params.askId (an integer)"));
  if (!choice) return std::unexpected(rpc::InvalidParams(what + " needs params.choice (a string)"));
  if (auto ok = parts_.asks.Answer(*ask_id, *choice); !ok) {
    return std::unexpected(rpc::Error{rpc_error::kInvalidArgument, ok.error(), nullptr});
  }
  return Json{{"ok", true}};
}

std::expected<Json, rpc::Error> PersonDesk::RevokeGrant(const Json& params) {
  const std::string what(ext_request::kGrantRevoke);
  const auto site = field::String(params, "site");
  const auto scope = field::String(params, "scope");
  if (!site) return std::unexpected(rpc::InvalidParams(what + " needs params.site (a string)"));
  if (!scope || (*scope != "session" && *scope != "always"))
    return std::unexpected(rpc::InvalidParams(what + " needs params.scope (\"session\" or \"always\")"));
  const auto session_id = field::Int(params, "sessionId");
  if (*scope == "session" && !session_id)
    return std::unexpected(rpc::InvalidParams(what + " with scope session needs params.sessionId (an integer)"));
  auto revoked = parts_.policy.Revoke(*site, *scope == "always", session_id.value_or(0));
  if (!revoked) return std::unexpected(rpc::Error{rpc_error::kInvalidArgument, revoked.error(), nullptr});
  if (*revoked) {
    spdlog::info("popup: revoked the {} grant of {}", *scope, *site);
    parts_.grants_changed();
  }
  return Json{{"revoked", *revoked}};
}

std::expected<Json, rpc::Error> PersonDesk::GrantFromClient(Session& session, const Json& params) {
  const std::string what(shim_method::kGrant);
  const auto site = field::String(params, "site");
  const auto access = policy::AccessFromName(field::String(params, "access").value_or(""));
  const auto choice = field::String(params, "choice");
  if (!site) return std::unexpected(rpc::InvalidParams(what + " needs params.site (a string)"));
  if (!access) return std::unexpected(rpc::InvalidParams(what + " needs params.access (read, act, eval, download)"));
  if (!choice || (*choice != "once" && *choice != "always" && *choice != "deny"))
    return std::unexpected(rpc::InvalidParams(what + " needs params.choice (once, always, deny)"));
  // Only where the host cannot ask the person itself, and only a question
  // this session would be asked: the client's answer never overrides the
  // file (a rule's deny, or a site it already decides).
  const std::string url = "https://" + *site + "/";
  const auto cap = policy::Allowed(*access).back();
  if (parts_.person_can_answer() || policy::GrantSite(url) != *site ||
      parts_.policy.Check(session, cap, url) != PolicyGate::Verdict::kAsk) {
    return std::unexpected(rpc::Error{rpc_error::kInvalidArgument,
                                      "nothing about " + *site + " is waiting for the person's answer", nullptr});
  }
  Json result = {{"granted", *choice != "deny"}};
  if (*choice == "always") {
    auto kept = parts_.policy.AnswerAlways(session.id(), *site, *access);
    if (kept) result["rule"] = *kept;
    if (!kept) result["notKept"] = kept.error();
  } else {
    parts_.policy.Answer(session.id(), *site, *access, *choice == "once");
  }
  spdlog::info("session {} ({}): the person answered {} for {} {} through the client", session.id(), session.client(),
               *choice, policy::Name(*access), *site);
  parts_.grants_changed();
  return result;
}

}  // namespace tb
