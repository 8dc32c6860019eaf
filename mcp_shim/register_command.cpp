#include "mcp_shim/register_command.h"

#include <algorithm>
#include <cstdio>

#include "mcp_shim/native_manifest.h"
#include "mcp_shim/paths.h"

namespace tb {
namespace {

struct RegisterArgs {
  bool system = false;
  bool print = false;
  std::string root;
  std::string host_path;
  std::vector<std::string> dirs;
};

std::expected<RegisterArgs, std::string> Parse(const std::vector<std::string>& args) {
  RegisterArgs parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&](const char* what) -> std::expected<std::string, std::string> {
      if (i + 1 >= args.size() || args[i + 1].empty()) return std::unexpected(arg + " needs " + what);
      return args[++i];
    };
    if (arg == "--system") {
      parsed.system = true;
    } else if (arg == "--print") {
      parsed.print = true;
    } else if (arg == "--root" || arg == "--host-path") {
      auto got = value(arg == "--root" ? "a directory" : "an absolute path");
      if (!got) return std::unexpected(got.error());
      (arg == "--root" ? parsed.root : parsed.host_path) = *got;
    } else if (arg.starts_with("--")) {
      return std::unexpected("unknown option '" + arg + "'");
    } else {
      parsed.dirs.push_back(arg);
    }
  }
  if (parsed.host_path.empty()) parsed.host_path = HostBinary();
  // Browsers on Linux and macOS run only an absolute host path.
  if (!parsed.host_path.starts_with('/')) return std::unexpected("--host-path must be absolute");
  if (parsed.system && !parsed.dirs.empty()) return std::unexpected("--system and directories exclude each other");
  return parsed;
}

// Each browser's system-wide directory once (Chrome and Chrome Beta share one).
std::vector<std::string> SystemDirs() {
  std::vector<std::string> dirs;
  for (const auto& browser : KnownBrowsers()) {
    if (std::ranges::find(dirs, browser.system_dir) == dirs.end()) dirs.push_back(browser.system_dir);
  }
  return dirs;
}

}  // namespace

int RunRegister(const std::vector<std::string>& args) {
  const auto parsed = Parse(args);
  if (!parsed) {
    std::fprintf(stderr, "tabbridge register: %s\n", parsed.error().c_str());
    return 2;
  }
  const auto id = InstalledExtensionId();
  if (!id) {
    std::fprintf(stderr, "tabbridge register: %s\n", id.error().c_str());
    return 1;
  }
  if (parsed->print) {
    std::printf("%s\n", ManifestJson(parsed->host_path, *id).dump(2).c_str());
    return 0;
  }
  std::vector<std::string> targets = parsed->dirs;
  if (parsed->system) {
    targets = SystemDirs();
  } else if (targets.empty()) {
    for (const auto& browser : KnownBrowsers()) {
      if (browser.found) targets.push_back(browser.manifest_dir);
    }
  }
  if (targets.empty()) {
    std::printf(
        "no Chrome-family browser found; nothing registered (connect_browser {launch: true} registers its own "
        "profile)\n");
    return 0;
  }
  int failures = 0;
  for (const auto& dir : targets) {
    if (auto written = WriteManifest(parsed->root + dir, parsed->host_path, *id); written) {
      std::printf("registered %s\n", written->c_str());
    } else {
      std::fprintf(stderr, "error: %s\n", written.error().c_str());
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}

int RunUnregister(const std::vector<std::string>& args) {
  const bool system = std::ranges::find(args, "--system") != args.end();
  std::vector<std::string> dirs;
  if (system) {
    dirs = SystemDirs();
  } else {
    for (const auto& browser : KnownBrowsers()) dirs.push_back(browser.manifest_dir);
    dirs.push_back(ProfileDir() + "/NativeMessagingHosts");
  }
  for (const auto& dir : dirs) {
    if (RemoveManifest(dir)) std::printf("removed %s\n", ManifestPath(dir).c_str());
  }
  return 0;
}

}  // namespace tb
