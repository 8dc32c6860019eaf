// The policy on a session's focused tab, for what the host lists and offers
// (a call is decided by the call gate: host/call_gate.h). Free functions over
// the tab table and the policy, so that every part that lists asks the same.
#pragma once

#include <optional>
#include <string>

#include "common/policy.h"
#include "host/policy_gate.h"
#include "host/session.h"
#include "host/tab_table.h"

namespace tb {

// The URL of the tab `session` is focused on, if any.
std::optional<std::string> FocusedTabUrl(const TabTable& tabs, const Session& session);
// Whether the policy lets `session` do `cap` on its focused tab (false without one).
bool MayOnFocused(const TabTable& tabs, const PolicyGate& policy_gate, const Session& session, policy::Cap cap);
// Whether tools/list shows a tool needing `cap` on the focused tab: allowed,
// or left to the person (the call asks them).
bool ListsOnFocused(const TabTable& tabs, const PolicyGate& policy_gate, const Session& session, policy::Cap cap);

}  // namespace tb
