// `tabbridge tools [--json | --js | --wire-js | --wire-json]`: the tools
// tabbridge itself serves, from the one catalog (common/tool_catalog.cpp) — a
// table for people, the MCP tool objects, or extension/worker/tool_catalog.js
// as it must read — and the wire constants (common/protocol.h) as
// extension/worker/wire.js or JSON (codegen/generate.mjs writes every copy).
#pragma once

#include <string>
#include <vector>

namespace tb {

int RunTools(const std::vector<std::string>& args);

}  // namespace tb
