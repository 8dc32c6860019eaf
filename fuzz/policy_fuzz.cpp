// The policy file and URLs (common/policy.h): any file text parses to a policy
// or a malformed one with a message, any URL gets a decision, and a malformed
// file never allows anything. Input: the file, then "\n\x01", then a URL.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/policy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto split = input.find("\n\x01");
  const std::string_view file = input.substr(0, split);
  const std::string_view url = split == std::string_view::npos ? std::string_view() : input.substr(split + 2);
  namespace policy = tb::policy;
  const policy::Policy p = policy::Parse(file, "/fuzz/policy.json");
  if (p.source == policy::Policy::Source::kMalformed && p.error.empty()) std::abort();  // say what is wrong
  for (const auto& rule : p.rules) (void)rule.Describe();
  for (const auto cap : policy::kAllCaps) {
    const auto decision = policy::Decide(p, cap, url);
    if (p.source == policy::Policy::Source::kMalformed && decision.allowed) std::abort();  // fail closed
    if (decision.reason.empty()) std::abort();
    if (!decision.allowed) (void)policy::DenialMessage(p, "click", url, decision);
  }
  if (const auto site = policy::SiteOf(url)) (void)site->Describe();
  if (const auto pattern = policy::ParsePattern(url)) {
    if (const auto site = policy::SiteOf(url)) (void)policy::Matches(*pattern, *site);
  }
  return 0;
}
