// `tabbridge tools [--json | --js | --wire-js | --wire-json | --caps-json]`:
// the tools tabbridge itself serves, from the one catalog
// (common/tool_catalog.cpp) — a table for people, the MCP tool objects, or
// extension/worker/tool_catalog.js as it must read — the wire constants
// (common/protocol.h) as extension/worker/wire.js or JSON, and the
// capabilities with their tools (common/capabilities.h) as JSON
// (codegen/generate.mjs writes every copy).
#pragma once

#include <string>
#include <vector>

namespace tb {

int RunTools(const std::vector<std::string>& args);

}  // namespace tb
