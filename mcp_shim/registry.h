// The Windows registry as registration needs it: the default value of a key
// under HKEY_CURRENT_USER, set, read and deleted. An interface so that what
// register, unregister and doctor decide is unit-tested on Linux with a fake
// (tests/unit/windows_registration_test.cpp); registry_windows.cpp is the
// real one (RegCreateKeyExW, RegSetValueExW, RegGetValueW, RegDeleteKeyW).
#pragma once

#include <expected>
#include <memory>
#include <optional>
#include <string>

namespace tb {

class Registry {
 public:
  virtual ~Registry() = default;
  // Creates `key` (and its parents) if needed and sets its default value.
  virtual std::expected<void, std::string> SetDefault(const std::string& key, const std::string& value) = 0;
  // The default value of `key`; nullopt when the key or its default value is absent.
  virtual std::expected<std::optional<std::string>, std::string> GetDefault(const std::string& key) const = 0;
  // Deletes `key` (not its parents); false when it did not exist.
  virtual std::expected<bool, std::string> Delete(const std::string& key) = 0;
};

// HKEY_CURRENT_USER, for real (Windows only: registry_windows.cpp).
std::unique_ptr<Registry> CurrentUserRegistry();

}  // namespace tb
