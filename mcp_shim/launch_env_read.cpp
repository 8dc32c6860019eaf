// The POSIX side of launch_env.h: what this machine lets a launched browser
// do (root, user namespaces, a setuid sandbox, a display).
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "mcp_shim/launch_env.h"

namespace tb {
namespace fs = std::filesystem;

namespace {

bool EnvSet(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0';
}

// Whether an unprivileged process may make a user namespace (Chromium's
// namespace sandbox needs one): tried in a child, which exits at once.
bool ProbeUserNamespaces() {
#ifdef __linux__
  const pid_t pid = ::fork();
  if (pid < 0) return true;  // cannot tell: leave the sandbox on
  if (pid == 0) _exit(::unshare(CLONE_NEWUSER) == 0 ? 0 : 1);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
#else
  return true;
#endif
}

// Asked once a process: the answer does not change while the shim runs, and
// the probe forks and waits on the event loop's thread.
bool UserNamespacesWork() {
  static const bool works = ProbeUserNamespaces();
  return works;
}

bool SetuidRoot(const fs::path& file) {
  struct stat st {};
  return ::stat(file.c_str(), &st) == 0 && st.st_uid == 0 && (st.st_mode & S_ISUID) != 0;
}

// Chrome's setuid helper sits next to its binary (/opt/google/chrome);
// /usr/bin/chromium is a script, so look beside what it resolves to as well.
bool HasSetuidSandbox(const std::string& executable) {
  std::error_code ec;
  std::vector<fs::path> dirs = {fs::path(executable).parent_path()};
  if (auto real = fs::canonical(executable, ec); !ec) dirs.push_back(real.parent_path());
  dirs.emplace_back("/usr/lib/chromium");
  return std::ranges::any_of(dirs, [](const fs::path& dir) { return SetuidRoot(dir / "chrome-sandbox"); });
}

}  // namespace

LaunchEnv ReadLaunchEnv(const std::string& executable) {
  LaunchEnv env;
  env.root = ::geteuid() == 0;
  env.platform = kThisPlatform;
  if (env.platform == Platform::kLinux) {
    env.display = EnvSet("DISPLAY") || EnvSet("WAYLAND_DISPLAY");
    if (!env.root) {
      env.user_namespaces = UserNamespacesWork();
      if (!env.user_namespaces) env.setuid_sandbox = HasSetuidSandbox(executable);
    }
  }
  return env;
}

std::string BrowserInstallCommand() {
  std::string ids;
  std::ifstream in("/etc/os-release");
  for (std::string line; std::getline(in, line);) {
    for (std::string_view key : {"ID=", "ID_LIKE="}) {
      if (!line.starts_with(key)) continue;
      std::string value = line.substr(key.size());
      std::erase(value, '"');
      ids += value + " ";
    }
  }
  return BrowserInstallCommand(kThisPlatform, ids, ::geteuid() == 0);
}

}  // namespace tb
