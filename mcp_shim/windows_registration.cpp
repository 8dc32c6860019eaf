#include "mcp_shim/windows_registration.h"

#include <filesystem>

#include "common/protocol.h"
#include "common/utf8_path.h"
#include "common/windows_names.h"
#include "mcp_shim/native_manifest.h"

namespace tb::windows {
namespace {

bool PosixAbsolute(std::string_view path) { return path.starts_with('/'); }

std::string Join(std::string_view dir, std::string_view name) {
  std::string joined(dir);
  const char separator = PosixAbsolute(dir) ? '/' : '\\';
  if (!joined.empty() && joined.back() != '/' && joined.back() != '\\') joined += separator;
  return joined + std::string(name);
}

}  // namespace

std::expected<std::string, std::string> InstallDir(std::string_view local_app_data) {
  if (local_app_data.empty()) return std::unexpected(std::string("%LOCALAPPDATA% is not set"));
  if (!IsAbsolutePath(local_app_data) && !PosixAbsolute(local_app_data)) {
    return std::unexpected("%LOCALAPPDATA% is not an absolute path: " + std::string(local_app_data));
  }
  return Join(local_app_data, "tabbridge");
}

std::string ManifestFile(std::string_view dir) { return Join(dir, std::string(kNativeHostName) + ".json"); }

std::expected<Registration, std::string> Register(Registry& registry, std::string_view local_app_data,
                                                  const std::string& host_path, const std::string& extension_id) {
  const auto dir = InstallDir(local_app_data);
  if (!dir) return std::unexpected(dir.error());
  if (!IsAbsolutePath(host_path) && !PosixAbsolute(host_path)) {
    return std::unexpected("the host path must be absolute, is '" + host_path + "'");
  }
  if (auto written = WriteManifest(*dir, host_path, extension_id); !written) return std::unexpected(written.error());
  const std::string manifest = ManifestFile(*dir);
  return Registration{manifest, PointKeys(registry, manifest)};
}

Unregistration Unregister(Registry& registry, std::string_view local_app_data) {
  Unregistration done;
  const auto dir = InstallDir(local_app_data);
  if (!dir) {
    done.errors.push_back(dir.error() + ": no key was removed (which are this install's is unknown)");
    return done;
  }
  const std::string manifest = ManifestFile(*dir);
  for (const auto& key : NativeMessagingKeys()) {
    const auto value = registry.GetDefault(key.path);
    if (!value) {
      done.errors.push_back(value.error());
      continue;
    }
    if (!value->has_value()) continue;  // absent, or no default value: not ours
    if (!SamePath(**value, manifest)) {
      done.left.push_back("HKCU\\" + key.path + " (" + key.browser + "): it points at " + **value +
                          ", not at this install's " + manifest);
      continue;
    }
    if (const auto deleted = registry.Delete(key.path); !deleted) {
      done.errors.push_back(deleted.error());
    } else if (*deleted) {
      done.removed.push_back("HKCU\\" + key.path);
    }
  }
  std::error_code ec;
  if (std::filesystem::remove(Utf8Path(manifest), ec)) {
    done.removed.push_back(manifest);
  } else if (ec) {
    done.errors.push_back("cannot remove " + manifest + ": " + ec.message());
  }
  return done;
}

}  // namespace tb::windows
