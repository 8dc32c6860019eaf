// HomeDir and XdgDir on Windows. Home is %HOME% if set (as under MSYS), else
// %USERPROFILE%. The XDG directories keep their variables (an absolute
// XDG_CONFIG_HOME still wins) but fall back to where Windows programs keep
// things: settings (the policy file) in %APPDATA%, which roams with the
// user; state, data and caches (the audit log, the launch profile) in
// %LOCALAPPDATA%, which stays on the machine. Every variable is read as
// UTF-8 through the wide API, so a user named "Zoë" keeps her name.
#include <string>
#include <string_view>

#include "common/user_dirs.h"
#include "common/utf16_windows.h"

namespace tb {
namespace {

bool IsAbsolute(std::string_view path) {
  if (!path.empty() && (path[0] == '/' || path[0] == '\\')) return true;
  return path.size() >= 3 && path[1] == ':' && (path[2] == '/' || path[2] == '\\');
}

std::string WithoutTrailingSlashes(std::string path) {
  while (!path.empty() && (path.back() == '/' || path.back() == '\\')) path.pop_back();
  return path;
}

}  // namespace

std::string HomeDir() {
  for (const char* variable : {"HOME", "USERPROFILE"}) {
    if (std::string home = EnvUtf8(variable); !home.empty()) return WithoutTrailingSlashes(std::move(home));
  }
  return "";
}

std::string XdgDir(const char* variable, std::string_view fallback) {
  if (std::string dir = EnvUtf8(variable); IsAbsolute(dir)) return dir;
  const char* windows_dir = fallback == ".config" ? "APPDATA" : "LOCALAPPDATA";
  if (std::string dir = EnvUtf8(windows_dir); IsAbsolute(dir)) return WithoutTrailingSlashes(std::move(dir));
  return HomeDir() + "/" + std::string(fallback);
}

}  // namespace tb
