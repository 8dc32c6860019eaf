// Registry on HKEY_CURRENT_USER: the wide-character registry calls, strings
// converted once (common/utf16_windows.h). REG_SZ values; a key's default
// value is the one with no name.
#include <windows.h>

#include "common/utf16_windows.h"
#include "mcp_shim/registry.h"

namespace tb {
namespace {

std::string Why(const char* call, const std::string& key, LSTATUS status) {
  wchar_t* text = nullptr;
  ::FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
                   static_cast<DWORD>(status), 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  std::string message = text != nullptr ? Utf8(text) : "error " + std::to_string(status);
  if (text != nullptr) ::LocalFree(text);
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r' || message.back() == ' ')) {
    message.pop_back();
  }
  return std::string(call) + " HKCU\\" + key + ": " + message;
}

class CurrentUser final : public Registry {
 public:
  std::expected<void, std::string> SetDefault(const std::string& key, const std::string& value) override {
    HKEY handle = nullptr;
    LSTATUS status = ::RegCreateKeyExW(HKEY_CURRENT_USER, Utf16(key).c_str(), 0, nullptr, REG_OPTION_NON_VOLATILE,
                                       KEY_SET_VALUE, nullptr, &handle, nullptr);
    if (status != ERROR_SUCCESS) return std::unexpected(Why("RegCreateKeyExW", key, status));
    const std::wstring wide = Utf16(value);
    const auto bytes = static_cast<DWORD>((wide.size() + 1) * sizeof(wchar_t));  // with its terminating NUL
    status = ::RegSetValueExW(handle, nullptr, 0, REG_SZ, reinterpret_cast<const BYTE*>(wide.c_str()), bytes);
    ::RegCloseKey(handle);
    if (status != ERROR_SUCCESS) return std::unexpected(Why("RegSetValueExW", key, status));
    return {};
  }

  std::expected<std::optional<std::string>, std::string> GetDefault(const std::string& key) const override {
    const std::wstring wide_key = Utf16(key);
    DWORD bytes = 0;
    LSTATUS status =
        ::RegGetValueW(HKEY_CURRENT_USER, wide_key.c_str(), nullptr, RRF_RT_REG_SZ, nullptr, nullptr, &bytes);
    if (status == ERROR_FILE_NOT_FOUND) return std::nullopt;
    if (status != ERROR_SUCCESS) return std::unexpected(Why("RegGetValueW", key, status));
    std::wstring value(bytes / sizeof(wchar_t) + 1, L'\0');
    bytes = static_cast<DWORD>(value.size() * sizeof(wchar_t));
    status = ::RegGetValueW(HKEY_CURRENT_USER, wide_key.c_str(), nullptr, RRF_RT_REG_SZ, nullptr, value.data(), &bytes);
    if (status == ERROR_FILE_NOT_FOUND) return std::nullopt;
    if (status != ERROR_SUCCESS) return std::unexpected(Why("RegGetValueW", key, status));
    value.resize(wcsnlen(value.c_str(), value.size()));
    return Utf8(value);
  }

  std::expected<bool, std::string> Delete(const std::string& key) override {
    const LSTATUS status = ::RegDeleteKeyW(HKEY_CURRENT_USER, Utf16(key).c_str());
    if (status == ERROR_FILE_NOT_FOUND) return false;
    if (status != ERROR_SUCCESS) return std::unexpected(Why("RegDeleteKeyW", key, status));
    return true;
  }
};

}  // namespace

std::unique_ptr<Registry> CurrentUserRegistry() { return std::make_unique<CurrentUser>(); }

}  // namespace tb
