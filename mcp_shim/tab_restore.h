// Reopens a session's tabs on a host it (re)attached to, through the
// ordinary tools (list_tabs, open_tab, focus_tab: the policy and the audit
// log see them as the session's calls), and says what became of each.
#pragma once

#include <functional>
#include <string>

#include "mcp_shim/host_link.h"
#include "mcp_shim/session_tabs.h"

namespace tb {

// At most this many tabs are reopened (the first ones the session had).
inline constexpr std::size_t kMaxRestoredTabs = 20;

// `link()` is asked before each call (nullptr: the link went; the rest is
// skipped). `done` runs once with RestoreSummary's words ("" with no tabs).
void RestoreTabs(std::function<HostLink*()> link, SessionTabs remembered,
                 std::function<void(std::string summary)> done);

}  // namespace tb
