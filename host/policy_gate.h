// The policy as the host enforces it (docs/policy.md): the file's rules,
// re-read when the file changes, narrowed by each session (--read-only), and
// the audit log of every call that acts, navigates, evaluates or downloads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <uv.h>

#include "common/audit_log.h"
#include "common/capabilities.h"
#include "common/jsonrpc.h"
#include "common/policy.h"
#include "common/policy_grants.h"
#include "host/session_grants.h"

namespace tb {

class Session;

// How often the file's stat is compared: an edit takes effect within this
// (a poll, not inotify: the file and its directory may not exist yet).
inline constexpr std::uint64_t kPolicyPollMs = 500;

// What an audit line says of a call besides its outcome.
struct AuditNote {
  std::string target;      // where the call went (open_tab, navigate {url}, download_file {url})
  std::string own_tool;    // call_webmcp_tool: the page's tool it ran
  std::string files;       // upload_file: the files sent (resolved paths, comma-separated)
  bool error_text = true;  // false for tools whose errors may quote typed values
};

// The policy this host enforces, for doctor and the popup (the browser's
// environment chose the file): {path, state: none|file|malformed, rules, error?}.
Json PolicySummary(const policy::Policy& p);

class PolicyGate {
 public:
  // An empty `policy_path` means no file (everything allowed); an empty
  // `audit_path`, no audit log (host unit tests).
  PolicyGate(uv_loop_t* loop, std::string policy_path, std::string audit_path, std::uint64_t poll_ms = kPolicyPollMs);
  ~PolicyGate();
  PolicyGate(const PolicyGate&) = delete;
  PolicyGate& operator=(const PolicyGate&) = delete;

  // Reads the file and watches it; `on_change` runs after a re-read that
  // changed the policy (sessions' tool lists may change with it).
  void Start(std::function<void()> on_change);
  void Stop();  // idempotent
  const policy::Policy& policy() const { return policy_; }

  // Whether `session` may do `cap` on `url`: its own narrowing, then the
  // file, then — where the file leaves it to the person — their answers.
  enum class Verdict { kAllowed, kDenied, kAsk };
  Verdict Check(const Session& session, policy::Cap cap, std::string_view url) const;
  bool Allows(const Session& session, policy::Cap cap, std::string_view url) const {
    return Check(session, cap, url) == Verdict::kAllowed;
  }
  // nullopt when allowed; else the model's tool result for the denial:
  // isError, a message naming tool, site, rule and file, and
  // structuredContent.denied {capability, site, rule?, policy} for clients.
  // A question nobody has answered yet is a denial here too, saying how to
  // get the grant (denied.ask {site, access}); `nobody`: no person can be
  // asked in this browser (denied.ask.nobody: the shim may ask its client).
  std::optional<Json> Deny(const Session& session, std::string_view tool, policy::Cap cap, std::string_view url,
                           bool nobody = false) const;

  // --- the person's answers ---
  // "Allow once" / "Deny": for `session_id` until it ends.
  void Answer(std::int64_t session_id, const std::string& site, policy::Access access, bool allow);
  // "Always": a rule in the file (policy_grants.h), in force at once. A file
  // that cannot be written keeps the answer for the session instead, so the
  // call still goes on; the error says why it was not kept.
  std::expected<std::string, std::string> AnswerAlways(std::int64_t session_id, const std::string& site,
                                                       policy::Access access);
  void ForgetSession(std::int64_t session_id) { session_grants_.erase(session_id); }
  // Every grant: the file's grant rules and each session's answers, for the
  // popup: [{site, access: [caps], scope: always|session, sessionId?}].
  Json Grants() const;
  // The popup's Revoke. scope "always": the file's grant rules of `site`;
  // "session": what `session_id` was allowed there. Returns whether there was any.
  std::expected<bool, std::string> Revoke(const std::string& site, bool always, std::int64_t session_id);
  // Whether a finished call with capability `cap` goes to the audit log.
  static bool IsAudited(policy::Cap cap) { return caps::Audited(cap); }
  // The audit line of a finished call (nullopt without an audit log): its
  // outcome read from `result` — ok, error, denied, or stopped (it ran, then
  // landed where the policy denies). Written with WriteAudit once the model
  // has its answer: the file write is not on the call's path.
  std::optional<audit::Entry> AuditEntry(const Session& session, std::string_view tool, std::string_view url,
                                         const Json& result, const AuditNote& note = {}) const;
  void WriteAudit(const audit::Entry& entry);

 private:
  void Reload();

  uv_loop_t* loop_;
  std::string policy_path_;
  std::uint64_t poll_ms_;
  policy::Policy policy_;
  std::optional<audit::Log> audit_;
  bool audit_failed_ = false;  // logged once, not on every call
  std::map<std::int64_t, SessionGrants> session_grants_;
  std::function<void()> on_change_;
  uv_fs_poll_t* poll_ = nullptr;
};

}  // namespace tb
