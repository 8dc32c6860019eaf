#include "mcp_shim/paths.h"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#ifdef _WIN32
#include <windows.h>
#else
#include <unistd.h>
#endif
#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif

#include "common/platform.h"
#include "common/utf8_path.h"

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
#ifdef _WIN32
  std::wstring buffer(MAX_PATH, L'\0');
  for (;;) {
    const DWORD size = ::GetModuleFileNameW(nullptr, buffer.data(), static_cast<DWORD>(buffer.size()));
    if (size == 0) return ".";
    if (size < buffer.size()) {
      buffer.resize(size);
      break;
    }
    buffer.resize(buffer.size() * 2);  // truncated: a longer path (\\?\…)
  }
  const std::u8string utf8 = fs::path(buffer).parent_path().u8string();
  return std::string(utf8.begin(), utf8.end());
#elif defined(__APPLE__)
  char buffer[PATH_MAX];
  uint32_t size = sizeof(buffer);
  if (_NSGetExecutablePath(buffer, &size) != 0) return ".";
  const fs::path exe = fs::canonical(buffer, ec);
  return ec ? std::string(".") : exe.parent_path().string();
#else
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : exe.parent_path().string();
#endif
}

bool IsExecutable(const std::string& path) {
#ifdef _WIN32
  std::error_code ec;
  return fs::is_regular_file(path, ec);  // Windows runs any file; CreateProcessW says the rest
#else
  return ::access(path.c_str(), X_OK) == 0;
#endif
}

std::string HostBinary() {
  return ExecutableDir() + (kThisPlatform == Platform::kWindows ? "\\tabbridge-host.exe" : "/tabbridge-host");
}

std::string ExtensionDir() {
  if (auto dir = Env("TABBRIDGE_EXTENSION_DIR"); !dir.empty()) return dir;
  std::error_code ec;
  const fs::path exe_dir = Utf8Path(ExecutableDir());
  // The Windows zip (install/windows.sh) puts extension\ next to the .exe.
  if (kThisPlatform == Platform::kWindows && fs::is_directory(exe_dir / "extension", ec)) {
    return Utf8String(exe_dir / "extension");
  }
  return Utf8String(fs::weakly_canonical(exe_dir / ".." / "share" / "tabbridge" / "extension", ec));
}

std::string FindOnPath(const std::string& program) {
  std::stringstream dirs(Env("PATH"));
  const char separator = kThisPlatform == Platform::kWindows ? ';' : ':';
  for (std::string dir; std::getline(dirs, dir, separator);) {
    const std::string candidate = dir + "/" + program;
    if (!dir.empty() && IsExecutable(candidate)) return candidate;
  }
  return "";
}

std::string ProfileDir() { return ProfileDirFor(kThisPlatform, Env); }

std::string ProfileDirFor(Platform platform, const std::function<std::string(const char*)>& env) {
  if (auto dir = env("TABBRIDGE_PROFILE_DIR"); !dir.empty()) return dir;
  if (platform == Platform::kWindows) {
    // Where Windows programs keep per-user data that does not roam.
    if (auto local = env("LOCALAPPDATA"); !local.empty()) return local + "\\tabbridge\\profile";
  }
  return XdgDir("XDG_DATA_HOME", ".local/share") + "/tabbridge/profile";
}

}  // namespace tb
