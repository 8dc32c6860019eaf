// HomeDir and XdgDir on Windows: %HOME% if set (as under MSYS), else
// %USERPROFILE%. The places Windows programs keep state (%LOCALAPPDATA%,
// %APPDATA%) are a later step (docs/windows.md).
#include "common/user_dirs.h"

#include <cstdlib>
#include <string>
#include <string_view>

namespace tb {
namespace {

bool IsAbsolute(std::string_view path) {
  if (!path.empty() && (path[0] == '/' || path[0] == '\\')) return true;
  return path.size() >= 3 && path[1] == ':' && (path[2] == '/' || path[2] == '\\');
}

}  // namespace

std::string HomeDir() {
  std::string home;
  for (const char* variable : {"HOME", "USERPROFILE"}) {
    if (const char* env = std::getenv(variable); env != nullptr && env[0] != '\0') {
      home = env;
      break;
    }
  }
  while (!home.empty() && (home.back() == '/' || home.back() == '\\')) home.pop_back();
  return home;
}

std::string XdgDir(const char* variable, std::string_view fallback) {
  const char* env = std::getenv(variable);
  if (env != nullptr && IsAbsolute(env)) return env;
  return HomeDir() + "/" + std::string(fallback);
}

}  // namespace tb
