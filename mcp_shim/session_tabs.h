// What a session had in a browser that may die, and the words for what became
// of it: the tabs the host last reported (tabbridge/tabs), which of them to
// reopen or find again after a restart, and the sentences the model reads.
// Pure: mcp_shim/browser_recovery.* does the waiting and the calls.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/jsonrpc.h"
#include "mcp_shim/launcher.h"

namespace tb {

struct KnownTab {
  std::int64_t id = 0;
  std::string url;
};

// The session's tabs (those it opened or focused, still open) and its focus.
struct SessionTabs {
  std::vector<KnownTab> tabs;
  std::optional<std::int64_t> focused;
};

// tabbridge/tabs's params ({tabs: [{id, url}], focusedTabId}); nullopt when
// malformed. A focus on a tab not listed is kept (the host lists agent tabs only).
std::optional<SessionTabs> ParseSessionTabs(const Json& params);

// The tabs list_tabs shows ({tabs: [{id, url}]}): what is open now.
std::vector<KnownTab> ParseOpenTabs(const Json& structured);

// One remembered tab after a restart: found open again (`found`: the tab now
// showing it — the same id and URL after a host restart, or a tab at its URL
// no other step took), or to be reopened at its URL.
struct RestoreStep {
  KnownTab was;
  std::optional<std::int64_t> found;
};

// In the remembered order; each open tab is claimed by one step at most.
std::vector<RestoreStep> PlanRestore(const SessionTabs& remembered, const std::vector<KnownTab>& open_now);

// How it ended, as "had crashed (signal 9)" / "had exited (status 1)" /
// "had been closed (status 0)".
std::string HowItEnded(const BrowserExit& exit);

// Whether an end is a crash worth starting the browser again at once (a
// signal, or a status that is not 0); a browser closed cleanly is started
// again by the next call only.
bool Crashed(const BrowserExit& exit);

// "15:58:01 UTC (12 s ago)".
std::string WhenSaid(std::chrono::system_clock::time_point at, std::chrono::system_clock::time_point now);

// The answer while a browser we did not launch is gone: it "went away" (we
// cannot tell a crash from a close), when, and that we do not start it.
std::string GoneNote(const std::string& browser, long pid, std::chrono::system_clock::time_point at,
                     std::chrono::system_clock::time_point now);

// What restoring did, e.g. "this session's tab: tab 4 is now tab 9; focus is
// on tab 9 again"; "" when the session had no tabs. No URL: the policy may
// withhold a tab's URL from the model (list_tabs shows what it may see).
struct Restored {
  KnownTab was;
  std::optional<std::int64_t> now;  // nullopt: could not be reopened
  std::string error;                // why, then
};
std::string RestoreSummary(const std::vector<Restored>& restored, std::optional<std::int64_t> focused_now);

}  // namespace tb
