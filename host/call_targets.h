// What the policy decides a call on, read from the tool's declaration in the
// catalog (tools::PolicyTargets) and nothing else: no tool is named here. A
// tool that declares nothing is refused, so a new tool cannot slip past the
// check by being forgotten (issue 42).
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/jsonrpc.h"
#include "common/tool_catalog.h"

namespace tb {

struct CallTargets {
  std::vector<std::string> urls;  // every URL the policy decides for the call, the tab's first
  std::string tab_url;            // the tab it acts on ("" when none: open_tab): the audit line's url
  std::string goes_to;            // where it goes ("" when nowhere else): the audit line's target
};

// The URL of open tab `id`, if there is one.
using TabUrlOf = std::function<std::optional<std::string>(std::int64_t id)>;

// The targets of a call of a tool declared `declared`, with `args`, for a
// session focused on `focused_tab`. A target that does not exist (no focused
// tab, a closed tab) adds no URL: the tool itself says what is missing.
std::expected<CallTargets, std::string> TargetsOf(const tools::PolicyTargets& declared, const Json& args,
                                                  std::optional<std::int64_t> focused_tab, const TabUrlOf& tab_url);

// Where `target` goes as the policy sees it (only its site matters), from a
// tab on `base`: a path, query or fragment stays on the tab's site;
// "//host/…" (or "\\host") takes the tab's scheme; anything with a scheme is
// itself. The extension resolves it the same way before it navigates.
std::string PolicyTarget(const std::string& base, std::string target);

}  // namespace tb
