#include "mcp_shim/policy_command.h"

#include <cstdio>

#include "common/policy_grants.h"
#include "mcp_shim/wsl_policy.h"

namespace tb {

std::string DescribePolicy(const policy::Policy& p, const std::string& url) {
  const std::string path = policy::ShortPath(p.path);
  std::string out;
  switch (p.source) {
    case policy::Policy::Source::kNone:
      out = "policy: no file at " + path +
            "\n  the person is asked the first time an agent reads or acts on a site (Allow once, Always,\n"
            "  Deny); `tabbridge allow SITE` grants one ahead; {\"default\": \"allow\", \"rules\": []}\n"
            "  allows every site without asking (docs/policy.md)\n";
      break;
    case policy::Policy::Source::kMalformed:
      out = "policy: " + path + " is MALFORMED: " + p.error +
            "\n  the host denies everything until it is fixed (it re-reads the file when it changes)\n";
      break;
    case policy::Policy::Source::kFile:
      out = "policy: " + path + "\n";
      for (std::size_t i = 0; i < p.rules.size(); ++i) {
        out += "  rule " + std::to_string(i + 1) + ": " + p.rules[i].Describe() + "\n";
      }
      out += std::string("  sites no rule matches: ") +
             (p.fallback == policy::Default::kDeny  ? "nothing allowed (\"default\": \"deny\")\n"
              : p.fallback == policy::Default::kAsk ? "the person is asked (\"default\": \"ask\")\n"
                                                    : "everything allowed (default allow)\n");
      out +=
          "  deny wins; a capability no matching rule allows is denied; sessions narrow it further\n"
          "  (--read-only) and eval/download still need --caps\n";
      break;
  }
  if (url.empty()) return out;
  const auto site = policy::SiteOf(url);
  out += "\n" + url + " (site " + (site ? site->Describe() : std::string("unknown: not a URL")) + "):\n";
  for (const auto cap : policy::kAllCaps) {
    const auto decision = policy::Decide(p, cap, url);
    char line[32];
    std::snprintf(line, sizeof line, "  %-9s %-8s ", std::string(policy::Name(cap)).c_str(),
                  decision.allowed ? "allowed"
                  : decision.ask   ? "asked"
                                   : "DENIED");
    out += line + decision.reason;
    if (decision.allowed && (cap == policy::Cap::kEval || cap == policy::Cap::kDownload)) {
      out += " — for sessions started with --caps " + std::string(policy::Name(cap));
    }
    out += "\n";
  }
  return out;
}

int RunAllow(const std::vector<std::string>& given) {
  std::vector<std::string> args = given;
  if (const auto routed = wsl::RouteInWsl("allow", args)) return *routed;
  const char* usage =
      "usage: tabbridge allow [--linux] SITE [read|act|eval|download]\n"
      "  writes a rule into the policy file so agents may read SITE (and go to its pages), or also act\n"
      "  there, run JavaScript or download (eval and download still need --caps); SITE is a host such\n"
      "  as github.com or localhost:3000. In WSL the Windows tabbridge.exe runs it (the browser's host\n"
      "  on Windows obeys the Windows file); --linux writes this Linux's file instead\n";
  if (args.empty() || args.size() > 2 || args[0].starts_with("-")) {
    std::fputs(usage, stderr);
    return 2;
  }
  const auto access = policy::AccessFromName(args.size() == 2 ? args[1] : "read");
  if (!access) {
    std::fprintf(stderr, "tabbridge allow: \"%s\" is not read, act, eval or download\n%s", args[1].c_str(), usage);
    return 2;
  }
  const std::string path = policy::DefaultPath();
  auto rule = policy::AddGrant(path, args[0], policy::Allowed(*access));
  if (!rule) {
    std::fprintf(stderr, "tabbridge allow: %s\n", rule.error().c_str());
    return 1;
  }
  std::printf("%s: %s\n(running hosts apply it within a second)\n", policy::ShortPath(path).c_str(), rule->c_str());
  return 0;
}

int RunPolicy(const std::vector<std::string>& given) {
  std::vector<std::string> args = given;
  if (const auto routed = wsl::RouteInWsl("policy", args)) return *routed;
  if (args.size() > 1 || (!args.empty() && args[0].starts_with("-"))) {
    std::fputs(
        "usage: tabbridge policy [--linux] [URL]\n  in WSL the Windows tabbridge.exe answers (the browser's "
        "host on Windows obeys the Windows file); --linux reads this Linux's\n",
        stderr);
    return 2;
  }
  const auto p = policy::Load(policy::DefaultPath());
  std::fputs(DescribePolicy(p, args.empty() ? "" : args[0]).c_str(), stdout);
  return p.source == policy::Policy::Source::kMalformed ? 1 : 0;
}

}  // namespace tb
