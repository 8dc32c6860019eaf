// Where the shim finds what it needs: everything next to itself, in the build
// tree (build/bin, build/share) as in an install prefix (bin, share).
#pragma once

#include <functional>
#include <string>

#include "common/platform.h"
#include "common/user_dirs.h"  // HomeDir, for the manifest locations

namespace tb {

std::string ExecutableDir();  // UTF-8 on Windows too (GetModuleFileNameW)
std::string HostBinary();     // <exe dir>/tabbridge-host (.exe on Windows)
// $TABBRIDGE_EXTENSION_DIR, else on Windows <exe dir>/extension (the zip's
// layout) if there, else <exe dir>/../share/tabbridge/extension.
std::string ExtensionDir();
// $TABBRIDGE_PROFILE_DIR, else $XDG_DATA_HOME/tabbridge/profile; on Windows
// %LOCALAPPDATA%\tabbridge\profile.
std::string ProfileDir();
std::string ProfileDirFor(Platform platform, const std::function<std::string(const char*)>& env);
// The first executable `program` on $PATH, or "".
std::string FindOnPath(const std::string& program);
// Whether `path` can be run (access X_OK; on Windows: a regular file).
bool IsExecutable(const std::string& path);

}  // namespace tb
