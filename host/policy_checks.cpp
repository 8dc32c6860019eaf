// The policy on the session's focused tab, for what the host lists and
// forwards (a call is decided by the call gate: host/call_gate.h).
#include <string>

#include "host/host.h"

namespace tb {

std::optional<std::string> Host::FocusedUrl(const Session& session) const {
  const auto focus = session.focused_tab();
  const Tab* tab = focus ? tabs_.Find(*focus) : nullptr;
  if (tab == nullptr) return std::nullopt;
  return tab->url;
}

bool Host::MayOnFocused(const Session& session, policy::Cap cap) const {
  const auto url = FocusedUrl(session);
  return url && policy_.Allows(session, cap, *url);
}

bool Host::ListsOnFocused(const Session& session, policy::Cap cap) const {
  const auto url = FocusedUrl(session);
  return url && policy_.Check(session, cap, *url) != PolicyGate::Verdict::kDenied;
}

}  // namespace tb
