#include "mcp_shim/wsl_install.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace tb::wsl {
namespace {

constexpr std::string_view kUsers = "/mnt/c/Users";
constexpr std::string_view kUnderProfile = "/AppData/Local/tabbridge/tabbridge.exe";

std::string Lower(std::string_view text) {
  std::string lower(text);
  std::ranges::transform(lower, lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower;
}

// Windows' own profiles, never a person's.
bool SystemProfile(std::string_view name) {
  const std::string lower = Lower(name);
  return lower == "public" || lower == "default" || lower == "default user" || lower == "all users" ||
         lower == "desktop.ini";
}

std::string ShellQuoted(std::string_view text) {
  const bool plain = !text.empty() && std::ranges::all_of(text, [](unsigned char c) {
    return std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-' || c == ':' || c == '+' || c == '@';
  });
  if (plain) return std::string(text);
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The first line `command` prints, or nullopt when it fails or prints nothing.
std::optional<std::string> FirstLine(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::array<char, 4096> buffer{};
  std::string line;
  if (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr) line = buffer.data();
  const int status = ::pclose(pipe);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' ')) line.pop_back();
  if (status != 0 || line.empty()) return std::nullopt;
  return line;
}

}  // namespace

std::optional<std::string> MountPath(std::string_view windows_path) {
  if (windows_path.size() < 3 || !std::isalpha(static_cast<unsigned char>(windows_path[0])) || windows_path[1] != ':' ||
      (windows_path[2] != '\\' && windows_path[2] != '/')) {
    return std::nullopt;
  }
  std::string path = "/mnt/" + Lower(windows_path.substr(0, 1));
  for (const char c : windows_path.substr(2)) path += c == '\\' ? '/' : c;
  while (path.size() > 7 && path.back() == '/') path.pop_back();  // "/mnt/c/" stays
  return path;
}

std::vector<std::string> FindInstalled(const Probe& probe) {
  std::vector<std::string> found;
  auto add = [&](const std::string& exe) {
    if (std::ranges::find(found, exe) == found.end() && probe.exists(exe)) found.push_back(exe);
  };
  if (const auto windows_dir = probe.local_app_data ? probe.local_app_data() : std::nullopt) {
    auto mounted = probe.wsl_path ? probe.wsl_path(*windows_dir) : std::nullopt;
    if (!mounted) mounted = MountPath(*windows_dir);
    if (mounted) add(*mounted + "/tabbridge/tabbridge.exe");
  }
  std::vector<std::string> profiles = probe.list_dir(std::string(kUsers));
  std::erase_if(profiles, SystemProfile);
  std::ranges::sort(profiles);
  // The Windows profile named like the WSL user first: most people use one name.
  std::ranges::stable_partition(profiles, [&](const std::string& name) { return Lower(name) == Lower(probe.user); });
  for (const auto& name : profiles) add(std::string(kUsers) + "/" + name + std::string(kUnderProfile));
  return found;
}

std::string McpAddLine(std::string_view exe) { return "claude mcp add tabbridge -- " + ShellQuoted(exe); }

std::string NoBrowserHint(const std::vector<std::string>& installed) {
  const std::string intro =
      " This is WSL: a browser on Windows is reached through the Windows tabbridge.exe, not this Linux tabbridge.";
  if (installed.empty()) {
    return intro + " None is installed under " + std::string(kUsers) +
           "/*/AppData/Local/tabbridge: install it on Windows (tabbridge-windows.zip, install.ps1; docs/windows.md), "
           "then configure the MCP client with `" +
           McpAddLine(kTemplatePath) + "`.";
  }
  return intro + " Configure the MCP client with it: `" + McpAddLine(installed.front()) +
         "` (`tabbridge wsl` prints it).";
}

Probe SystemProbe(bool interop) {
  Probe probe;
  if (interop) {
    // From a Windows directory, or cmd.exe warns about UNC paths; `timeout` so no call hangs.
    probe.local_app_data = [] {
      return FirstLine("cd /mnt/c 2>/dev/null; timeout 10 cmd.exe /d /c 'echo %LOCALAPPDATA%' 2>/dev/null");
    };
    probe.wsl_path = [](const std::string& windows_path) {
      return FirstLine("timeout 10 wslpath -u " + ShellQuoted(windows_path) + " 2>/dev/null");
    };
  }
  probe.list_dir = [](const std::string& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(dir, ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec)) {
      names.push_back(it->path().filename().string());
    }
    return names;
  };
  probe.exists = [](const std::string& path) {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
  };
  const char* user = std::getenv("USER");
  probe.user = user != nullptr ? user : "";
  return probe;
}

}  // namespace tb::wsl
