#include "mcp_shim/native_manifest.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/json_field.h"
#include "common/protocol.h"
#include "mcp_shim/paths.h"

namespace tb {
namespace fs = std::filesystem;

std::vector<BrowserConfig> KnownBrowsers() {
  struct Known {
    const char* name;
    const char* config;  // under ~/.config (Linux) or ~/Library/Application Support (macOS)
    const char* program;
  };
#ifdef __APPLE__
  const std::string base = HomeDir() + "/Library/Application Support/";
  static constexpr Known kKnown[] = {
      {"Google Chrome", "Google/Chrome", "/Applications/Google Chrome.app"},
      {"Chromium", "Chromium", "/Applications/Chromium.app"},
      {"Brave", "BraveSoftware/Brave-Browser", "/Applications/Brave Browser.app"},
      {"Microsoft Edge", "Microsoft Edge", "/Applications/Microsoft Edge.app"},
      {"Vivaldi", "Vivaldi", "/Applications/Vivaldi.app"},
  };
  auto installed = [](const char* app) { return fs::exists(app); };
#else
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const std::string base = (xdg != nullptr && *xdg != '\0' ? std::string(xdg) : HomeDir() + "/.config") + "/";
  static constexpr Known kKnown[] = {
      {"Google Chrome", "google-chrome", "google-chrome"},
      {"Google Chrome Beta", "google-chrome-beta", "google-chrome-beta"},
      {"Chromium", "chromium", "chromium"},
      {"Brave", "BraveSoftware/Brave-Browser", "brave-browser"},
      {"Microsoft Edge", "microsoft-edge", "microsoft-edge"},
      {"Vivaldi", "vivaldi", "vivaldi"},
  };
  auto installed = [](const char* program) {
    return !FindOnPath(program).empty() || !FindOnPath(std::string(program) + "-stable").empty() ||
           (std::string_view(program) == "chromium" && !FindOnPath("chromium-browser").empty());
  };
#endif
  std::vector<BrowserConfig> browsers;
  for (const auto& known : kKnown) {
    const std::string root = base + known.config;
    browsers.push_back(
        {known.name, root + "/NativeMessagingHosts", fs::is_directory(root) || installed(known.program)});
  }
  return browsers;
}

Json ManifestJson(const std::string& host_path) {
  return {{"name", kNativeHostName},
          {"description", "tabbridge: lets MCP clients drive this browser"},
          {"path", host_path},
          {"type", "stdio"},
          {"allowed_origins", {"chrome-extension://" + std::string(kExtensionId) + "/"}}};
}

std::string ManifestPath(const std::string& manifest_dir) {
  return manifest_dir + "/" + std::string(kNativeHostName) + ".json";
}

std::expected<std::string, std::string> WriteManifest(const std::string& manifest_dir, const std::string& host_path) {
  std::error_code ec;
  fs::create_directories(manifest_dir, ec);
  if (ec) return std::unexpected("cannot create " + manifest_dir + ": " + ec.message());
  const std::string path = ManifestPath(manifest_dir);
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::trunc);
    out << ManifestJson(host_path).dump(2) << "\n";
    if (!out) return std::unexpected("cannot write " + temp);
  }
  fs::rename(temp, path, ec);  // atomic: Chrome never reads half a manifest
  if (ec) return std::unexpected("cannot write " + path + ": " + ec.message());
  return path;
}

bool RemoveManifest(const std::string& manifest_dir) {
  std::error_code ec;
  return fs::remove(ManifestPath(manifest_dir), ec);
}

std::expected<void, std::string> CheckManifest(const std::string& manifest_dir) {
  const std::string path = ManifestPath(manifest_dir);
  std::ifstream in(path);
  if (!in) return std::unexpected(path + " is missing");
  const Json manifest = Json::parse(in, nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) return std::unexpected(path + " is not valid JSON");
  if (field::String(manifest, "name") != kNativeHostName) return std::unexpected(path + " has the wrong name");
  const std::string host = field::String(manifest, "path").value_or("");
  if (host.empty() || host.front() != '/') return std::unexpected(path + ": path must be absolute, is '" + host + "'");
  if (::access(host.c_str(), X_OK) != 0)
    return std::unexpected(path + " points at " + host + ", which is not an executable");
  const std::string origin = "chrome-extension://" + std::string(kExtensionId) + "/";
  const auto origins = field::Array(manifest, "allowed_origins");
  if (std::find(origins.begin(), origins.end(), origin) == origins.end()) {
    return std::unexpected(path + ": allowed_origins lacks " + origin + " (the tabbridge extension's ID)");
  }
  return {};
}

}  // namespace tb
