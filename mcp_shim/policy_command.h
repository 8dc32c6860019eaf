// `tabbridge policy [URL]`: the effective policy (docs/policy.md) and, for a
// URL, what each capability may do there and which rule decides it.
#pragma once

#include <string>
#include <vector>

#include "common/policy.h"

namespace tb {

// The report `tabbridge policy` prints for `policy` (and `url` when not empty).
std::string DescribePolicy(const policy::Policy& policy, const std::string& url);
// Both, typed inside WSL, run the Windows tabbridge.exe instead (its policy
// file is the one the browser's host obeys) unless given --linux (wsl_policy.h).
int RunPolicy(const std::vector<std::string>& args);
// `tabbridge allow SITE [read|act|eval|download]`: the person's grant, written
// into the policy file ahead of any question (common/policy_grants.h).
int RunAllow(const std::vector<std::string>& args);

}  // namespace tb
