// Each Chrome-family browser's HKCU NativeMessagingHosts\com.tabbridge.host
// key (windows::NativeMessagingKeys), its default value the manifest's path:
// pointed at a manifest, deleted, read back for doctor. Through a Registry
// (registry.h), so Linux tests it with a fake and Wine with the real one.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_shim/registry.h"

namespace tb::windows {

// True for C:\..., C:/... and \\server\share\... (what Windows calls absolute).
bool IsAbsolutePath(std::string_view path);
// Case and separators aside, the same path (Windows paths are case-insensitive).
bool SamePath(std::string_view a, std::string_view b);

struct KeyOutcome {
  std::string browser;  // "Google Chrome"
  std::string key;      // under HKCU
  std::string error;    // "" when done
};
// Sets every browser's key's default value to `manifest`.
std::vector<KeyOutcome> PointKeys(Registry& registry, const std::string& manifest);

struct Removal {
  std::vector<std::string> removed;  // what existed and is gone (HKCU\..., files)
  std::vector<std::string> errors;
};
// Deletes every browser's key.
Removal DeleteKeys(Registry& registry);

enum class KeyState {
  kOurs,         // points at `manifest`, which exists
  kMissingFile,  // points at a file that does not exist
  kElsewhere,    // points at another manifest, which exists (another install)
  kAbsent,       // no key, or no default value
  kUnreadable,   // the registry refused
};

struct KeyReport {
  std::string browser;
  std::string key;
  KeyState state;
  std::string detail;  // the value, or the registry's error
};
// Each browser's key read back, for doctor. `exists` answers for files.
std::vector<KeyReport> ReadKeys(const Registry& registry, const std::string& manifest,
                                const std::function<bool(const std::string&)>& exists);

}  // namespace tb::windows
