// The one way into the host's tools (docs/security.md "The call gate"). Every
// tools/call — the client's, each step of run_steps, the rerun after the
// person answered — passes it in this order:
//   1. its arguments, checked against the session's variant of the tool;
//   2. upload_file's files, checked and put into the arguments;
//   3. the policy targets the tool declares in the catalog (tools::PolicyTargets;
//      no tool is named here, and one that declares nothing is refused);
//   4. the person asked where the policy leaves it to them (the call starts
//      over at 3 with their answer);
//   5. the audit line wrapped around the answer, then the denial, if any;
//   6. the tool's part runs it; what the extension answers comes back through
//      CallExtension, which judges every content block by the documents it
//      was read from (JudgeReads, host/read_provenance.h) and decides again
//      where the call went (RecheckAfter) before the part sees it.
// The page's own tools enter at 3 (AdmitOwn): their schema is the page's and
// is checked where the part finds the tool.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/jsonrpc.h"
#include "common/policy.h"
#include "common/tool_catalog.h"
#include "host/call_targets.h"
#include "host/extension_link.h"
#include "host/person_asks.h"
#include "host/policy_gate.h"
#include "host/reply_once.h"
#include "host/session.h"
#include "host/tab_table.h"
#include "host/tool_call.h"

namespace tb {

class CallGate {
 public:
  using Reply = ReplyOnce;
  // What runs a call the gate let through: the part bound to the tool's name.
  using Run = std::function<void(Session& session, const ToolCall& call, Reply reply)>;

  struct Options {
    std::uint64_t grant_ask_ms = 0;  // how long a site question waits for the person
    std::function<Session*(std::int64_t id)> find_session;
    std::function<bool()> person_can_answer;      // someone sees this browser (it is not headless)
    std::function<void()> after_person_answered;  // a grant changed: sessions' lists, host.state
  };

  CallGate(PolicyGate& policy, const TabTable& tabs, PersonAsks& asks, ExtensionLink& extension, Options options);

  // A call of one of tabbridge's tools (steps 1-5), then `run`.
  void Admit(Session& session, ToolCall call, Run run, Reply reply);
  // A call of one of the page's own tools (steps 3-5, tools::OwnToolPolicy), then `run`.
  void AdmitOwn(Session& session, ToolCall call, Run run, Reply reply);
  // Steps 3-5 for a tool declared `declared`: what Admit and AdmitOwn share
  // (and a test's way to pass a declaration the catalog does not have).
  void Decide(Session& session, ToolCall call, const tools::ToolPolicy& declared, Run run, Reply reply);

  // Sends a call's work to the extension. Its answer is decided again where
  // the call went (RecheckAfter) before `on_answer` sees it; a denial then
  // answers `reply` instead. `settled` runs first whatever the answer (the
  // part's release of held notifications). While the call is out, the
  // extension may ask policy.decide for it (DecideForCall) when `decides`.
  struct ExtensionCall {
    std::int64_t session_id = 0;
    std::string tool;  // the name the model called
    policy::Cap cap = policy::Cap::kRead;
    std::string method;
    Json params;
    std::uint64_t deadline_ms = 0;
    bool decides = false;
    std::function<void()> settled;
  };
  using OnAnswer = std::function<void(std::expected<Json, rpc::Error> outcome, Reply reply)>;
  // The extension's call id (for CancelExtension), 0 when answered at once.
  std::int64_t CallExtension(ExtensionCall call, Reply reply, OnAnswer on_answer);
  // Gives up on a call (its tools/call was cancelled): its answer never comes.
  void CancelExtension(std::int64_t call);
  // policy.decide: the session's own verdict for a URL a call in flight
  // reached that the host did not check before it (a frame of another site,
  // a download's redirect). A call that is over is never allowed.
  std::expected<Json, rpc::Error> DecideForCall(const Json& params);

 private:
  // The URL among `urls` whose question the person must answer first, if none is denied.
  std::optional<std::string> FirstAsk(const Session& session, policy::Cap cap,
                                      const std::vector<std::string>& urls) const;
  void AskGrant(Session& session, const ToolCall& call, const tools::ToolPolicy& declared, const CallTargets& targets,
                const std::string& url, std::function<void(Session&, Reply)> rerun, Reply reply);
  std::optional<Json> Denial(const Session& session, const std::string& name, policy::Cap cap,
                             const std::vector<std::string>& urls) const;
  Reply WithAuditLine(const Session& session, const std::string& name, const tools::ToolPolicy& declared,
                      const CallTargets& targets, const Json& args, Reply reply);
  std::optional<Json> RecheckAfter(std::int64_t session_id, const std::string& name, policy::Cap cap,
                                   std::expected<Json, rpc::Error>& outcome);

  PolicyGate& policy_;
  const TabTable& tabs_;
  PersonAsks& asks_;
  ExtensionLink& extension_;
  Options options_;
  // Calls out at the extension that may ask policy.decide: id -> {session, tool}.
  std::map<std::int64_t, std::pair<std::int64_t, std::string>> deciding_;
};

}  // namespace tb
