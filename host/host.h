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
#include "host/own_tool_registry.h"
#include "host/own_tools.h"
#include "host/page_calls.h"
#include "host/person_asks.h"
#include "host/person_desk.h"
#include "host/policy_gate.h"
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

// The policy this host enforces, for doctor and the popup (the browser's
// environment chose the file): {path, state: none|file|malformed, rules, error?}.
Json PolicySummary(const policy::Policy& p);

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
  // `result` (a tool call's) with the page's own tools said at its end when
  // they changed since the session was last told — on the dispatch surface,
  // where tools/list never has them (host/own_tools_told.cpp).
  Json WithOwnToolsTold(Session& session, Json result) override;
  // The document of the session's focused tab whose own tools are listed, else
  // the one that last reported ("" when none, or when its page crashed): the
  // tools that go with a navigation or a crash are news, those a page takes
  // away itself can wait (Session::RefreshTools).
  std::string FocusedDocument(const Session& session) const override;
  // Runs a call of one of tabbridge's tools for `session` through the call
  // gate (host/call_gate.h); `reply` gets the MCP result.
  void CallTool(Session& session, ToolCall call, Reply reply) override;
  // Runs `name` when it is one of the session's focused tab's own tools (or
  // was, until the page changed: then a tool error says so). False when the
  // name means nothing here.
  // `shown`: the page the call was made for (a parked call's rerun passes
  // the one it arrived with); by default the one the session was shown.
  bool CallOwnTool(Session& session, const ToolCall& call, Reply& reply,
                   std::optional<Session::ShownPage> shown = std::nullopt) override;
  // The page whose own tools the focused tab offers `session` now (with
  // listed_only, only when tools/list shows some of them); nullopt when none.
  std::optional<Session::ShownPage> ShownPage(const Session& session, bool listed_only = false) const override;
  // The URL of the tab `session` is focused on, if any (host/policy_checks.cpp).
  std::optional<std::string> FocusedUrl(const Session& session) const override;
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
  // --- the popup (host/popup_requests.cpp, docs/protocol.md "The popup") ---
  // The extension's requests: policy.check, tab.detach, session.disconnect.
  std::expected<Json, rpc::Error> OnExtensionRequest(const std::string& method, const Json& params);
  std::expected<Json, rpc::Error> CheckPolicy(const Json& params) const;
  std::expected<Json, rpc::Error> DetachTab(const Json& params);
  std::expected<Json, rpc::Error> DisconnectSession(const Json& params);

  // --- asking the person (host/person_calls.cpp) ---
  // Whether someone can answer at this browser: it is not headless.
  bool PersonCanAnswer() const { return ready_ && !headless_; }
  // host.state's params: the host, its policy and the attached sessions.
  Json HostState() const;
  bool AnySessionHasNetwork() const;  // host.state's networkLog
  void OnHello(const Json& params);
  void OnConnection(uv_pipe_t* connection);
  // Drops the own tools and the focus of tabs no longer in the table.
  void ForgetVanishedTabs();
  // After the tab table changed: drop focus on vanished tabs, tell sessions.
  void AfterTabsChanged();
  // The same for a change the browser reported: sessions are told once per
  // kTabEventCoalesceMs (a burst of tab events is one list_changed).
  void AfterBrowserTabEvent();

  // A tab as `session` may see it: title and URL withheld where the policy denies it `read`.
  Json TabSummary(const Tab& tab, const Session& session) const;

  // --- the policy (host/policy_checks.cpp) ---
  // Whether the policy lets `session` do `cap` on its focused tab (false without one).
  bool MayOnFocused(const Session& session, policy::Cap cap) const;
  // Whether tools/list shows a tool needing `cap` on the focused tab: allowed,
  // or left to the person (the call asks them).
  bool ListsOnFocused(const Session& session, policy::Cap cap) const;

  // The page's own tools (host/own_tool_calls.cpp).
  void OnOwnTools(const Json& params);
  // The focused tab's own tools as `session` is offered them (empty when none).
  // What the policy must allow on the tab — and on the page that reported the
  // tools (the previous one while a navigation settles) — for them to be offered.
  // The focused page's own tools as tools/list shows them, and whether some
  // are left out (then list_webmcp_tools and call_webmcp_tool are listed too).
  struct OwnListing {
    Json tools = Json::array();
    bool helpers = false;
  };
  OwnListing OwnToolsListed(const Session& session) const;
  enum class OwnToolsFor { kCalling, kSeeing, kAnyway };  // read and act, read, nothing
  std::vector<own_tools::Offered> OfferedTo(const Session& session, OwnToolsFor purpose = OwnToolsFor::kCalling) const;
  std::optional<std::size_t> PageIndex(std::int64_t tab_id) const;
  // The rest of a call of the page's own tools, once the gate let it through.
  void OwnToolAdmitted(Session& session, const ToolCall& call, Reply reply, std::optional<Session::ShownPage> shown);
  void ListWebMcpTools(Session& session, const Json& args, Reply reply);
  void CallWebMcpTool(Session& session, const std::string& request_key, const Json& args, Reply reply,
                      std::optional<Session::ShownPage> shown = std::nullopt);
  // The page a call is made for: `given`, else the one the session was shown
  // (else the one the focused tab offers now), with the session's answered_url.
  std::optional<Session::ShownPage> CalledFor(const Session& session, std::optional<Session::ShownPage> given) const;
  // A call of the page's own tools runs only on the site of the page it was
  // made for (`shown`: whose list the model has, and where the tab was when
  // it last heard from us): when the focused tab's tools are another site's,
  // the answer that says so (and the session is now shown that page: a
  // second call means it).
  std::optional<Json> OtherSiteAnswer(Session& session, const std::string& name,
                                      const std::optional<Session::ShownPage>& shown);
  // retry: a call the extension found on the page just left waits for the new
  // page and runs again there, once (on the same site only).
  void RunOwnTool(Session& session, const std::string& request_key, const own_tools::Offered& offered, const Json& args,
                  Reply reply, std::optional<Session::ShownPage> shown, bool retry = true);
  // A call of a page's own tool `name` (an MCP name or the page's) made on a
  // new page that does not offer it yet — one that has not reported, or has
  // but may register its tools late — waits until it does or the settle time
  // from the navigation is over; then `rerun` decides it there, instead of the
  // model hearing "the page changed" and retrying.
  using Rerun = std::function<void(Session& session, const std::string& request_key, Reply reply)>;
  bool WaitsForNewPage(const Session& session, const std::string& name) const;
  void ParkForNewPage(Session& session, const std::string& request_key, const std::string& name, Reply reply,
                      Rerun rerun);
  // Reruns the parked calls whose page now offers their tool, or whose wait is over.
  void ResumeParkedCalls();
  std::string OwnToolNamesNow(const Session& session) const;
  // native, absent or unknown: whether the browser has WebMCP of its own.
  std::string WebMcpStatus() const;
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
  StatePublisher state_;      // host.state for the popup
  Coalescer tab_events_;      // a burst of browser tab events is one list_changed
  PersonAsks asks_;           // questions on the person's surface
  CallGate gate_;             // every tools/call passes it (host/call_gate.h)
  TabTools tab_tools_;        // list_tabs, open_tab, focus_tab, close_tab; tabs.focused
  IdleBrowser idle_browser_;  // a launched browser closes after its idle time
  PageCalls page_calls_;      // the page tools, their progress, console entries
  RunSteps run_steps_;
  PersonDesk person_;  // ask_person, the person's answers, Revoke
  // Every tool of the catalog (connect_browser, the shim's, aside) by name: the
  // part that runs a call once the gate let it through. Filled once, in the
  // constructor; a tool without one stops the host there.
  std::map<std::string, CallGate::Run, std::less<>> handlers_;
  // The extension's requests (ext_request) by method.
  std::map<std::string, std::function<std::expected<Json, rpc::Error>(const Json&)>, std::less<>> requests_;

  struct ParkedCall {
    std::int64_t session_id;
    std::int64_t tab_id;
    std::string request_key;
    std::string name;
    Reply reply;
    Rerun rerun;
  };
  std::vector<ParkedCall> parked_calls_;
  Timer parked_timer_;  // the earliest end of a parked call's wait
};

}  // namespace tb
