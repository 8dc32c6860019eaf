// The focused tab's page tools (docs/protocol.md "Page tools"): let through
// by the call gate, done by the extension, answered to the session as the
// extension built the result; and what the extension tells of the page while
// the sessions work on it (progress, console errors, the debugger's end). A
// part of the host: it knows the host only by what it is handed here.
#pragma once

#include <cstdint>
#include <expected>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "common/jsonrpc.h"
#include "host/call_gate.h"
#include "host/policy_gate.h"
#include "host/reply_once.h"
#include "host/session.h"
#include "host/sessions.h"
#include "host/tab_table.h"
#include "host/tool_call.h"

namespace tb {

// The model's answer to a tool the extension ran on tab `tab_id`: its result
// as the extension built it, or a tool error saying what to do next (tab
// gone, no result, too large). `changed_page` words -32003 (own tools).
Json ExtensionToolResult(const std::string& name, std::int64_t tab_id, std::expected<Json, rpc::Error> outcome,
                         const std::string& changed_page = "");

// Whether a call of page tool `name` may take the focused tab to another
// document (navigate; the tools that act: click, type, press_key, fill_form,
// select_option, …, handle_dialog; evaluate): it holds its session's
// notifications until its answer, and the extension answers once the new
// page's own tools reached the host, so the navigation is one list_changed,
// sent right before the answer (docs/behaviour.md "Before the answer").
// The page's own tools and run_steps hold likewise.
bool MayMoveThePage(std::string_view name);

class PageCalls {
 public:
  using Reply = ReplyOnce;
  struct Parts {
    CallGate& gate;
    const TabTable& tabs;
    const PolicyGate& policy;
    Sessions& sessions;
  };

  explicit PageCalls(Parts parts) : parts_(parts) {}

  // Every page tool's part: one signature with every host tool's.
  void Call(Session& session, const ToolCall& call, Reply reply);
  // page.progress: a call's progress, to the session that asked for it.
  void OnProgress(const Json& params);
  // console.entry: to the sessions focused on the tab that may read it.
  void OnConsoleEntry(const Json& params);
  // The user ended our debugging of a tab: its sessions hear of it (a warning).
  void OnDebuggerDetached(const Json& params);

 private:
  Parts parts_;
  // Extension calls whose progress goes to a session: call id -> (session, token).
  std::map<std::int64_t, std::pair<std::int64_t, Json>> progress_routes_;
};

}  // namespace tb
