// The native-messaging manifest that lets Chrome start tabbridge-host for our
// extension: its one writer (install, launch, register) and its checker (doctor).
#pragma once

#include <expected>
#include <string>
#include <vector>

#include "common/jsonrpc.h"

namespace tb {

struct BrowserConfig {
  std::string name;          // "Google Chrome"
  std::string manifest_dir;  // where that browser looks for user-level manifests
  bool found = false;        // installed or used on this machine
};

// Every Chrome-family browser we know, for this OS, with `found` filled in.
std::vector<BrowserConfig> KnownBrowsers();

Json ManifestJson(const std::string& host_path);
std::string ManifestPath(const std::string& manifest_dir);

// Writes <dir>/com.tabbridge.host.json pointing at `host_path`.
std::expected<std::string, std::string> WriteManifest(const std::string& manifest_dir, const std::string& host_path);
bool RemoveManifest(const std::string& manifest_dir);

// Says what is wrong with the manifest in `manifest_dir`, if anything.
std::expected<void, std::string> CheckManifest(const std::string& manifest_dir);

}  // namespace tb
