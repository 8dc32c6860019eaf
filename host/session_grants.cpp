#include "host/session_grants.h"

namespace tb {

void SessionGrants::Allow(const std::string& site, policy::Access access) {
  for (const auto cap : policy::Allowed(access)) allowed_[site].insert(cap);
}

void SessionGrants::Deny(const std::string& site, policy::Access access) {
  for (const auto cap : policy::Denied(access)) denied_[site].insert(cap);
}

std::optional<bool> SessionGrants::Decides(const std::string& site, policy::Cap cap) const {
  // A deny wins: an earlier "once" for read does not outlast a later "Deny".
  if (const auto it = denied_.find(site); it != denied_.end() && it->second.contains(cap)) return false;
  if (const auto it = allowed_.find(site); it != allowed_.end() && it->second.contains(cap)) return true;
  return std::nullopt;
}

bool SessionGrants::Revoke(const std::string& site) { return allowed_.erase(site) > 0; }

}  // namespace tb
