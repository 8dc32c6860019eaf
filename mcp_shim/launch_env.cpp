#include "mcp_shim/launch_env.h"

#include <algorithm>
#include <sstream>

namespace tb {
namespace {

bool HasArg(const std::vector<std::string>& args, std::string_view prefix) {
  return std::ranges::any_of(args, [prefix](const std::string& a) { return a.starts_with(prefix); });
}

}  // namespace

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
  if (platform == Platform::kWindows) return "winget install --id Google.Chrome";
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

}  // namespace tb
