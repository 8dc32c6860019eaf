// Where the shim finds what it needs: everything next to itself, in the build
// tree (build/bin, build/share) as in an install prefix (bin, share).
#pragma once

#include <string>

#include "common/user_dirs.h"  // HomeDir, for the manifest locations

namespace tb {

std::string ExecutableDir();
std::string HostBinary();    // <exe dir>/tabbridge-host
std::string ExtensionDir();  // $TABBRIDGE_EXTENSION_DIR, else <exe dir>/../share/tabbridge/extension
std::string ProfileDir();    // $TABBRIDGE_PROFILE_DIR, else $XDG_DATA_HOME/tabbridge/profile
// The first executable `program` on $PATH, or "".
std::string FindOnPath(const std::string& program);

}  // namespace tb
