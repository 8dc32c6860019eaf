// The native-messaging manifest that lets a browser start tabbridge-host for
// our extension. Its one definition is manifests/com.tabbridge.host.json.in,
// compiled in at build time (manifest_template.h); register, install.sh, the
// launch profile and the .deb all fill it in here, and doctor checks a
// manifest against it.
#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "common/jsonrpc.h"
#include "common/platform.h"

namespace tb {

// Where one Chrome-family browser looks for manifests on one platform.
struct BrowserManifestDirs {
  std::string name;         // "Google Chrome"
  std::string user_dir;     // per-user NativeMessagingHosts directory
  std::string system_dir;   // the system-wide one (root writes it; the .deb ships it)
  std::string config_root;  // the browser's per-user config directory (its presence means "used here")
  std::string program;      // Linux: the command on PATH; macOS: the .app bundle
};

// Every browser we know on `platform`, for a user whose home is `home` and
// whose $XDG_CONFIG_HOME is `xdg_config_home` ("" when unset; Linux only).
std::vector<BrowserManifestDirs> BrowserManifestTable(Platform platform, const std::string& home,
                                                      const std::string& xdg_config_home);

struct BrowserConfig {
  std::string name;          // "Google Chrome"
  std::string manifest_dir;  // where that browser looks for user-level manifests
  std::string system_dir;    // where it looks for system-wide ones
  bool found = false;        // installed or used on this machine
};

// Every Chrome-family browser we know, for this OS, with `found` filled in.
std::vector<BrowserConfig> KnownBrowsers();

// The template's text, as built in (manifests/com.tabbridge.host.json.in).
std::string_view ManifestTemplate();

// Fills `template_text`'s placeholders — @HOST_NAME@, @HOST_PATH@,
// @EXTENSION_ID@ — in its string values (so a path needs no JSON escaping).
std::expected<Json, std::string> RenderManifest(std::string_view template_text, const std::string& host_path,
                                                const std::string& extension_id);
// The built-in template filled in.
Json ManifestJson(const std::string& host_path, const std::string& extension_id);

// The ID of the extension this installation loads, from the key in its
// manifest.json (ExtensionDir()); an error says which directory lacks it.
std::expected<std::string, std::string> InstalledExtensionId();

std::string ManifestPath(const std::string& manifest_dir);

// Writes <dir>/com.tabbridge.host.json pointing at `host_path`, for
// `extension_id` (by default the installed extension's).
std::expected<std::string, std::string> WriteManifest(const std::string& manifest_dir, const std::string& host_path,
                                                      const std::string& extension_id);
std::expected<std::string, std::string> WriteManifest(const std::string& manifest_dir, const std::string& host_path);
bool RemoveManifest(const std::string& manifest_dir);

// Says what is wrong with the manifest in `manifest_dir`, if anything: it
// must be the template filled in with an absolute, executable host path and
// `extension_id`. `root` prefixes the host path for the executable check (an
// unpacked package).
std::expected<void, std::string> CheckManifest(const std::string& manifest_dir, const std::string& extension_id,
                                               const std::string& root = "");

}  // namespace tb
