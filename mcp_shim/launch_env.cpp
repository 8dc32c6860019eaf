#include "mcp_shim/launch_env.h"

#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tb {
namespace fs = std::filesystem;

namespace {

bool HasArg(const std::vector<std::string>& args, std::string_view prefix) {
  return std::ranges::any_of(args, [prefix](const std::string& a) { return a.starts_with(prefix); });
}

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

LaunchChoice ChooseLaunchArgs(const LaunchEnv& env, const std::vector<std::string>& user_args) {
  LaunchChoice choice;
  choice.no_sandbox = HasArg(user_args, "--no-sandbox");
  if (!choice.no_sandbox && env.platform == Platform::kLinux) {
    std::string why;
    if (env.root) {
      why = "tabbridge runs as root, and Chromium refuses its sandbox to root";
    } else if (!env.user_namespaces && !env.setuid_sandbox) {
      why =
          "this system blocks the user namespaces Chromium's sandbox needs (a container?) and has no setuid "
          "chrome-sandbox";
    }
    if (!why.empty()) {
      choice.args.emplace_back("--no-sandbox");
      choice.no_sandbox = true;
      choice.notes.push_back(
          "security: tabbridge starts the browser with --no-sandbox because " + why +
          "; a page that exploits a browser bug gets this user's rights. Use it on sites you trust, or run as a "
          "normal user where user namespaces work");
    }
  }
  choice.headless = HasArg(user_args, "--headless");
  const bool user_decides_display = choice.headless || HasArg(user_args, "--ozone-platform=");
  if (!user_decides_display && !env.display && env.platform == Platform::kLinux) {
    choice.args.emplace_back("--headless=new");
    choice.headless = true;
    choice.notes.push_back(
        "headless: there is no display here (DISPLAY and WAYLAND_DISPLAY are unset), so the browser runs without a "
        "window; screenshots still work. Set DISPLAY, or put --headless or --ozone-platform=… in "
        "TABBRIDGE_BROWSER_ARGS, to decide yourself");
  }
  return choice;
}

std::string BrowserInstallCommand(Platform platform, const std::string& os_release_id_like, bool root) {
  if (platform == Platform::kMacOS) return "brew install --cask google-chrome";
  std::stringstream words(os_release_id_like);
  const std::string sudo = root ? "" : "sudo ";
  for (std::string id; words >> id;) {
    if (id == "ubuntu") return sudo + "apt-get install -y chromium-browser";
    if (id == "debian") return sudo + "apt-get install -y chromium";
    if (id == "fedora" || id == "rhel" || id == "centos") return sudo + "dnf install -y chromium";
    if (id == "arch") return sudo + "pacman -S chromium";
    if (id == "alpine") return sudo + "apk add chromium";
    if (id == "opensuse" || id == "suse") return sudo + "zypper install chromium";
  }
  return "";
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
