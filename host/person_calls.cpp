// Asking the person (docs/policy.md "Asking the person"): a call on a site the
// policy leaves to them waits for their answer on the extension's surface
// and starts over; ask_person hands them the browser; the surface's clicks,
// the popup's Revoke and the client's elicitation answers come in here.
#include <algorithm>
#include <string>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/page_text.h"
#include "common/policy_grants.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "host/host.h"

namespace tb {
namespace {

// `text` cut to at most `max` bytes on a whole UTF-8 sequence, "…" included.
std::string CutUtf8(std::string text, std::size_t max) {
  if (text.size() <= max) return text;
  std::size_t end = max > 3 ? max - 3 : 0;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text + "…";
}

// Who asks, as the surface shows it next to the site: the client's own name,
// on one line, without invisible or direction-changing characters (a name
// must not make the sentence read as another site), short.
std::string AskerName(const Session& session) {
  const std::string name = CutUtf8(page_text::Clean(session.client_name(), page_text::Lines::kJoin), 48);
  return name.empty() ? "An MCP client" : name;
}

// A session has at most this many questions waiting for the person: a model
// (or the page steering it) must not bury them in windows.
constexpr std::size_t kMaxOpenQuestions = 3;

std::string TooManyQuestions(const std::string& name) {
  return name + ": " + std::to_string(kMaxOpenQuestions) +
         " questions of this session are already waiting for the person — wait for their answers, then call again";
}

}  // namespace

std::optional<std::string> Host::FirstAsk(const Session& session, policy::Cap cap,
                                          const std::vector<std::string>& urls) const {
  std::optional<std::string> asked;
  for (const auto& url : urls) {
    const auto verdict = policy_.Check(session, cap, url);
    if (verdict == PolicyGate::Verdict::kDenied) return std::nullopt;  // a denial answers at once
    if (verdict == PolicyGate::Verdict::kAsk && !asked) asked = url;
  }
  if (session.read_only() && cap != policy::Cap::kRead) return std::nullopt;
  return asked;
}

void Host::AskGrant(Session& session, const std::string& request_key, const std::string& name, policy::Cap cap,
                    const std::string& url, std::function<void(Session&, Reply)> rerun, Reply reply) {
  if (!PersonCanAnswer()) {
    // The denial says how to grant it; its denied.ask.nobody lets the shim ask its client.
    reply = WithAuditLine(session, name, cap, {url}, Json::object(), std::move(reply));
    return reply(*policy_.Deny(session, name, cap, url, /*nobody=*/true));
  }
  const std::string site = policy::GrantSite(url);
  const policy::Access access = policy::AccessFor(cap);
  PersonAsks::Question question{.kind = "grant",
                                .session_id = session.id(),
                                .client = AskerName(session),
                                .tab_id = session.focused_tab(),
                                .site = site,
                                .access = std::string(policy::Name(access)),
                                .message = "",
                                .timeout_ms = options_.grant_ask_ms};
  spdlog::info("asking the person: may session {} ({}) {} {}?", session.id(), session.client(), policy::Verb(access),
               site);
  const auto session_id = session.id();
  if (!asks_.Joins(question) && asks_.OpenFor(session.id()) >= kMaxOpenQuestions) {
    return reply(tools::ErrorResult(TooManyQuestions(name)));
  }
  const auto waits_s = std::max<std::uint64_t>(1, options_.grant_ask_ms / 1000);
  const auto ticket = asks_.Ask(std::move(question), [this, session_id, name, site, access, rerun, reply,
                                                      waits_s](const std::string& choice) {
    Session* s = FindSession(session_id);
    if (s == nullptr) return;  // it left: nobody to answer
    if (choice.empty()) {
      return reply(tools::ErrorResult(
          name + ": the person did not answer the question about " + site + " (it waits " + std::to_string(waits_s) +
          " s) — nothing was done; call it again to ask again, or ask the user "
          "to run `tabbridge allow " +
          site + (access == policy::Access::kRead ? "" : " " + std::string(policy::Name(access))) + "`"));
    }
    if (choice == "always") {
      if (auto kept = policy_.AnswerAlways(session_id, site, access); !kept) {
        spdlog::warn("the person's \"Always\" for {} could not be kept: {} (allowed for this session)", site,
                     kept.error());
      }
    } else {
      policy_.Answer(session_id, site, access, choice == "once");
    }
    spdlog::info("the person answered {} for {} {}", choice, policy::Name(access), site);
    for (auto& [id, other] : sessions_) other->RefreshTools();  // the page's own tools may show now
    NoteStateChanged();                                         // the popup lists grants
    rerun(*s, reply);
  });
  session.SetCanceller(request_key, [this, ticket] { asks_.Cancel(ticket); });
}

void Host::AskPerson(Session& session, const std::string& request_key, const Json& args, Reply reply) {
  const std::string message = CutUtf8(field::String(args, "message").value_or(""), kMaxAskPersonMessageChars);
  const auto seconds = std::clamp<std::int64_t>(
      field::Int(args, "timeoutSeconds").value_or(static_cast<std::int64_t>(kAskPersonDefaultSeconds)), 1,
      static_cast<std::int64_t>(kAskPersonMaxSeconds));
  if (!PersonCanAnswer()) {
    return reply(tools::ErrorResult(
        "ask_person: nobody can see this browser (it runs headless) — ask the user in the conversation instead, "
        "or have them connect a browser with a window"));
  }
  if (asks_.OpenFor(session.id()) >= kMaxOpenQuestions)
    return reply(tools::ErrorResult(TooManyQuestions("ask_person")));
  // The site the tab is on goes with the model's words: they alone must not say where to log in.
  const auto focus = session.focused_tab();
  const Tab* tab = focus ? tabs_.Find(*focus) : nullptr;
  PersonAsks::Question question{.kind = "handoff",
                                .session_id = session.id(),
                                .client = AskerName(session),
                                .tab_id = focus,
                                .site = tab != nullptr ? policy::GrantSite(tab->url) : "",
                                .access = "",
                                .message = message,
                                .timeout_ms = static_cast<std::uint64_t>(seconds) * 1000};
  const auto session_id = session.id();
  const auto ticket = asks_.Ask(std::move(question), [this, session_id, seconds, reply](const std::string& choice) {
    Session* s = FindSession(session_id);
    if (s == nullptr) return;
    Json result = {{"answer", choice.empty() ? "no answer" : choice == "done" ? "done" : "cannot"}};
    // Where the tab is now, as the session may see it (its title and URL need read there).
    const auto focused = s->focused_tab();
    if (const Tab* now = focused ? tabs_.Find(*focused) : nullptr) result["tab"] = TabSummary(*now, *s);
    if (choice.empty()) {
      result["note"] = "the person did not answer within " + std::to_string(seconds) + " s";
    } else if (choice == "cannot") {
      result["note"] = "the person could not do it: ask them in the conversation what to do";
    }
    reply(tools::Result(std::move(result)));
  });
  session.SetCanceller(request_key, [this, ticket] { asks_.Cancel(ticket); });
}

std::expected<Json, rpc::Error> Host::AnswerFromPerson(const Json& params) {
  const std::string what(ext_request::kPersonAnswer);
  const auto ask_id = field::Int(params, "askId");
  const auto choice = field::String(params, "choice");
  if (!ask_id) return std::unexpected(rpc::InvalidParams(what + " needs params.askId (an integer)"));
  if (!choice) return std::unexpected(rpc::InvalidParams(what + " needs params.choice (a string)"));
  if (auto ok = asks_.Answer(*ask_id, *choice); !ok) {
    return std::unexpected(rpc::Error{rpc_error::kInvalidArgument, ok.error(), nullptr});
  }
  return Json{{"ok", true}};
}

std::expected<Json, rpc::Error> Host::RevokeGrant(const Json& params) {
  const std::string what(ext_request::kGrantRevoke);
  const auto site = field::String(params, "site");
  const auto scope = field::String(params, "scope");
  if (!site) return std::unexpected(rpc::InvalidParams(what + " needs params.site (a string)"));
  if (!scope || (*scope != "session" && *scope != "always"))
    return std::unexpected(rpc::InvalidParams(what + " needs params.scope (\"session\" or \"always\")"));
  const auto session_id = field::Int(params, "sessionId");
  if (*scope == "session" && !session_id)
    return std::unexpected(rpc::InvalidParams(what + " with scope session needs params.sessionId (an integer)"));
  auto revoked = policy_.Revoke(*site, *scope == "always", session_id.value_or(0));
  if (!revoked) return std::unexpected(rpc::Error{rpc_error::kInvalidArgument, revoked.error(), nullptr});
  if (*revoked) {
    spdlog::info("popup: revoked the {} grant of {}", *scope, *site);
    for (auto& [id, session] : sessions_) session->RefreshTools();
    NoteStateChanged();
  }
  return Json{{"revoked", *revoked}};
}

std::expected<Json, rpc::Error> Host::GrantFromClient(Session& session, const Json& params) {
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
  if (PersonCanAnswer() || policy::GrantSite(url) != *site ||
      policy_.Check(session, cap, url) != PolicyGate::Verdict::kAsk) {
    return std::unexpected(rpc::Error{rpc_error::kInvalidArgument,
                                      "nothing about " + *site + " is waiting for the person's answer", nullptr});
  }
  Json result = {{"granted", *choice != "deny"}};
  if (*choice == "always") {
    auto kept = policy_.AnswerAlways(session.id(), *site, *access);
    if (kept) result["rule"] = *kept;
    if (!kept) result["notKept"] = kept.error();
  } else {
    policy_.Answer(session.id(), *site, *access, *choice == "once");
  }
  spdlog::info("session {} ({}): the person answered {} for {} {} through the client", session.id(), session.client(),
               *choice, policy::Name(*access), *site);
  for (auto& [id, other] : sessions_) other->RefreshTools();
  NoteStateChanged();
  return result;
}

}  // namespace tb
