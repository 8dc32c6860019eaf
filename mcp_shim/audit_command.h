// `tabbridge audit [-n N] [--json]`: the last entries of the audit log
// (docs/audit.md), one readable line each or the JSON lines as written.
#pragma once

#include <string>
#include <vector>

namespace tb {

// `args` are what follows "audit". Exit 0, or 2 for bad options (usage on stderr).
int RunAudit(const std::vector<std::string>& args);

}  // namespace tb
