// What each capability means, said once: the policy's (docs/policy.md), which
// of them the audit log keeps (docs/audit.md), and the session's (`tabbridge
// --caps`) with the tools each turns on. `tabbridge --help` and `tabbridge
// tools --caps-json` (codegen/generate.mjs: the docs' capability tables and
// the audit list) are made from this and the tool catalog, never by hand.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/jsonrpc.h"
#include "common/policy.h"

namespace tb::caps {

// Whether a call needing `cap` goes to the audit log: everything but reading.
constexpr bool Audited(policy::Cap cap) { return cap != policy::Cap::kRead; }

// What policy capability `cap` lets an agent do on a site, one line.
std::string_view Meaning(policy::Cap cap);

// A session capability (tools::kAllCaps) with what it turns on.
struct SessionCap {
  std::string_view name;
  // The tools it lists, or whose schema it widens (html: read_page), from the catalog.
  std::vector<std::string> tools;
  // One line; empty when nobody wrote one (a unit test fails then).
  std::string_view meaning;
};
std::vector<SessionCap> SessionCaps();

// The --caps lines of `tabbridge --help`: one per session capability
// ("name (tools): meaning"), each line starting with `indent` and wrapped at
// `width` columns (continuations indented two more).
std::string SessionCapsHelp(std::string_view indent, std::size_t width);

// For codegen: {policy: [{name, meaning, audited}], session: [{name, tools,
// meaning}], tools: [{name, capability (null: none), sessionCap (null: listed
// by default)}]}, every tool tabbridge serves in the catalog's order.
Json CapabilitiesJson();

}  // namespace tb::caps
