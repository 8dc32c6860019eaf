// A Registry in memory, for the registration decisions' tests: keys and
// their default values, and a key that refuses (as a locked-down one would).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "mcp_shim/registry.h"

namespace tb {

class FakeRegistry final : public Registry {
 public:
  std::expected<void, std::string> SetDefault(const std::string& key, const std::string& value) override {
    if (key == refuse) return std::unexpected("access denied: " + key);
    values[key] = value;
    return {};
  }
  std::expected<std::optional<std::string>, std::string> GetDefault(const std::string& key) const override {
    if (key == refuse) return std::unexpected("access denied: " + key);
    const auto it = values.find(key);
    if (it == values.end()) return std::nullopt;
    return it->second;
  }
  std::expected<bool, std::string> Delete(const std::string& key) override {
    if (key == refuse) return std::unexpected("access denied: " + key);
    return values.erase(key) == 1;
  }

  std::map<std::string, std::string> values;
  std::string refuse;  // this key fails every call
};

}  // namespace tb
