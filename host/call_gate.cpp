#include "host/call_gate.h"

#include <algorithm>
#include <memory>
#include <utility>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/policy_grants.h"
#include "common/protocol.h"
#include "host/read_provenance.h"

namespace tb {
namespace {

// upload_file's files as the shim read them (mcp_shim/upload_files.h), one per
// path, checked for shape and size: the socket's peer is this user, but a
// client of its own may speak to it without the shim.
std::expected<Json, std::string> UploadedFiles(const Json& meta, const Json& paths) {
  const Json* files = field::Find(meta, kUploadFilesMeta);
  if (files == nullptr || !files->is_array()) {
    return std::unexpected(
        "the files' contents did not come with the call — the `tabbridge` that sent it reads "
        "them; reinstall tabbridge so the shim and the host match");
  }
  if (files->size() != paths.size()) return std::unexpected("one file per path was expected");
  std::size_t total = 0;
  for (const Json& file : *files) {
    const auto name = field::String(file, "name");
    const auto data = field::String(file, "data");
    if (!name || !data || name->empty()) return std::unexpected("a file came without its name or contents");
    total += data->size() / 4 * 3;
  }
  if (total > kMaxUploadBytes + 2 * files->size()) return std::unexpected("the files are larger than the limit");
  return *files;
}

// Where the call really went, as the extension found it (a link it resolved,
// the URL a download was redirected to): the audit line's target. Taken out
// of the result: it is for the log, not for the model.
void TakeWentTo(Json& result, AuditNote& note) {
  if (!result.is_object() || !result.contains("_meta") || !result["_meta"].is_object()) return;
  Json* meta = &result["_meta"];
  const auto went = meta->find(std::string(ext_method::kWentToMeta));
  if (went == meta->end()) return;
  const std::string link = field::String(*went, "link").value_or("");
  const std::string final_url = field::String(*went, "url").value_or("");
  std::string target = link.empty() ? note.target : "link " + link;
  if (!final_url.empty() && final_url != link && final_url != note.target)
    target += (target.empty() ? "" : " redirected to ") + final_url;
  if (!target.empty()) note.target = std::move(target);
  meta->erase(went);
  if (meta->empty()) result.erase("_meta");
}

}  // namespace

CallGate::CallGate(PolicyGate& policy, const TabTable& tabs, PersonAsks& asks, ExtensionLink& extension,
                   Options options)
    : policy_(policy), tabs_(tabs), asks_(asks), extension_(extension), options_(std::move(options)) {}

void CallGate::Admit(Session& session, ToolCall call, Run run, Reply reply) {
  const Json* tool = tools::Find(call.name);
  const tools::ToolPolicy* declared = tools::PolicyOf(call.name);
  if (tool == nullptr || declared == nullptr) return reply(tools::ErrorResult("the host has no tool " + call.name));
  // 1. A page tool is checked against this session's variant of it (caps
  // widen some schemas, e.g. read_page's html mode); one it lacks, against
  // the base schema, and then the answer says which capability turns it on.
  const std::optional<Json> variant = tools::PageTool(call.name, session.caps());
  if (auto ok = tools::CheckArguments(variant ? *variant : *tool, call.args); !ok) {
    return reply(tools::ErrorResult(call.name + ": " + ok.error()));
  }
  // A page tool this session's caps do not turn on goes no further: no
  // question to the person for a capability the session does not have (an
  // "Always" for eval asked by a session without --caps eval).
  if (tools::IsPageTool(call.name) && !variant) {
    return reply(tools::ErrorResult(call.name + " is not enabled — start tabbridge with --caps " +
                                    std::string(tools::RequiredCap(call.name))));
  }
  // 2. The files go with the call: the extension gets the bytes and names, no
  // path; the resolved paths stay for the audit line (the files sent,
  // wherever a link pointed).
  if (!declared->audit.files_arg.empty() && variant) {
    auto files = UploadedFiles(call.meta, field::Array(call.args, declared->audit.files_arg));
    if (!files) return reply(tools::ErrorResult(call.name + ": " + files.error()));
    Json resolved = Json::array();
    for (Json& file : *files) {
      if (const auto path = field::String(file, "path")) resolved.push_back(*path);
      file.erase("path");
    }
    if (resolved.size() == files->size()) call.args[std::string(declared->audit.files_arg)] = std::move(resolved);
    call.args["files"] = std::move(*files);  // the schema the model sees has paths only
  }
  call.meta = Json::object();  // read: the files are in the arguments now
  Decide(session, std::move(call), *declared, std::move(run), std::move(reply));
}

void CallGate::AdmitOwn(Session& session, ToolCall call, Run run, Reply reply) {
  Decide(session, std::move(call), tools::OwnToolPolicy(), std::move(run), std::move(reply));
}

void CallGate::Decide(Session& session, ToolCall call, const tools::ToolPolicy& declared, Run run, Reply reply) {
  // 3. What the tool declares, and nothing else, is decided.
  const auto targets = TargetsOf(declared.targets, call.args, session.focused_tab(),
                                 [this](std::int64_t id) -> std::optional<std::string> {
                                   const Tab* tab = tabs_.Find(id);
                                   return tab != nullptr ? std::optional(tab->url) : std::nullopt;
                                 });
  if (!targets) return reply(tools::ErrorResult(call.name + ": " + targets.error()));
  if (const auto cap = declared.cap) {
    // 4. Asked first; the answer is a grant or a denial, and the call is decided again.
    if (const auto asked = FirstAsk(session, *cap, targets->urls)) {
      const tools::ToolPolicy* kept = &declared;  // the catalog's: it outlives the question
      return AskGrant(
          session, call, declared, *targets, *asked,
          [this, call, kept, run](Session& s, Reply r) { Decide(s, call, *kept, run, std::move(r)); },
          std::move(reply));
    }
    // 5. Every answer from here on is audited, the denial too.
    reply = WithAuditLine(session, call.name, declared, *targets, call.args, std::move(reply));
    if (auto denial = Denial(session, call.name, *cap, targets->urls)) return reply(std::move(*denial));
  }
  run(session, call, std::move(reply));
}

std::optional<std::string> CallGate::FirstAsk(const Session& session, policy::Cap cap,
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

void CallGate::AskGrant(Session& session, const ToolCall& call, const tools::ToolPolicy& declared,
                        const CallTargets& targets, const std::string& url, std::function<void(Session&, Reply)> rerun,
                        Reply reply) {
  const policy::Cap cap = *declared.cap;
  const std::string& name = call.name;
  if (!options_.person_can_answer()) {
    // The denial says how to grant it; its denied.ask.nobody lets the shim ask its client.
    reply = WithAuditLine(session, name, declared, targets, call.args, std::move(reply));
    return reply(*policy_.Deny(session, name, cap, url, /*nobody=*/true));
  }
  const std::string site = policy::GrantSite(url);
  const policy::Access access = policy::AccessFor(cap);
  PersonAsks::Question question{.kind = "grant",
                                .session_id = session.id(),
                                .client = session.client_name(),
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
    Session* s = options_.find_session(session_id);
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
    options_.after_person_answered();  // the page's own tools may show now; the popup lists grants
    rerun(*s, reply);
  });
  session.SetCanceller(call.key, [this, ticket] { asks_.Cancel(ticket); });
}

std::optional<Json> CallGate::Denial(const Session& session, const std::string& name, policy::Cap cap,
                                     const std::vector<std::string>& urls) const {
  // A read-only session is refused whatever it aims at, even a tab we do not know.
  if (session.read_only() && cap != policy::Cap::kRead) return policy_.Deny(session, name, cap, "");
  for (const auto& url : urls) {
    if (auto denial = policy_.Deny(session, name, cap, url)) return denial;
  }
  return std::nullopt;
}

CallGate::Reply CallGate::WithAuditLine(const Session& session, const std::string& name,
                                        const tools::ToolPolicy& declared, const CallTargets& targets, const Json& args,
                                        Reply reply) {
  if (!declared.cap || !PolicyGate::IsAudited(*declared.cap)) return reply;
  AuditNote note;
  note.target = targets.goes_to;
  const tools::AuditFields& fields = declared.audit;
  if (!fields.own_tool_arg.empty()) note.own_tool = field::String(args, fields.own_tool_arg).value_or("");
  for (const Json& path : fields.files_arg.empty() ? Json::array() : field::Array(args, fields.files_arg)) {
    if (path.is_string()) note.files += (note.files.empty() ? "" : ", ") + path.get<std::string>();
  }
  note.error_text = fields.error_text;  // opt-in per tool (tools::AuditFields): a new tool logs none
  return [this, session_id = session.id(), name, url = targets.tab_url, note,
          reply = std::move(reply)](Json result) mutable {
    TakeWentTo(result, note);
    const Session* s = options_.find_session(session_id);
    // Logged before the answer leaves: the socket write may complete at once,
    // and whoever reads the log after the answer must find the call there.
    if (auto entry = s != nullptr ? policy_.AuditEntry(*s, name, url, result, note) : std::nullopt) {
      policy_.WriteAudit(*entry);
    }
    reply(std::move(result));
  };
}

std::int64_t CallGate::CallExtension(ExtensionCall call, Reply reply, OnAnswer on_answer) {
  auto id = std::make_shared<std::int64_t>(0);  // known once Call returns
  const std::int64_t session_id = call.session_id;
  const bool decides = call.decides;
  std::string tool = call.tool;
  const std::int64_t sent = extension_.Call(
      call.method, std::move(call.params),
      [this, id, session_id, tool, cap = call.cap, settled = std::move(call.settled), reply,
       on_answer = std::move(on_answer)](std::expected<Json, rpc::Error> outcome) {
        deciding_.erase(*id);
        if (settled) settled();
        // 6. Where the call went, decided again before its part (and the model) sees the answer.
        if (auto instead = RecheckAfter(session_id, tool, cap, outcome)) return reply(std::move(*instead));
        on_answer(std::move(outcome), reply);
      },
      call.deadline_ms);
  *id = sent;
  if (sent != 0 && decides) deciding_[sent] = {session_id, std::move(tool)};
  return sent;
}

void CallGate::CancelExtension(std::int64_t call) {
  deciding_.erase(call);
  extension_.Cancel(call);  // its callback never runs
}

std::expected<Json, rpc::Error> CallGate::DecideForCall(const Json& params) {
  const std::string what(ext_request::kPolicyDecide);
  const auto call = field::Int(params, "call");
  const auto url = field::String(params, "url");
  const auto cap_name = field::String(params, "capability");
  if (!call) return std::unexpected(rpc::InvalidParams(what + " needs params.call (an integer)"));
  if (!url) return std::unexpected(rpc::InvalidParams(what + " needs params.url (a string)"));
  const auto cap = cap_name ? policy::CapFromName(*cap_name) : std::nullopt;
  if (!cap)
    return std::unexpected(rpc::InvalidParams(what + " needs params.capability (read, act, navigate, eval, download)"));
  const auto found = deciding_.find(*call);
  const Session* session = found != deciding_.end() ? options_.find_session(found->second.first) : nullptr;
  if (session == nullptr) {
    return Json{{"allowed", false},
                {"result", tools::ErrorResult("the call is over (answered, cancelled, or its session left)")}};
  }
  if (auto denial = policy_.Deny(*session, found->second.second, *cap, *url)) {
    return Json{{"allowed", false}, {"result", std::move(*denial)}};
  }
  return Json{{"allowed", true}};
}

std::optional<Json> CallGate::RecheckAfter(std::int64_t session_id, const std::string& name, policy::Cap cap,
                                           std::expected<Json, rpc::Error>& outcome) {
  const Session* session = options_.find_session(session_id);
  if (outcome && session != nullptr) JudgeReads(policy_, *session, name, *outcome);  // every block by where it was read
  if (!outcome) {
    if (outcome.error().code != rpc_error::kPageMoved) return std::nullopt;
    const std::string url = field::String(outcome.error().data, "url").value_or("");
    if (session != nullptr) {
      if (auto denial = policy_.Deny(*session, name, cap, url)) return denial;
    }
    const auto site = policy::SiteOf(url);
    return tools::ErrorResult(name + ": the tab moved to " + (site ? site->Describe() : std::string("another page")) +
                              " before the call ran — nothing was done; call it again");
  }
  const Json* found = outcome->is_object() ? field::Find(*outcome, "_meta") : nullptr;
  if (found == nullptr || !found->is_object()) return std::nullopt;
  Json& meta = (*outcome)["_meta"];
  const Json went = field::Any(meta, ext_method::kNavigatedToMeta);
  meta.erase(std::string(ext_method::kNavigatedToMeta));
  if (meta.empty()) outcome->erase("_meta");
  if (went.is_null() || session == nullptr) return std::nullopt;
  // One URL, or several: where the action sent the tab and the document
  // whose text the answer holds (a page a press landed on, read after a slow
  // redirect or a script took the tab further). Every one is decided; a mark
  // the host cannot read answers nothing of the result (fail closed).
  std::vector<std::string> urls;
  bool readable = went.is_string() || went.is_array();
  if (went.is_string()) urls.push_back(went.get<std::string>());
  for (const Json& url : went.is_array() ? went : Json::array()) {
    if (url.is_string()) {
      urls.push_back(url.get<std::string>());
    } else {
      readable = false;
    }
  }
  if (!readable) {
    return tools::ErrorResult(name + ": the page went somewhere the host could not tell — nothing of it was read " +
                              "(list_tabs shows the tab)");
  }
  // A navigation an action caused counts as `navigate` (a read that waited
  // across one, only as `read`); what the result says of the new page — its
  // title, its text — is `read`.
  std::vector<std::pair<const char*, policy::Cap>> needed = {{"read", policy::Cap::kRead}};
  if (cap != policy::Cap::kRead) needed.insert(needed.begin(), {"navigate", policy::Cap::kNavigate});
  for (const std::string& url : urls) {
    for (const auto& [label, need] : needed) {
      if (auto denial = policy_.Deny(*session, label, need, url)) {
        const auto site = policy::SiteOf(url);
        Json& text = (*denial)["content"][0]["text"];
        text = name + ": the page went to " + (site ? site->Describe() : std::string("another page")) + " — " +
               text.get<std::string>() + "; nothing of that page was read (list_tabs shows the tab)";
        (*denial)["structuredContent"]["denied"]["afterAction"] = true;  // it ran: the audit line says "stopped"
        return denial;
      }
    }
  }
  return std::nullopt;
}

}  // namespace tb
