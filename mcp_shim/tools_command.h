// `tabbridge tools [--json | --js]`: the tools tabbridge itself serves, from
// the one catalog (common/tool_catalog.cpp) — a table for people, the MCP
// tool objects, or extension/worker/tool_catalog.js as it must read.
#pragma once

#include <string>
#include <vector>

namespace tb {

int RunTools(const std::vector<std::string>& args);

}  // namespace tb
