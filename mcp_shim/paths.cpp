#include "mcp_shim/paths.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif

namespace tb {
namespace fs = std::filesystem;

namespace {
std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}
}  // namespace

std::string ExecutableDir() {
  std::error_code ec;
#ifdef __APPLE__
  char buffer[PATH_MAX];
  uint32_t size = sizeof(buffer);
  if (_NSGetExecutablePath(buffer, &size) != 0) return ".";
  const fs::path exe = fs::canonical(buffer, ec);
#else
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
#endif
  return ec ? std::string(".") : exe.parent_path().string();
}

std::string HostBinary() { return ExecutableDir() + "/tabbridge-host"; }

std::string ExtensionDir() {
  if (auto dir = Env("TABBRIDGE_EXTENSION_DIR"); !dir.empty()) return dir;
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(fs::path(ExecutableDir()) / ".." / "share" / "tabbridge" / "extension", ec);
  return dir.string();
}

std::string FindOnPath(const std::string& program) {
  std::stringstream dirs(Env("PATH"));
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = dir + "/" + program;
    if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::string ProfileDir() {
  if (auto dir = Env("TABBRIDGE_PROFILE_DIR"); !dir.empty()) return dir;
  return XdgDir("XDG_DATA_HOME", ".local/share") + "/tabbridge/profile";
}

}  // namespace tb
