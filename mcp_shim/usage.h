// `tabbridge --help`: every command and option; the --caps lines come from
// the capability list (common/capabilities.h), so a new capability cannot be
// left out of it.
#pragma once

#include <string>

namespace tb {

std::string Usage();

}  // namespace tb
