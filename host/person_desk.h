// The person at the browser (docs/policy.md "Asking the person"):
// ask_person hands them the browser; the surface's clicks (person.answer),
// the popup's Revoke (grant.revoke) and the client's elicitation answers
// (tabbridge/grant) come in here. A call's site question is the call gate's
// (host/call_gate.cpp). A part of the host: it knows the host only by what it
// is handed here.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <string>

#include "common/jsonrpc.h"
#include "host/person_asks.h"
#include "host/policy_gate.h"
#include "host/reply_once.h"
#include "host/session.h"
#include "host/tab_table.h"
#include "host/tool_call.h"

namespace tb {

class PersonDesk {
 public:
  using Reply = ReplyOnce;
  struct Parts {
    PersonAsks& asks;
    PolicyGate& policy;
    const TabTable& tabs;
    std::function<Session*(std::int64_t id)> find_session;
    std::function<bool()> person_can_answer;  // someone sees this browser (it is not headless)
    // A tab as a session may see it (title and URL withheld where it may not read).
    std::function<Json(const Tab& tab, const Session& session)> tab_summary;
    // A grant changed: every session's list may change, and the popup lists grants.
    std::function<void()> grants_changed;
  };

  explicit PersonDesk(Parts parts) : parts_(std::move(parts)) {}

  // The ask_person tool: one signature with every host tool's part.
  void AskPerson(Session& session, const ToolCall& call, Reply reply);
  // person.answer: the person's click on the surface.
  std::expected<Json, rpc::Error> AnswerFromPerson(const Json& params);
  // grant.revoke: the popup's Revoke.
  std::expected<Json, rpc::Error> RevokeGrant(const Json& params);
  // tabbridge/grant: what the person answered through the session's MCP
  // client (elicitation) to a question nobody could answer in the browser.
  std::expected<Json, rpc::Error> GrantFromClient(Session& session, const Json& params);

 private:
  Parts parts_;
};

}  // namespace tb
