// The tab tools: list_tabs, open_tab, focus_tab, close_tab; the launch tab of
// a headless browser a shim launched; and which tabs the extension keeps the
// debugger on (tabs.focused). A part of the host: it knows the host only by
// what it is handed here.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/jsonrpc.h"
#include "host/extension_link.h"
#include "host/own_tool_registry.h"
#include "host/policy_gate.h"
#include "host/reply_once.h"
#include "host/session.h"
#include "host/sessions.h"
#include "host/tab_groups.h"
#include "host/tab_table.h"
#include "host/tool_call.h"

namespace tb {

class TabTools {
 public:
  using Reply = ReplyOnce;
  struct Parts {
    ExtensionLink& extension;
    TabTable& tabs;
    TabGroups& groups;
    Sessions& sessions;
    const OwnToolRegistry& own_tools;
    std::uint64_t extension_deadline_ms;
    std::uint64_t debugger_idle_ms;
    long browser_pid;
    // A tab as a session may see it (title and URL withheld where it may not read).
    std::function<Json(const Tab& tab, const Session& session)> tab_summary;
    // What the policy says of the session reading the tab's site. Only a tab
    // it may read without asking is attached ahead of its first call
    // (tabs.focused attachAhead: a site the person has not allowed sees no
    // debugger until a call is let through); one it may not read at all
    // (denied) is never shown to the person (focus_tab show) nor named as
    // theirs (list_tabs active, focus_tab "active").
    std::function<PolicyGate::Verdict(const Session& session, const Tab& tab)> read_verdict;
    std::function<void()> after_tabs_changed;  // focus, lists and tabs told to every session
    std::function<void()> note_state_changed;  // host.state
    std::function<bool()> shutting_down;
    std::function<Json()> connection_status;  // what list_tabs says of the link
  };

  explicit TabTools(Parts parts) : parts_(std::move(parts)) {}

  // The tools' parts: one signature with every host tool's.
  void ListTabs(Session& session, const ToolCall& call, Reply reply);
  void OpenTab(Session& session, const ToolCall& call, Reply reply);
  void FocusTab(Session& session, const ToolCall& call, Reply reply);
  void CloseTab(Session& session, const ToolCall& call, Reply reply);

  // A session's shim launched this browser headless (hello
  // launchedHeadlessPid == our browser's pid): the tabs showing about:blank now
  // are its launch tab, closed once open_tab has opened a tab — ~100 MiB the
  // agent never uses. Only the first such hello counts.
  void NoteLaunchedHeadless(long pid);
  // A browser a shim launched with --silent-debugger-extension-api shows no
  // debugger bar: its extension is told (ext_method::kNoDebuggerBar) before the
  // session's first call.
  void NoteLaunchedWithoutBar(long pid);
  // Tells the extension which tabs some session is focused on (tabs.focused),
  // when that set changed or `always`: it detaches the debugger from the rest.
  void SyncFocused(bool always = false);

 private:
  void CloseLaunchTabs();
  // A launch tab still blank, for open_tab to go into (no longer one of launch_tabs_), or none.
  std::optional<std::int64_t> TakeLaunchTab();
  std::expected<std::int64_t, std::string> FocusTarget(const Json& args, const Session& session) const;
  PolicyGate::Verdict ReadVerdict(const Session& session, const Tab& tab) const {
    return parts_.read_verdict ? parts_.read_verdict(session, tab) : PolicyGate::Verdict::kDenied;
  }
  bool Reads(const Session& session, const Tab& tab) const {
    return ReadVerdict(session, tab) == PolicyGate::Verdict::kAllowed;
  }
  bool ReadDenied(const Session& session, const Tab& tab) const {
    return ReadVerdict(session, tab) == PolicyGate::Verdict::kDenied;
  }

  Parts parts_;
  std::vector<std::int64_t> launch_tabs_;  // NoteLaunchedHeadless
  bool launch_noted_ = false;
  // The focused-tab set the extension was last told (tabs.focused).
  std::optional<std::set<std::int64_t>> focused_told_;
  std::set<std::int64_t> ahead_told_;  // its attachAhead
};

}  // namespace tb
