// What the person answered for one session — "Allow once" and "Deny" on the
// grant surface or through the client's elicitation — kept until the
// session ends ("Always" goes into the policy file instead). Only asked
// questions are answered here: a rule of the file is never overridden.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/policy.h"
#include "common/policy_grants.h"

namespace tb {

class SessionGrants {
 public:
  // `site` as policy::Site::Describe() writes it ("github.com", "localhost:8080").
  void Allow(const std::string& site, policy::Access access);
  void Deny(const std::string& site, policy::Access access);
  // true: the person allowed `cap` there; false: denied it; nullopt: not asked yet.
  std::optional<bool> Decides(const std::string& site, policy::Cap cap) const;
  // Forgets what the person allowed on `site`; returns whether there was any.
  bool Revoke(const std::string& site);
  // What is allowed, by site (the popup lists it).
  const std::map<std::string, std::set<policy::Cap>>& allowed() const { return allowed_; }

 private:
  std::map<std::string, std::set<policy::Cap>> allowed_;
  std::map<std::string, std::set<policy::Cap>> denied_;
};

}  // namespace tb
