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
      return spdlog::info("policy: no file at {} — read, act and navigate allowed everywhere", p.path);
    case policy::Policy::Source::kFile:
      return spdlog::info("policy: {} rule(s) from {}{}", p.rules.size(), p.path,
                          p.default_deny ? " (default deny)" : "");
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

bool PolicyGate::Allows(const Session& session, policy::Cap cap, std::string_view url) const {
  if (session.read_only() && cap != policy::Cap::kRead) return false;
  return policy::Decide(policy_, cap, url).allowed;
}

std::optional<Json> PolicyGate::Deny(const Session& session, std::string_view tool, policy::Cap cap,
                                     std::string_view url) const {
  const auto site = policy::SiteOf(url);
  Json denied = {{"capability", policy::Name(cap)}, {"site", site ? site->Describe() : std::string(url)}};
  std::string message;
  if (session.read_only() && cap != policy::Cap::kRead) {
    message = std::string(tool) + " denied: this session is read-only (tabbridge --read-only) — it may only read pages";
    denied["readOnlySession"] = true;
  } else {
    const auto decision = policy::Decide(policy_, cap, url);
    if (decision.allowed) return std::nullopt;
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
