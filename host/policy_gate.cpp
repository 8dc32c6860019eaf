#include "host/policy_gate.h"

#include <vector>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/tool_catalog.h"
#include "common/uv_util.h"
#include "host/session.h"

namespace tb {
namespace {

void LogPolicy(const policy::Policy& p) {
  switch (p.source) {
    case policy::Policy::Source::kNone:
      return spdlog::info("policy: no file at {} — the person is asked for each site", p.path);
    case policy::Policy::Source::kFile:
      return spdlog::info("policy: {} rule(s) from {}{}", p.rules.size(), p.path,
                          p.fallback == policy::Default::kDeny  ? " (default deny)"
                          : p.fallback == policy::Default::kAsk ? " (default ask)"
                                                                : "");
    case policy::Policy::Source::kMalformed:
      return spdlog::error("policy: {} is malformed: {} — everything is denied until it is fixed", p.path, p.error);
  }
}

// A tool result's message: what an audit line says of an error or a denial.
std::string MessageOf(const Json& result) {
  for (const auto& part : field::Array(result, "content")) {
    if (const auto text = field::String(part, "text")) return audit::ErrorDetail(*text);  // first line, cut
  }
  return "";
}

}  // namespace

Json PolicySummary(const policy::Policy& p) {
  using Source = policy::Policy::Source;
  Json summary = {{"path", p.path},
                  {"state", p.source == Source::kNone   ? "none"
                            : p.source == Source::kFile ? "file"
                                                        : "malformed"},
                  {"default", p.fallback == policy::Default::kAsk    ? "ask"
                              : p.fallback == policy::Default::kDeny ? "deny"
                                                                     : "allow"},
                  {"rules", p.rules.size()}};
  if (p.source == Source::kMalformed) summary["error"] = p.error;
  return summary;
}

PolicyGate::PolicyGate(uv_loop_t* loop, std::string policy_path, std::string audit_path, std::uint64_t poll_ms)
    : loop_(loop), policy_path_(std::move(policy_path)), poll_ms_(poll_ms) {
  if (!audit_path.empty()) audit_.emplace(std::move(audit_path));
  policy_.path = policy_path_;
}

PolicyGate::~PolicyGate() { Stop(); }

void PolicyGate::Start(std::function<void()> on_change) {
  on_change_ = std::move(on_change);
  if (policy_path_.empty()) return;
  Reload();
  poll_ = NewHandle<uv_fs_poll_t>();
  uv_fs_poll_init(loop_, poll_);
  poll_->data = this;
  const int rc = uv_fs_poll_start(
      poll_,
      [](uv_fs_poll_t* handle, int status, const uv_stat_t*, const uv_stat_t*) {
        // Any change of the file's stat, its creation and its removal included.
        auto* self = static_cast<PolicyGate*>(handle->data);
        // libuv reports a missing file once at the first poll: no change from Start's read.
        if (status == UV_ENOENT && self->policy_.source == policy::Policy::Source::kNone) return;
        self->Reload();
        if (self->on_change_) self->on_change_();
      },
      policy_path_.c_str(), static_cast<unsigned>(poll_ms_));
  if (rc != 0)
    spdlog::warn("policy: cannot watch {}: {} — changes need a browser restart", policy_path_, uv_strerror(rc));
  uv_unref(reinterpret_cast<uv_handle_t*>(poll_));  // watching alone does not keep the host alive
}

void PolicyGate::Stop() {
  if (poll_ == nullptr) return;
  uv_fs_poll_stop(poll_);
  CloseHandle(reinterpret_cast<uv_handle_t*>(poll_));
  poll_ = nullptr;
}

void PolicyGate::Reload() {
  policy_ = policy::Load(policy_path_);
  LogPolicy(policy_);
}

PolicyGate::Verdict PolicyGate::Check(const Session& session, policy::Cap cap, std::string_view url) const {
  if (session.read_only() && cap != policy::Cap::kRead) return Verdict::kDenied;
  const auto decision = policy::Decide(policy_, cap, url);
  if (decision.allowed) return Verdict::kAllowed;
  if (!decision.ask) return Verdict::kDenied;
  if (const auto it = session_grants_.find(session.id()); it != session_grants_.end()) {
    if (const auto answered = it->second.Decides(policy::GrantSite(url), cap)) {
      return *answered ? Verdict::kAllowed : Verdict::kDenied;
    }
  }
  return Verdict::kAsk;
}

void PolicyGate::Answer(std::int64_t session_id, const std::string& site, policy::Access access, bool allow) {
  SessionGrants& grants = session_grants_[session_id];
  if (allow) {
    grants.Allow(site, access);
  } else {
    grants.Deny(site, access);
  }
}

std::expected<std::string, std::string> PolicyGate::AnswerAlways(std::int64_t session_id, const std::string& site,
                                                                 policy::Access access) {
  auto rule = policy_path_.empty() ? std::unexpected(std::string("this host has no policy file"))
                                   : policy::AddGrant(policy_path_, site, policy::Allowed(access));
  if (!rule) {
    Answer(session_id, site, access, true);  // not kept, but the person said yes: this session has it
    return rule;
  }
  Reload();  // in force now, not at the next poll
  if (on_change_) on_change_();
  spdlog::info("policy: the person granted {} on {} for good: {}", policy::Name(access), site, *rule);
  return rule;
}

Json PolicyGate::Grants() const {
  Json grants = Json::array();
  const auto names = [](const auto& caps) {
    Json out = Json::array();
    for (const auto cap : caps) out.push_back(policy::Name(cap));
    return out;
  };
  for (const auto& rule : policy_.rules) {
    if (policy::IsGrant(rule)) {
      grants.push_back({{"site", rule.sites.front().text}, {"access", names(rule.allow)}, {"scope", "always"}});
    }
  }
  for (const auto& [session_id, session] : session_grants_) {
    for (const auto& [site, caps] : session.allowed()) {
      grants.push_back({{"site", site}, {"access", names(caps)}, {"scope", "session"}, {"sessionId", session_id}});
    }
  }
  return grants;
}

std::expected<bool, std::string> PolicyGate::Revoke(const std::string& site, bool always, std::int64_t session_id) {
  if (!always) {
    const auto it = session_grants_.find(session_id);
    return it != session_grants_.end() && it->second.Revoke(site);
  }
  if (policy_path_.empty()) return false;
  auto removed = policy::RemoveGrant(policy_path_, site);
  if (removed && *removed) {
    Reload();
    if (on_change_) on_change_();
  }
  return removed;
}

std::optional<Json> PolicyGate::Deny(const Session& session, std::string_view tool, policy::Cap cap,
                                     std::string_view url, bool nobody) const {
  const auto site = policy::SiteOf(url);
  Json denied = {{"capability", policy::Name(cap)}, {"site", site ? site->Describe() : std::string(url)}};
  std::string message;
  if (session.read_only() && cap != policy::Cap::kRead) {
    message = std::string(tool) + " denied: this session is read-only (tabbridge --read-only) — it may only read pages";
    denied["readOnlySession"] = true;
  } else {
    const auto decision = policy::Decide(policy_, cap, url);
    const Verdict verdict = Check(session, cap, url);
    if (verdict == Verdict::kAllowed) return std::nullopt;
    if (verdict == Verdict::kAsk) {
      const auto access = policy::AccessFor(cap);
      const std::string where = policy::GrantSite(url);
      const std::string fix = "`tabbridge allow " + where +
                              (access == policy::Access::kRead ? "" : " " + std::string(policy::Name(access))) + "`";
      message = std::string(tool) + " on " + where + " needs the person's grant (" + decision.reason + ")";
      message += nobody ? " and nobody can answer in this browser (it runs headless): run " + fix +
                              " or add a rule to " + policy::ShortPath(policy_.path) + ", then call again"
                        : ": a call there asks the person, or run " + fix;
      denied["ask"] = {{"site", where}, {"access", policy::Name(access)}, {"nobody", nobody}};
      denied["policy"] = policy::ShortPath(policy_.path);
      Json result = tools::ErrorResult(message);
      result["structuredContent"] = {{"denied", std::move(denied)}};
      return result;
    }
    if (!decision.allowed && decision.ask) {
      message = std::string(tool) + " denied on " + policy::GrantSite(url) + ": the person denied it for this session";
      denied["person"] = true;
      Json result = tools::ErrorResult(message);
      result["structuredContent"] = {{"denied", std::move(denied)}};
      return result;
    }
    message = policy::DenialMessage(policy_, tool, url, decision);
    denied["rule"] = decision.rule ? Json(*decision.rule + 1) : Json(nullptr);
    denied["policy"] = policy::ShortPath(policy_.path);
  }
  Json result = tools::ErrorResult(message);
  result["structuredContent"] = {{"denied", std::move(denied)}};
  return result;
}

std::optional<audit::Entry> PolicyGate::AuditEntry(const Session& session, std::string_view tool, std::string_view url,
                                                   const Json& result, const AuditNote& note) const {
  if (!audit_) return std::nullopt;
  const bool is_error = field::Bool(result, "isError").value_or(false);
  const Json* structured = is_error ? field::Find(result, "structuredContent") : nullptr;
  const Json* denied = structured != nullptr ? field::Find(*structured, "denied") : nullptr;
  const bool stopped = denied != nullptr && field::Bool(*denied, "afterAction").value_or(false);
  audit::Entry entry;
  entry.session = session.id();
  entry.client = session.client();
  entry.tool = std::string(tool);
  entry.url = std::string(url);
  entry.outcome = stopped ? "stopped" : denied != nullptr ? "denied" : is_error ? "error" : "ok";
  if (denied != nullptr) entry.rule = MessageOf(result);
  std::vector<std::string> detail;
  if (!note.target.empty()) detail.push_back("to " + note.target);
  if (!note.own_tool.empty()) detail.push_back("own tool " + audit::ErrorDetail(note.own_tool));
  if (!note.files.empty()) detail.push_back("files " + note.files);
  if (is_error && denied == nullptr && note.error_text) detail.push_back(MessageOf(result));
  for (const auto& part : detail) entry.detail += (entry.detail.empty() ? "" : ": ") + part;
  return entry;
}

void PolicyGate::WriteAudit(const audit::Entry& entry) {
  if (!audit_) return;
  if (auto ok = audit_->Append(entry); !ok && !audit_failed_) {
    audit_failed_ = true;
    spdlog::error("audit log {}: {} (further failures are not logged)", audit_->path(), ok.error());
  }
}

}  // namespace tb
