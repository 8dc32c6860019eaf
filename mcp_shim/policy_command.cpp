#include "mcp_shim/policy_command.h"

#include <cstdio>

namespace tb {

std::string DescribePolicy(const policy::Policy& p, const std::string& url) {
  const std::string path = policy::ShortPath(p.path);
  std::string out;
  switch (p.source) {
    case policy::Policy::Source::kNone:
      out = "policy: no file at " + path +
            "\n  read, act and navigate are allowed everywhere; eval and download for sessions started with\n"
            "  --caps eval / --caps download (docs/policy.md shows how to write one)\n";
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
             (p.default_deny ? "nothing allowed (\"default\": \"deny\")\n" : "everything allowed (default allow)\n");
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
                  decision.allowed ? "allowed" : "DENIED");
    out += line + decision.reason;
    if (decision.allowed && (cap == policy::Cap::kEval || cap == policy::Cap::kDownload)) {
      out += " — for sessions started with --caps " + std::string(policy::Name(cap));
    }
    out += "\n";
  }
  return out;
}

int RunPolicy(const std::vector<std::string>& args) {
  if (args.size() > 1 || (!args.empty() && args[0].starts_with("-"))) {
    std::fputs("usage: tabbridge policy [URL]\n", stderr);
    return 2;
  }
  const auto p = policy::Load(policy::DefaultPath());
  std::fputs(DescribePolicy(p, args.empty() ? "" : args[0]).c_str(), stdout);
  return p.source == policy::Policy::Source::kMalformed ? 1 : 0;
}

}  // namespace tb
