#include "host/tab_tools.h"

#include <algorithm>
#include <set>
#include <string>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"

namespace tb {
namespace {

// open_tab takes what the agent may see afterwards (IsAgentUrl), well formed:
// http(s) with a host, file with a path.
bool IsOpenableUrl(const std::string& url) {
  if (!IsAgentUrl(url)) return false;
  if (url.starts_with("file:")) return url.starts_with("file:///");
  const auto rest =
      std::string_view(url).substr(url.find("://") == std::string::npos ? url.size() : url.find("://") + 3);
  return !rest.empty() && rest.front() != '/' && rest.find_first_of(" \t\r\n") == std::string_view::npos;
}

constexpr const char* kActiveWithheld =
    "the person is on a tab of a site the policy denies this session: which one is withheld (docs/policy.md)";

std::string Quote(const std::string& text) {
  constexpr std::size_t kMax = 200;  // a 3 MB URL must not come back whole
  return "'" + (text.size() > kMax ? text.substr(0, kMax) + "…" : text) + "'";
}

}  // namespace

void TabTools::ListTabs(Session& session, const ToolCall&, Reply reply) {
  Json tabs = Json::array();
  for (const Tab* tab : parts_.tabs.Visible()) {
    Json entry = parts_.tab_summary(*tab, session);
    entry["focused"] = session.focused_tab() == tab->id;
    const own_tools::OwnToolSet* own = parts_.own_tools.Find(tab->id);
    const bool readable = !entry["url"].is_null();                     // not withheld by the policy
    entry["toolCount"] = own != nullptr && readable ? own->total : 0;  // the page's own tools
    if (tab->crashed) entry["crashed"] = true;                         // calls answer "crashed" until it is reloaded
    entry["windowId"] = tab->window_id;
    if (tab->active && !ReadDenied(session, *tab)) entry["active"] = true;  // the person's: "the page I'm on"
    tabs.push_back(std::move(entry));
  }
  const auto focus = session.focused_tab();
  const Tab* active = parts_.tabs.Active();
  const bool active_listed = active != nullptr && parts_.tabs.Find(active->id) != nullptr;
  // Which tab the person is on is theirs too: not told where the session may not read it.
  const bool active_told = active_listed && !ReadDenied(session, *active);
  Json result = {{"tabs", std::move(tabs)},
                 {"focusedTabId", focus ? Json(*focus) : Json(nullptr)},
                 {"activeTabId", active_told ? Json(active->id) : Json(nullptr)},
                 {"connection", parts_.connection_status()}};
  if (active_listed && !active_told) result["activeWithheld"] = kActiveWithheld;
  reply(tools::Result(std::move(result)));
}

void TabTools::OpenTab(Session& session, const ToolCall& call, Reply reply) {
  const Json& args = call.args;
  // The arguments passed CheckArguments; read them without trusting that.
  const std::string url = field::String(args, "url").value_or("");
  const bool focus = field::Bool(args, "focus").value_or(true);
  if (!IsOpenableUrl(url)) {
    return reply(tools::ErrorResult("open_tab: " + Quote(url) +
                                    " is not an http(s) or file URL — pass a full URL such as https://example.com/"));
  }
  session.Hold();
  const auto session_id = session.id();
  // The page's wait leaves 2 s of the request's deadline for the answer.
  const std::uint64_t deadline = parts_.extension_deadline_ms;
  const std::uint64_t load_wait = deadline > 2'000 ? std::min(kOpenTabLoadWaitMs, deadline - 2'000) : 0;
  // Into the session's tab group: the person sees which agent opened it.
  Json params = {{"url", url},
                 {"active", false},
                 {"loadWaitMs", load_wait},
                 {"group", parts_.groups.GroupFor(session_id, session.client_name())}};
  // The first page of a headless browser a shim launched goes into its launch
  // tab: that tab's renderer runs already (a new tab waits ~150 ms for its
  // own), and nobody looks at it. The extension takes it only while it is
  // still blank (docs/protocol.md).
  const auto launch_tab = TakeLaunchTab();
  if (launch_tab) params["reuseTabId"] = *launch_tab;
  const auto sent = parts_.extension.Call(
      ext_method::kTabsCreate, std::move(params),
      [this, session_id, focus, url, reply, launch_tab](std::expected<Json, rpc::Error> outcome) {
        Session* s = parts_.sessions.Find(session_id);
        std::optional<Tab> tab;
        if (outcome) tab = TabFromJson(field::Any(*outcome, "tab"));
        // Not taken (the open failed, or went into a new tab): still a launch
        // tab, closed once a tab is open (CloseLaunchTabs skips one no longer blank).
        if (launch_tab && (!tab || tab->id != *launch_tab)) launch_tabs_.push_back(*launch_tab);
        if (!tab && launch_tab && parts_.tabs.VisibleCount() > 0) CloseLaunchTabs();
        if (outcome && spdlog::should_log(spdlog::level::debug))
          spdlog::debug("timeline: tabs.create answered {}", rpc::Dump(field::Object(*outcome, "timing")));
        if (tab) {
          parts_.tabs.Upsert(*tab);
          if (s != nullptr) s->AdoptTab(tab->id);
          if (s != nullptr && focus) s->set_focused_tab(tab->id);
          parts_.after_tabs_changed();
          CloseLaunchTabs();
        }
        if (s != nullptr) s->Release();
        if (!outcome)
          return reply(tools::ErrorResult("open_tab: could not open " + Quote(url) + ": " + outcome.error().message));
        if (!tab) return reply(tools::ErrorResult("open_tab: the browser answered without a tab"));
        if (s == nullptr) return reply(tools::Result({{"tab", {{"id", tab->id}}}, {"focused", focus}}));
        // No list of the tools: tools/list has them, and list_changed came before this answer.
        Json result = {{"tab", parts_.tab_summary(*tab, *s)}, {"focused", focus}};
        // Not parsed within the wait: the model knows to wait_for it.
        if (field::Bool(*outcome, "loading").value_or(false)) result["loading"] = true;
        reply(tools::Result(std::move(result)));
      });
  session.SetCanceller(call.key, [this, sent, session_id, launch_tab] {
    parts_.extension.Cancel(sent);  // its callback never runs
    if (launch_tab) launch_tabs_.push_back(*launch_tab);
    if (Session* s = parts_.sessions.Find(session_id)) s->Release();
  });
}

void TabTools::NoteLaunchedHeadless(long pid) {
  if (launch_noted_ || pid <= 0 || pid != parts_.browser_pid) return;
  launch_noted_ = true;
  launch_tabs_ = parts_.tabs.BlankTabs();
}

void TabTools::NoteLaunchedWithoutBar(long pid) {
  if (pid <= 0 || pid != parts_.browser_pid) return;
  parts_.extension.Notify(ext_method::kNoDebuggerBar, Json::object());
}

std::optional<std::int64_t> TabTools::TakeLaunchTab() {
  for (auto it = launch_tabs_.begin(); it != launch_tabs_.end(); ++it) {
    if (!parts_.tabs.IsBlank(*it)) continue;
    const std::int64_t id = *it;
    launch_tabs_.erase(it);
    return id;
  }
  return std::nullopt;
}

// The launch tab goes once another tab is open: a browser does not outlive
// its last tab everywhere, and one still on about:blank holds nothing.
void TabTools::CloseLaunchTabs() {
  for (const auto id : launch_tabs_) {
    if (!parts_.tabs.IsBlank(id)) continue;
    spdlog::info("closing the launch tab {} of the headless browser a shim launched", id);
    parts_.extension.Call(ext_method::kTabsClose, {{"tabId", id}}, [](std::expected<Json, rpc::Error>) {});
  }
  launch_tabs_.clear();
}

// The tab focus_tab means: tabId, or "active" for the person's active tab.
std::expected<std::int64_t, std::string> TabTools::FocusTarget(const Json& args, const Session& session) const {
  const Json given = field::Any(args, "tabId");
  if (given.is_string()) {
    if (given != "active") return std::unexpected("focus_tab: tabId must be a tab id or \"active\"");
    const Tab* active = parts_.tabs.Active();
    if (active == nullptr) {
      return std::unexpected(
          "focus_tab: the browser has not said which tab the person is on — pass a tabId from list_tabs");
    }
    if (parts_.tabs.Find(active->id) == nullptr) {
      return std::unexpected(
          "focus_tab: the person's active tab is a browser page (a new tab, settings, …), not a "
          "web page — ask them to switch to the page, or pass a tabId from list_tabs");
    }
    if (ReadDenied(session, *active)) return std::unexpected(std::string("focus_tab: ") + kActiveWithheld);
    return active->id;
  }
  const std::int64_t tab_id = field::Int(args, "tabId").value_or(-1);
  if (parts_.tabs.Find(tab_id) == nullptr) {
    return std::unexpected("focus_tab: tab " + std::to_string(tab_id) +
                           " is not open — call list_tabs for the current tab ids");
  }
  return tab_id;
}

void TabTools::FocusTab(Session& session, const ToolCall& call, Reply reply) {
  const Json& args = call.args;
  const auto target = FocusTarget(args, session);
  if (!target) return reply(tools::ErrorResult(target.error()));
  const std::int64_t tab_id = *target;
  const bool show = field::Bool(args, "show").value_or(false);
  // No channel to the person about a site the session may not read: not brought to the front.
  if (const Tab* tab = parts_.tabs.Find(tab_id); show && tab != nullptr && ReadDenied(session, *tab)) {
    return reply(tools::ErrorResult("focus_tab: tab " + std::to_string(tab_id) +
                                    " is on a site the policy denies this session — it is not shown to the person, and "
                                    "nothing changed (focus it without show, or ask in the conversation)"));
  }
  session.Hold();
  session.set_focused_tab(tab_id);
  SyncFocused();
  const auto answer = [this, tab_id](const Session& s) {
    const Tab* tab = parts_.tabs.Find(tab_id);
    return Json{{"focused", true}, {"tab", tab != nullptr ? parts_.tab_summary(*tab, s) : Json{{"id", tab_id}}}};
  };
  if (!show) {
    session.Release();
    return reply(tools::Result(answer(session)));
  }
  // show: the tab to the front of its window, the window forward (the person sees what the agent means).
  const auto session_id = session.id();
  const auto sent = parts_.extension.Call(
      ext_method::kTabsShow, {{"tabId", tab_id}},
      [this, session_id, tab_id, answer, reply](std::expected<Json, rpc::Error> outcome) {
        Session* s = parts_.sessions.Find(session_id);
        if (s != nullptr) s->Release();
        if (!outcome) {
          return reply(
              tools::ErrorResult("focus_tab: tab " + std::to_string(tab_id) +
                                 " is focused, but could not be shown to the person: " + outcome.error().message));
        }
        if (s == nullptr) return reply(tools::Result({{"focused", true}, {"tab", {{"id", tab_id}}}, {"shown", true}}));
        Json result = answer(*s);
        result["shown"] = true;
        reply(tools::Result(std::move(result)));
      });
  session.SetCanceller(call.key, [this, sent, session_id] {
    parts_.extension.Cancel(sent);
    if (Session* s = parts_.sessions.Find(session_id)) s->Release();
  });
}

void TabTools::CloseTab(Session& session, const ToolCall& call, Reply reply) {
  const Json& args = call.args;
  const auto focus = session.focused_tab();
  const auto given = field::Int(args, "tabId");
  if (!given && !focus) return reply(tools::ErrorResult("close_tab: no tab is focused — pass tabId (see list_tabs)"));
  const std::int64_t tab_id = given ? *given : *focus;
  if (parts_.tabs.Find(tab_id) == nullptr) {
    return reply(tools::ErrorResult("close_tab: tab " + std::to_string(tab_id) +
                                    " is not open — call list_tabs for the current tab ids"));
  }
  session.Hold();
  const auto session_id = session.id();
  const auto sent =
      parts_.extension.Call(ext_method::kTabsClose, {{"tabId", tab_id}},
                            [this, session_id, tab_id, reply](std::expected<Json, rpc::Error> outcome) {
                              const bool gone = outcome || outcome.error().code == rpc_error::kTabNotFound;
                              if (gone) {
                                parts_.tabs.Remove(tab_id);
                                parts_.after_tabs_changed();
                              }
                              if (Session* s = parts_.sessions.Find(session_id)) s->Release();
                              if (outcome) return reply(tools::Result({{"closed", true}, {"tabId", tab_id}}));
                              if (gone) {
                                return reply(tools::ErrorResult("close_tab: tab " + std::to_string(tab_id) +
                                                                " was already closed — call list_tabs"));
                              }
                              reply(tools::ErrorResult("close_tab: " + outcome.error().message));
                            });
  session.SetCanceller(call.key, [this, sent, session_id] {
    parts_.extension.Cancel(sent);
    if (Session* s = parts_.sessions.Find(session_id)) s->Release();
  });
}

// Which tabs some session is focused on, told to the extension as
// `tabs.focused` (docs/protocol.md): it keeps chrome.debugger on those only
// while they are used and detaches from every other tab, so the browser's
// "started debugging this browser" bar goes when an agent moves on or leaves.
void TabTools::SyncFocused(bool always) {
  if (parts_.shutting_down()) return;
  parts_.note_state_changed();  // every focus change passes here; host.state shows focus too
  std::set<std::int64_t> focused;
  std::set<std::int64_t> ahead;
  for (const auto& [id, session] : parts_.sessions) {
    const auto tab = session->focused_tab();
    if (!tab) continue;
    focused.insert(*tab);
    if (const Tab* t = parts_.tabs.Find(*tab); t != nullptr && Reads(*session, *t)) ahead.insert(*tab);
  }
  if (!always && focused_told_ == focused && ahead_told_ == ahead) return;
  focused_told_ = focused;
  ahead_told_ = ahead;
  parts_.extension.Notify(
      ext_method::kTabsFocused,
      {{"tabIds", Json(focused)}, {"attachAhead", Json(ahead)}, {"idleMs", parts_.debugger_idle_ms}});
}

}  // namespace tb
