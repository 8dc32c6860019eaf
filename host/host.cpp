#include "host/host.h"

#include <algorithm>
#include <cstdlib>

#include <unistd.h>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "host/browser_flags.h"

namespace tb {

Host::Host(uv_loop_t* loop, std::unique_ptr<Transport> extension, HostOptions options)
    : loop_(loop),
      options_(std::move(options)),
      extension_(loop, std::move(extension),
                 {.on_event = [this](const std::string& event, const Json& params) { OnExtensionEvent(event, params); },
                  .on_request = [this](const std::string& method,
                                       const Json& params) { return OnExtensionRequest(method, params); },
                  .on_close = [this](std::string_view reason) { Shutdown(reason); }},
                 options_.extension_deadline_ms),
      policy_(loop, options_.policy_path, options_.audit_path, options_.policy_poll_ms),
      server_(loop, options_.allowed_uid),
      sessions_(loop),
      own_tools_(loop, options_.navigation_settle_ms, [this] { AfterTabsChanged(); }),
      heartbeat_(loop, extension_, options_.heartbeat_ms,
                 [this] {
                   exit_code_ = 1;
                   Shutdown("the extension stopped answering");
                 }),
      popup_({.policy = policy_,
              .sessions = sessions_,
              .after_tabs_changed = [this] { AfterTabsChanged(); },
              .remove_session = [this](std::int64_t id) { RemoveSession(id); }}),
      state_(
          loop, [this] { return popup_.HostState(); },
          [this](Json state) { extension_.Notify(ext_method::kHostState, std::move(state)); }),
      tab_events_(loop, kTabEventCoalesceMs, [this] { AfterTabsChanged(); }),
      asks_(loop, [this](std::string_view method, Json params) { extension_.Notify(method, std::move(params)); }),
      gate_(policy_, tabs_, asks_, extension_,
            {.grant_ask_ms = options_.grant_ask_ms,
             .find_session = [this](std::int64_t id) { return FindSession(id); },
             .person_can_answer = [this] { return PersonCanAnswer(); },
             .after_person_answered = [this] { AfterPolicyChanged(); }}),
      tab_tools_({.extension = extension_,
                  .tabs = tabs_,
                  .groups = groups_,
                  .sessions = sessions_,
                  .own_tools = own_tools_,
                  .extension_deadline_ms = options_.extension_deadline_ms,
                  .debugger_idle_ms = options_.debugger_idle_ms,
                  .browser_pid = options_.browser_pid,
                  .tab_summary = [this](const Tab& tab, const Session& s) { return TabSummary(tab, s); },
                  .read_verdict = [this](const Session& s,
                                         const Tab& tab) { return policy_.Check(s, policy::Cap::kRead, tab.url); },
                  .after_tabs_changed = [this] { AfterTabsChanged(); },
                  .note_state_changed = [this] { NoteStateChanged(); },
                  .shutting_down = [this] { return shutting_down_; },
                  .connection_status = [this] { return ConnectionStatus(); }}),
      idle_browser_(loop, options_.browser_pid),
      page_calls_({.gate = gate_, .tabs = tabs_, .policy = policy_, .sessions = sessions_}),
      own_calls_({.loop = loop,
                  .gate = gate_,
                  .tabs = tabs_,
                  .policy = policy_,
                  .own_tools = own_tools_,
                  .sessions = sessions_,
                  .browser_pid = options_.browser_pid}),
      run_steps_(
          {.call_tool = [this](Session& s, ToolCall c, Reply r) { CallTool(s, std::move(c), std::move(r)); },
           .call_own_tool = [this](Session& s, const ToolCall& c, Reply& r) { return own_calls_.CallOwnTool(s, c, r); },
           .find_session = [this](std::int64_t id) { return FindSession(id); },
           .focused_url = [this](const Session& s) { return FocusedUrl(s); },
           .hold_notifications = [](Session& s) { return s.HoldUntilReleased(); },
           .alive = alive_}),
      person_({.asks = asks_,
               .policy = policy_,
               .tabs = tabs_,
               .find_session = [this](std::int64_t id) { return FindSession(id); },
               .person_can_answer = [this] { return PersonCanAnswer(); },
               .tab_summary = [this](const Tab& tab, const Session& s) { return TabSummary(tab, s); },
               .grants_changed = [this] { AfterPolicyChanged(); }}) {
  // Each tool's part, bound by its name: one signature, (session, call, reply).
  using Call = const ToolCall&;
  for (const auto& spec : tools::PageToolSpecs()) {
    handlers_.emplace(spec.name, [this](Session& s, Call c, Reply r) { page_calls_.Call(s, c, std::move(r)); });
  }
  handlers_.emplace(tools::kListTabs, [this](Session& s, Call c, Reply r) { tab_tools_.ListTabs(s, c, std::move(r)); });
  handlers_.emplace(tools::kOpenTab, [this](Session& s, Call c, Reply r) { tab_tools_.OpenTab(s, c, std::move(r)); });
  handlers_.emplace(tools::kFocusTab, [this](Session& s, Call c, Reply r) { tab_tools_.FocusTab(s, c, std::move(r)); });
  handlers_.emplace(tools::kCloseTab, [this](Session& s, Call c, Reply r) { tab_tools_.CloseTab(s, c, std::move(r)); });
  handlers_.emplace(tools::kListWebMcpTools,
                    [this](Session& s, Call c, Reply r) { own_calls_.ListWebMcpTools(s, c, std::move(r)); });
  handlers_.emplace(tools::kCallWebMcpTool,
                    [this](Session& s, Call c, Reply r) { own_calls_.CallWebMcpTool(s, c, std::move(r)); });
  handlers_.emplace(tools::kAskPerson, [this](Session& s, Call c, Reply r) { person_.AskPerson(s, c, std::move(r)); });
  handlers_.emplace(tools::kRunSteps, [this](Session& s, Call c, Reply r) { run_steps_.Run(s, c, std::move(r)); });
  for (const auto& name : tools::ReservedNames()) {
    // A catalog tool without a part would answer "no such tool" at every
    // call: caught here, by every host test, rather than by a user.
    if (name != tools::kConnectBrowser && !handlers_.contains(name)) {
      spdlog::critical("the host has no part for tool {} (bind it in Host::Host)", name);
      std::abort();
    }
  }
  // The extension's requests (docs/protocol.md "The popup"; policy.decide is the gate's).
  requests_.emplace(ext_request::kPolicyCheck, [this](const Json& p) { return popup_.CheckPolicy(p); });
  requests_.emplace(ext_request::kPolicyDecide, [this](const Json& p) { return gate_.DecideForCall(p); });
  requests_.emplace(ext_request::kDetachTab, [this](const Json& p) { return popup_.DetachTab(p); });
  requests_.emplace(ext_request::kDisconnectSession, [this](const Json& p) { return popup_.DisconnectSession(p); });
  requests_.emplace(ext_request::kPersonAnswer, [this](const Json& p) { return person_.AnswerFromPerson(p); });
  requests_.emplace(ext_request::kGrantRevoke, [this](const Json& p) { return person_.RevokeGrant(p); });
}

Host::~Host() {
  Shutdown("host destroyed");
  alive_.reset();  // answers dropped from here on (members going) reach no session
}

void Host::Start() {
  policy_.Start([this] { AfterPolicyChanged(); });
  extension_.Start();
}

// A changed policy file, a person's answer, a grant revoked: what each
// session's focused tab offers, which focused tabs are attached ahead of
// their first call (tabs.focused), and the popup (it shows the policy's state).
void Host::AfterPolicyChanged() {
  for (auto& [id, session] : sessions_) session->RefreshTools();
  tab_tools_.SyncFocused();
  NoteStateChanged();
}

void Host::Shutdown(std::string_view why) {
  if (shutting_down_) return;
  shutting_down_ = true;
  spdlog::info("shutting down: {}", why);
  server_.Close();
  // Before the link: calls the link fails as it closes find them closed.
  heartbeat_.Close();
  state_.Close();
  tab_events_.Close();  // a quitting browser's last tab events are not news
  own_tools_.Close();
  asks_.Close();       // each waiting call hears "no answer" while its session can still be answered
  own_calls_.Close();  // and each parked call, that the connection was lost
  sessions_.Close();
  extension_.Close();
  policy_.Stop();
}

Json Host::HelloResult() const {
  return {{"protocol", kShimProtocol},
          {"browser", browser_},
          {"extension", extension_info_},
          {"tabCount", tabs_.VisibleCount()},
          {"webmcp", own_calls_.WebMcpStatus()},
          {"hostPid", static_cast<long>(getpid())},
          {"policy", PolicySummary(policy_.policy())}};
}

void Host::OnExtensionEvent(const std::string& event, const Json& params) {
  if (event == ext_event::kHello) return OnHello(params);
  if (!ready_) {
    spdlog::warn("extension sent {} before hello; ignored", event);
    return;
  }
  if (event == ext_event::kTabCreated || event == ext_event::kTabUpdated) {
    const auto tab = TabFromJson(field::Any(params, "tab"));
    if (!tab) return spdlog::warn("malformed {} event ignored", event);
    tabs_.Upsert(*tab);
  } else if (event == ext_event::kPageProgress) {
    return page_calls_.OnProgress(params);
  } else if (event == ext_event::kConsoleEntry) {
    return page_calls_.OnConsoleEntry(params);
  } else if (event == ext_event::kOwnTools) {
    return own_calls_.OnOwnTools(params);
  } else if (event == ext_event::kDebuggerDetached) {
    return page_calls_.OnDebuggerDetached(params);
  } else if (event == ext_event::kTabRemoved) {
    const auto tab_id = field::Int(params, "tabId");
    if (!tab_id) return spdlog::warn("malformed {} event ignored", event);
    tabs_.Remove(*tab_id);
  } else {
    return spdlog::debug("unknown extension event {} ignored", event);
  }
  AfterBrowserTabEvent();
}

std::expected<Json, rpc::Error> Host::OnExtensionRequest(const std::string& method, const Json& params) {
  if (!ready_) return std::unexpected(rpc::Error{rpc_error::kInvalidRequest, "send hello first", nullptr});
  if (const auto request = requests_.find(method); request != requests_.end()) return request->second(params);
  return std::unexpected(rpc::Error{rpc_error::kMethodNotFound, "the host does not serve " + method, nullptr});
}

void Host::OnHello(const Json& params) {
  const std::int64_t protocol = field::Int(params, "protocol").value_or(0);
  if (protocol != kExtensionProtocol) {
    spdlog::error("the extension speaks protocol {}, this host {} — reinstall tabbridge so both match", protocol,
                  kExtensionProtocol);
    exit_code_ = 1;
    return Shutdown("extension protocol mismatch");
  }
  browser_ = field::Object(params, "browser");
  browser_["pid"] = options_.browser_pid;
  extension_info_ = field::Object(params, "extension");
  headless_ = field::Bool(browser_, "headless").value_or(true);
  // The first-page timeline (bench/first_page.mjs): when the worker started and said hello.
  if (const Json timing = field::Object(params, "timing"); !timing.empty()) {
    spdlog::debug("timeline: worker {}", rpc::Dump(timing));
  }
  std::vector<Tab> tabs;
  for (const auto& json : field::Array(params, "tabs")) {
    if (auto tab = TabFromJson(json)) tabs.push_back(*tab);
  }
  tabs_.Reset(tabs);
  // A browser started with --silent-debugger-extension-api (by the person,
  // or a launcher) shows no bar: no first click waits for it (debugger_bar.js).
  if (HidesDebuggerBar(CommandLineOf(options_.browser_pid)))
    extension_.Notify(ext_method::kNoDebuggerBar, Json::object());
  tab_tools_.SyncFocused(/*always=*/true);  // a new port: the extension knows nothing of focus yet
  state_.Start();
  state_.Publish(/*always=*/true);  // nor of the sessions (its popup and badge show them)
  heartbeat_.NoteAlive();           // hello is a sign of life too
  if (ready_) return AfterTabsChanged();
  ready_ = true;
  heartbeat_.Start();
  if (auto ok = server_.Listen(options_.socket_dir, [this](uv_pipe_t* c) { OnConnection(c); }); !ok) {
    spdlog::error("{}", ok.error());
    exit_code_ = 1;
    return Shutdown("cannot open the socket");
  }
  spdlog::debug("timeline: host listening");
  spdlog::info("serving {} {} on {}", field::String(browser_, "name").value_or("browser"),
               field::String(browser_, "version").value_or(""), server_.path());
}

void Host::OnConnection(uv_pipe_t* connection) {
  sessions_.Add(*this,
                std::make_unique<Transport>(reinterpret_cast<uv_stream_t*>(connection),
                                            reinterpret_cast<uv_stream_t*>(connection), Framing::kLine, kMaxLineBytes));
  idle_browser_.SessionsNow(sessions_.size());
}

void Host::RemoveSession(std::int64_t id) {
  asks_.DropSession(id);  // its questions go before it: nobody waits for the answers
  policy_.ForgetSession(id);
  if (sessions_.Remove(id)) tab_tools_.SyncFocused();
  idle_browser_.SessionsNow(sessions_.size());
  // Its tab group says so (docs/protocol.md "Tabs the person can see").
  if (auto ended = groups_.End(id); ended && !shutting_down_) extension_.Notify(ext_method::kSessionEnded, *ended);
}

void Host::ForgetVanishedTabs() {
  own_tools_.Forget([this](std::int64_t tab_id) { return tabs_.Find(tab_id) == nullptr; });
  for (auto& [id, session] : sessions_) {
    if (const auto focus = session->focused_tab(); focus && tabs_.Find(*focus) == nullptr) {
      session->set_focused_tab(std::nullopt);
    }
  }
}

void Host::AfterTabsChanged() {
  ForgetVanishedTabs();
  for (auto& [id, session] : sessions_) {
    session->RefreshTools();
    session->TellTabs();
  }
  tab_tools_.SyncFocused();
  own_calls_.ResumeParkedCalls();
}

Json Host::TabUrls(const std::set<std::int64_t>& ids) const {
  Json out = Json::array();
  for (const auto id : ids) {
    if (const Tab* tab = tabs_.Find(id)) out.push_back({{"id", id}, {"url", tab->url}});
  }
  return out;
}

void Host::AfterBrowserTabEvent() {
  ForgetVanishedTabs();  // a call now already sees the tab gone; only the news waits
  tab_events_.Note();
  own_calls_.ResumeParkedCalls();  // a tab that went has no new page to wait for
}

Json Host::ToolsFor(const Session& session) const {
  const tools::Surface surface = session.surface();
  if (tools::IsStable(surface)) {
    // The same tools in every state (a call says what must come first); the page's own follow the page.
    Json list = tools::StableTools(session.caps(), surface);
    if (!session.focused_tab() || surface == tools::Surface::kDispatch) return list;
    auto own = own_calls_.Listed(session);
    if (own.helpers) {
      for (const auto name : {tools::kListWebMcpTools, tools::kCallWebMcpTool}) {
        list.push_back(tools::Listed(*tools::Find(name)));
      }
    }
    for (auto& tool : own.tools) list.push_back(std::move(tool));
    return list;
  }
  const auto ours = [surface](std::string_view name) {
    Json tool = tools::Listed(*tools::Find(name));
    const bool state_tool =
        name == tools::kListTabs || name == tools::kOpenTab || name == tools::kFocusTab || name == tools::kCloseTab;
    return state_tool && tools::PinsStateTools(surface) ? tools::Pinned(std::move(tool)) : tool;
  };
  Json list = Json::array({ours(tools::kListTabs)});
  if (PersonCanAnswer()) list.push_back(ours(tools::kAskPerson));  // headless: nobody to hand over to
  // Tools the policy can never allow this session are left out (a call still
  // gets the denial); those that depend on the URL, by the focused tab's.
  if (!session.read_only()) list.push_back(ours(tools::kOpenTab));
  if (tabs_.VisibleCount() == 0) return list;
  list.push_back(ours(tools::kFocusTab));
  if (!session.focused_tab()) return list;
  if (ListsOnFocused(tabs_, policy_, session, *tools::CapabilityOf(tools::kCloseTab)))
    list.push_back(ours(tools::kCloseTab));
  list.push_back(ours(tools::kRunSteps));  // each step is checked as its own call
  auto own = own_calls_.Listed(session);
  if (own.helpers) {
    for (const auto name : {tools::kListWebMcpTools, tools::kCallWebMcpTool}) {
      if (ListsOnFocused(tabs_, policy_, session, *tools::CapabilityOf(name))) list.push_back(ours(name));
    }
  }
  for (auto& tool : tools::PageTools(session.caps())) {
    if (ListsOnFocused(tabs_, policy_, session, *tools::CapabilityOf(tool["name"].get_ref<const std::string&>()))) {
      list.push_back(tools::Listed(std::move(tool)));
    }
  }
  for (auto& tool : own.tools) list.push_back(std::move(tool));
  return list;
}

Json Host::TabSummary(const Tab& tab, const Session& session) const {
  if (policy_.Allows(session, policy::Cap::kRead, tab.url))
    return {{"id", tab.id}, {"title", tab.title}, {"url", tab.url}};
  const auto site = policy::SiteOf(tab.url);
  const auto denial = policy_.Deny(session, "read", policy::Cap::kRead, tab.url);
  return {{"id", tab.id},
          {"title", nullptr},
          {"url", nullptr},
          {"site", site ? site->Describe() : ""},
          {"withheld", "title and URL: " + field::String((*denial)["content"][0], "text").value_or("")}};
}

void Host::CallTool(Session& session, ToolCall call, Reply reply) {
  gate_.Admit(
      session, std::move(call),
      [this](Session& s, const ToolCall& c, Reply r) {
        const auto part = handlers_.find(c.name);
        if (part == handlers_.end()) return r(tools::ErrorResult("the host has no tool " + c.name));
        part->second(s, c, std::move(r));
      },
      std::move(reply));
}

Json Host::ConnectionStatus() const {
  return {{"browser", browser_},
          {"extension", extension_info_},
          {"host", {{"version", kVersion}, {"pid", static_cast<long>(getpid())}}},
          {"heartbeatAgeMs", heartbeat_.age_ms()},
          {"sessions", sessions_.size()}};
}

}  // namespace tb
