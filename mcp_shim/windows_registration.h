// Registration on Windows (docs/windows.md): the manifest in
// %LOCALAPPDATA%\tabbridge, and every browser's HKCU key pointing at it
// (windows_keys.h). Portable, so Linux CI tests it with a fake registry;
// register_command_windows.cpp and doctor_registration_windows.cpp run it
// for real.
#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_shim/registry.h"
#include "mcp_shim/windows_keys.h"

namespace tb::windows {

// %LOCALAPPDATA%\tabbridge, where install.ps1 copies tabbridge and register
// writes the manifest. An error when `local_app_data` is unset or relative.
// (A POSIX absolute directory is taken too, with '/': the Linux tests.)
std::expected<std::string, std::string> InstallDir(std::string_view local_app_data);
// <dir>\com.tabbridge.host.json (with '/' in a POSIX directory).
std::string ManifestFile(std::string_view dir);

struct Registration {
  std::string manifest;  // the manifest written, the keys' value
  std::vector<KeyOutcome> keys;
};

// Writes the manifest (the template, `host_path` and `extension_id` filled
// in) into InstallDir and points every browser's key at it. An error only
// when there is nowhere to write it; a key that could not be set is in `keys`.
std::expected<Registration, std::string> Register(Registry& registry, std::string_view local_app_data,
                                                  const std::string& host_path, const std::string& extension_id);

struct Unregistration {
  std::vector<std::string> removed;  // what existed and is gone (HKCU\..., the manifest)
  std::vector<std::string> left;     // keys another install's manifest owns, each with why
  std::vector<std::string> errors;
};
// Deletes the browsers' keys whose default value is this install's manifest
// (InstallDir's; case and separators aside), and the manifest. A key that
// points elsewhere (another install, another user's tool) is left, and said;
// one without a default value is no one's, and left too. Without
// %LOCALAPPDATA% nothing is ours to tell: nothing is deleted.
Unregistration Unregister(Registry& registry, std::string_view local_app_data);

}  // namespace tb::windows
