#include "host/policy_checks.h"

namespace tb {

std::optional<std::string> FocusedTabUrl(const TabTable& tabs, const Session& session) {
  const auto focus = session.focused_tab();
  const Tab* tab = focus ? tabs.Find(*focus) : nullptr;
  if (tab == nullptr) return std::nullopt;
  return tab->url;
}

bool MayOnFocused(const TabTable& tabs, const PolicyGate& policy_gate, const Session& session, policy::Cap cap) {
  const auto url = FocusedTabUrl(tabs, session);
  return url && policy_gate.Allows(session, cap, *url);
}

bool ListsOnFocused(const TabTable& tabs, const PolicyGate& policy_gate, const Session& session, policy::Cap cap) {
  const auto url = FocusedTabUrl(tabs, session);
  return url && policy_gate.Check(session, cap, *url) != PolicyGate::Verdict::kDenied;
}

}  // namespace tb
