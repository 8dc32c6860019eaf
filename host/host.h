// The host owns the truth: the tab table, the sessions and what each may see.
// It is single-threaded on one libuv loop; the extension and the sessions are
// its two kinds of peer. Its parts own their state and each closes on its own
// (Shutdown closes them all); the Host routes between them and answers tools.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "common/uv_util.h"
#include "host/call_gate.h"
#include "host/coalescer.h"
#include "host/extension_link.h"
#include "host/heartbeat.h"
#include "host/idle_browser.h"
#include "host/own_tool_calls.h"
#include "host/own_tool_registry.h"
#include "host/page_calls.h"
#include "host/person_asks.h"
#include "host/person_desk.h"
#include "host/policy_checks.h"
#include "host/policy_gate.h"
#include "host/popup_requests.h"
#include "host/reply_once.h"
#include "host/run_steps.h"
#include "host/session.h"
#include "host/sessions.h"
#include "host/socket_server.h"
#include "host/state_publisher.h"
#include "host/tab_groups.h"
#include "host/tab_table.h"
#include "host/tab_tools.h"
#include "host/tool_call.h"

namespace tb {

struct HostOptions {
  std::string socket_dir;
  long allowed_uid = -1;
  long browser_pid = 0;  // our parent: Chrome starts native hosts itself
  std::uint64_t extension_deadline_ms = kDefaultExtensionDeadlineMs;
  std::uint64_t navigation_settle_ms = kNavigationSettleMs;
  std::uint64_t debugger_idle_ms = kDebuggerIdleMs;
  std::uint64_t heartbeat_ms = kHeartbeatIntervalMs;
  // The policy file (docs/policy.md) and the audit log; empty: none (everything
  // allowed, nothing logged — what host unit tests use unless they test the policy).
  std::string policy_path;
  std::string audit_path;
  std::uint64_t policy_poll_ms = kPolicyPollMs;
  std::uint64_t grant_ask_ms = kGrantAskTimeoutMs;  // how long a site question waits for the person
};

class Host final : public SessionHost {
 public:
  Host(uv_loop_t* loop, std::unique_ptr<Transport> extension, HostOptions options);
  ~Host();

  // Starts talking to the extension; the socket opens once it says hello.
  void Start();
  // Closes every peer; the loop then runs dry. Idempotent.
  void Shutdown(std::string_view why);
  int exit_code() const { return exit_code_; }

  // --- for sessions ---
  Json HelloResult() const override;
  void NoteLaunchedHeadless(long pid) override { tab_tools_.NoteLaunchedHeadless(pid); }
  void NoteLaunched(long pid, std::uint64_t idle_ms, bool no_bar) override {
    if (no_bar) tab_tools_.NoteLaunchedWithoutBar(pid);
    idle_browser_.Launched(pid, idle_ms, sessions_.size());
  }
  Json ToolsFor(const Session& session) const override;
  // The page's own tools: the part's (host/own_tool_calls.h).
  Json WithOwnToolsTold(Session& session, Json result) override {
    return own_calls_.WithOwnToolsTold(session, std::move(result));
  }
  std::string FocusedDocument(const Session& session) const override { return own_calls_.FocusedDocument(session); }
  // Runs a call of one of tabbridge's tools for `session` through the call
  // gate (host/call_gate.h); `reply` gets the MCP result.
  void CallTool(Session& session, ToolCall call, Reply reply) override;
  bool CallOwnTool(Session& session, const ToolCall& call, Reply& reply,
                   std::optional<Session::ShownPage> shown = std::nullopt) override {
    return own_calls_.CallOwnTool(session, call, reply, std::move(shown));
  }
  std::optional<Session::ShownPage> ShownPage(const Session& session, bool listed_only = false) const override {
    return own_calls_.ShownPage(session, listed_only);
  }
  // The URL of the tab `session` is focused on, if any.
  std::optional<std::string> FocusedUrl(const Session& session) const override { return FocusedTabUrl(tabs_, session); }
  // While a tab's new document has not reported its own tools yet, the tab
  // keeps the previous page's list (at most kNavigationSettleMs).
  bool Settling(std::int64_t tab_id) const override { return own_tools_.Settling(tab_id); }
  Session* FindSession(std::int64_t id) override { return sessions_.Find(id); }
  // [{id, url}] of the tabs among `ids` that are open and the agent's (tabbridge/tabs).
  Json TabUrls(const std::set<std::int64_t>& ids) const override;
  // Expires when the host is destroyed: what outlives it (an answer dropped
  // as the host's members go) must not reach back into it.
  std::weak_ptr<bool> AliveToken() const override { return alive_; }
  void RemoveSession(std::int64_t id) override;
  // Something host.state shows changed (a session attached, left, focused,
  // called a tool; the policy): the extension hears of it within
  // kHostStateCoalesceMs (host/state_publisher.h).
  void NoteStateChanged() override { state_.NoteChanged(); }
  // At once, not coalesced: a session with the network capability said hello,
  // and the extension starts its request log before the session's first call.
  void PublishStateNow() override { state_.PublishNow(); }
  // tabbridge/grant: what the person answered through the session's MCP
  // client (elicitation) to a question nobody could answer in the browser.
  std::expected<Json, rpc::Error> GrantFromClient(Session& session, const Json& params) override {
    return person_.GrantFromClient(session, params);
  }

 private:
  void OnExtensionEvent(const std::string& event, const Json& params);
  // The extension's requests (requests_ by method: the popup's, the person's, policy.decide).
  std::expected<Json, rpc::Error> OnExtensionRequest(const std::string& method, const Json& params);
  // Whether someone can answer at this browser: it is not headless.
  bool PersonCanAnswer() const { return ready_ && !headless_; }
  void OnHello(const Json& params);
  void OnConnection(uv_pipe_t* connection);
  // Drops the own tools and the focus of tabs no longer in the table.
  void ForgetVanishedTabs();
  // After the tab table changed: drop focus on vanished tabs, tell sessions.
  void AfterTabsChanged();
  // The same for a change the browser reported: sessions are told once per
  // kTabEventCoalesceMs (a burst of tab events is one list_changed).
  void AfterBrowserTabEvent();
  // After the policy changed (its file, a person's answer, a grant revoked).
  void AfterPolicyChanged();

  // A tab as `session` may see it: title and URL withheld where the policy denies it `read`.
  Json TabSummary(const Tab& tab, const Session& session) const;

  // What list_tabs tells the model about the link (browser, versions,
  // heartbeat age, sessions): a cheap answer to "is it alive?".
  Json ConnectionStatus() const;

  uv_loop_t* loop_;
  HostOptions options_;
  bool ready_ = false;
  bool headless_ = true;  // the extension's hello: browser.headless (absent: nobody to ask)
  bool shutting_down_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);  // AliveToken
  int exit_code_ = 0;
  Json browser_ = Json::object();
  Json extension_info_ = Json::object();

  // The parts, each owning its state (Shutdown closes each).
  ExtensionLink extension_;
  PolicyGate policy_;
  SocketServer server_;
  TabTable tabs_;
  TabGroups groups_;  // each session's tab group: its title and colour (host/tab_groups.h)
  Sessions sessions_;
  OwnToolRegistry own_tools_;  // the page's own tools of every tab
  Heartbeat heartbeat_;
  PopupRequests popup_;       // host.state and the popup's requests
  StatePublisher state_;      // host.state for the popup
  Coalescer tab_events_;      // a burst of browser tab events is one list_changed
  PersonAsks asks_;           // questions on the person's surface
  CallGate gate_;             // every tools/call passes it (host/call_gate.h)
  TabTools tab_tools_;        // list_tabs, open_tab, focus_tab, close_tab; tabs.focused
  IdleBrowser idle_browser_;  // a launched browser closes after its idle time
  PageCalls page_calls_;      // the page tools, their progress, console entries
  OwnToolCalls own_calls_;    // the page's own tools, their calls, the parked ones
  RunSteps run_steps_;
  PersonDesk person_;  // ask_person, the person's answers, Revoke
  // Every tool of the catalog (connect_browser, the shim's, aside) by name: the
  // part that runs a call once the gate let it through. Filled once, in the
  // constructor; a tool without one stops the host there.
  std::map<std::string, CallGate::Run, std::less<>> handlers_;
  // The extension's requests (ext_request) by method.
  std::map<std::string, std::function<std::expected<Json, rpc::Error>(const Json&)>, std::less<>> requests_;
};

}  // namespace tb
