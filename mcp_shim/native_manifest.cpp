#include "mcp_shim/native_manifest.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/json_field.h"
#include "common/protocol.h"
#include "common/utf8_path.h"
#include "mcp_shim/extension_id.h"
#include "mcp_shim/manifest_template.h"  // generated from manifests/com.tabbridge.host.json.in
#include "mcp_shim/paths.h"
#include "mcp_shim/windows_keys.h"  // windows::IsAbsolutePath

namespace tb {
namespace fs = std::filesystem;

// Where each browser looks. Per-user: Chrome's native-messaging docs
// (developer.chrome.com/docs/extensions/develop/concepts/native-messaging,
// "Native messaging host location") for Chrome and Chromium; the others keep
// the same layout under their own config directory. System-wide on Linux:
// Chrome /etc/opt/chrome, Chromium /etc/chromium (the same docs), Edge
// /etc/opt/edge (Microsoft's native-messaging guide); Brave and Vivaldi
// document none — /etc/opt/brave and /etc/opt/vivaldi are what packagers use
// (browserpass-native's Makefile, hosts-brave / hosts-vivaldi), and a build
// that keeps Chromium's default reads /etc/chromium, which we fill too.
// System-wide on macOS: /Library/Google/Chrome, /Library/Microsoft/Edge, and
// /Library/Application Support/<browser> for the rest.
std::vector<BrowserManifestDirs> BrowserManifestTable(Platform platform, const std::string& home,
                                                      const std::string& xdg_config_home) {
  struct Known {
    const char* name;
    const char* config;  // under the per-user config base
    const char* system;  // the system-wide manifest directory
    const char* program;
  };
  static constexpr Known kMac[] = {
      {"Google Chrome", "Google/Chrome", "/Library/Google/Chrome/NativeMessagingHosts",
       "/Applications/Google Chrome.app"},
      {"Chromium", "Chromium", "/Library/Application Support/Chromium/NativeMessagingHosts",
       "/Applications/Chromium.app"},
      {"Brave", "BraveSoftware/Brave-Browser",
       "/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts",
       "/Applications/Brave Browser.app"},
      {"Microsoft Edge", "Microsoft Edge", "/Library/Microsoft/Edge/NativeMessagingHosts",
       "/Applications/Microsoft Edge.app"},
      {"Vivaldi", "Vivaldi", "/Library/Application Support/Vivaldi/NativeMessagingHosts", "/Applications/Vivaldi.app"},
  };
  static constexpr Known kLinux[] = {
      {"Google Chrome", "google-chrome", "/etc/opt/chrome/native-messaging-hosts", "google-chrome"},
      {"Google Chrome Beta", "google-chrome-beta", "/etc/opt/chrome/native-messaging-hosts", "google-chrome-beta"},
      {"Chromium", "chromium", "/etc/chromium/native-messaging-hosts", "chromium"},
      {"Brave", "BraveSoftware/Brave-Browser", "/etc/opt/brave/native-messaging-hosts", "brave-browser"},
      {"Microsoft Edge", "microsoft-edge", "/etc/opt/edge/native-messaging-hosts", "microsoft-edge"},
      {"Vivaldi", "vivaldi", "/etc/opt/vivaldi/native-messaging-hosts", "vivaldi"},
  };
  const bool mac = platform == Platform::kMacOS;
  std::string base = home + "/Library/Application Support/";
  if (!mac) base = (xdg_config_home.starts_with('/') ? xdg_config_home : home + "/.config") + "/";
  std::vector<BrowserManifestDirs> table;
  auto add = [&](const Known& known) {
    const std::string root = base + known.config;
    table.push_back({known.name, root + "/NativeMessagingHosts", known.system, root, known.program});
  };
  if (mac) {
    std::ranges::for_each(kMac, add);
  } else {
    std::ranges::for_each(kLinux, add);
  }
  return table;
}

std::vector<BrowserConfig> KnownBrowsers() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  auto installed = [](const std::string& program) {
    if (kThisPlatform == Platform::kMacOS) return fs::exists(program);
    return !FindOnPath(program).empty() || !FindOnPath(program + "-stable").empty() ||
           (program == "chromium" && !FindOnPath("chromium-browser").empty());
  };
  std::vector<BrowserConfig> browsers;
  for (const auto& known : BrowserManifestTable(kThisPlatform, HomeDir(), xdg != nullptr ? xdg : "")) {
    browsers.push_back({known.name, known.user_dir, known.system_dir,
                        fs::is_directory(known.config_root) || installed(known.program)});
  }
  return browsers;
}

std::string_view ManifestTemplate() { return kManifestTemplate; }

namespace {

void ReplaceAll(std::string& text, std::string_view from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

void FillStrings(Json& value, const std::string& host_path, const std::string& extension_id) {
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    ReplaceAll(text, "@HOST_NAME@", std::string(kNativeHostName));
    ReplaceAll(text, "@HOST_PATH@", host_path);
    ReplaceAll(text, "@EXTENSION_ID@", extension_id);
    value = text;
  } else if (value.is_structured()) {
    for (auto& item : value) FillStrings(item, host_path, extension_id);
  }
}

// Browsers run a host only by its absolute path.
bool AbsoluteHostPath(const std::string& path) {
#ifdef _WIN32
  return windows::IsAbsolutePath(path);
#else
  return path.starts_with('/');
#endif
}

// Windows has no execute bit: an existing file is what a browser can start.
bool Runnable(const std::string& path) {
#ifdef _WIN32
  std::error_code ec;
  return fs::is_regular_file(Utf8Path(path), ec);
#else
  return ::access(path.c_str(), X_OK) == 0;
#endif
}

}  // namespace

std::expected<Json, std::string> RenderManifest(std::string_view template_text, const std::string& host_path,
                                                const std::string& extension_id) {
  Json manifest = Json::parse(template_text, nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) {
    return std::unexpected("the manifest template is not a JSON object");
  }
  FillStrings(manifest, host_path, extension_id);
  return manifest;
}

Json ManifestJson(const std::string& host_path, const std::string& extension_id) {
  // The built-in template parses: manifest_template_test checks it.
  return RenderManifest(ManifestTemplate(), host_path, extension_id).value_or(Json::object());
}

std::expected<std::string, std::string> InstalledExtensionId() {
  const std::string dir = ExtensionDir();
  if (auto id = ExtensionIdOfDir(dir)) return *id;
  return std::unexpected("no extension with a key at " + dir +
                         " (its manifest.json's key gives the ID the manifest allows); reinstall, or set "
                         "TABBRIDGE_EXTENSION_DIR");
}

// The platform's separator: C:\...\tabbridge\com.tabbridge.host.json on Windows.
std::string ManifestPath(const std::string& manifest_dir) {
  return Utf8String(Utf8Path(manifest_dir) / (std::string(kNativeHostName) + ".json"));
}

std::expected<std::string, std::string> WriteManifest(const std::string& manifest_dir, const std::string& host_path,
                                                      const std::string& extension_id) {
  std::error_code ec;
  fs::create_directories(Utf8Path(manifest_dir), ec);
  if (ec) return std::unexpected("cannot create " + manifest_dir + ": " + ec.message());
  const std::string path = ManifestPath(manifest_dir);
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(Utf8Path(temp), std::ios::trunc);
    out << ManifestJson(host_path, extension_id).dump(2) << "\n";
    if (!out) return std::unexpected("cannot write " + temp);
  }
  // Browsers read it as the user, a system-wide one as any user: 0644 whatever the umask.
  fs::permissions(Utf8Path(temp),
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read, ec);
  fs::rename(Utf8Path(temp), Utf8Path(path), ec);  // atomic: Chrome never reads half a manifest
  if (ec) return std::unexpected("cannot write " + path + ": " + ec.message());
  return path;
}

std::expected<std::string, std::string> WriteManifest(const std::string& manifest_dir, const std::string& host_path) {
  auto id = InstalledExtensionId();
  if (!id) return std::unexpected(id.error());
  return WriteManifest(manifest_dir, host_path, *id);
}

bool RemoveManifest(const std::string& manifest_dir) {
  std::error_code ec;
  return fs::remove(Utf8Path(ManifestPath(manifest_dir)), ec);
}

std::expected<void, std::string> CheckManifest(const std::string& manifest_dir, const std::string& extension_id,
                                               const std::string& root) {
  const std::string path = ManifestPath(manifest_dir);
  std::ifstream in(Utf8Path(root + path));
  if (!in) return std::unexpected(path + " is missing");
  const Json manifest = Json::parse(in, nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) return std::unexpected(path + " is not valid JSON");
  const std::string host = field::String(manifest, "path").value_or("");
  if (!AbsoluteHostPath(host)) return std::unexpected(path + ": path must be absolute, is '" + host + "'");
  if (!Runnable(root + host)) return std::unexpected(path + " points at " + host + ", which is not an executable");
  // Everything else must be the template's: the same keys, the same values.
  const Json expected = ManifestJson(host, extension_id);
  for (const auto& [key, value] : expected.items()) {
    if (!manifest.contains(key)) return std::unexpected(path + " lacks \"" + key + "\" (the template has it)");
    if (manifest[key] != value) {
      if (key == "allowed_origins") {
        return std::unexpected(path + ": allowed_origins is " + manifest[key].dump() + ", not " + value.dump() +
                               " (the tabbridge extension's ID)");
      }
      return std::unexpected(path + ": \"" + key + "\" is " + manifest[key].dump() + ", the template says " +
                             value.dump());
    }
  }
  for (const auto& [key, value] : manifest.items()) {
    if (!expected.contains(key)) return std::unexpected(path + " has \"" + key + "\", which the template has not");
  }
  return {};
}

}  // namespace tb
