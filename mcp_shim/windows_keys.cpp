#include "mcp_shim/windows_keys.h"

#include <cctype>

#include "common/windows_names.h"

namespace tb::windows {
namespace {

std::string Folded(std::string_view path) {
  std::string folded(path);
  for (char& c : folded) c = c == '/' ? '\\' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (folded.size() > 3 && folded.back() == '\\') folded.pop_back();
  return folded;
}

}  // namespace

bool IsAbsolutePath(std::string_view path) {
  if (path.starts_with("\\\\")) return path.size() > 2;
  return path.size() >= 3 && std::isalpha(static_cast<unsigned char>(path[0])) && path[1] == ':' &&
         (path[2] == '\\' || path[2] == '/');
}

bool SamePath(std::string_view a, std::string_view b) { return Folded(a) == Folded(b); }

std::vector<KeyOutcome> PointKeys(Registry& registry, const std::string& manifest) {
  std::vector<KeyOutcome> outcomes;
  for (const auto& [browser, key] : NativeMessagingKeys()) {
    const auto set = registry.SetDefault(key, manifest);
    outcomes.push_back({browser, key, set ? "" : set.error()});
  }
  return outcomes;
}

Removal DeleteKeys(Registry& registry) {
  Removal done;
  for (const auto& key : NativeMessagingKeys()) {
    if (const auto deleted = registry.Delete(key.path); !deleted) {
      done.errors.push_back(deleted.error());
    } else if (*deleted) {
      done.removed.push_back("HKCU\\" + key.path);
    }
  }
  return done;
}

std::vector<KeyReport> ReadKeys(const Registry& registry, const std::string& manifest,
                                const std::function<bool(const std::string&)>& exists) {
  std::vector<KeyReport> reports;
  for (const auto& [browser, key] : NativeMessagingKeys()) {
    KeyReport report{browser, key, KeyState::kAbsent, ""};
    if (const auto value = registry.GetDefault(key); !value) {
      report.state = KeyState::kUnreadable;
      report.detail = value.error();
    } else if (value->has_value()) {
      report.detail = **value;
      if (!exists(report.detail)) {
        report.state = KeyState::kMissingFile;
      } else {
        report.state = SamePath(report.detail, manifest) ? KeyState::kOurs : KeyState::kElsewhere;
      }
    }
    reports.push_back(std::move(report));
  }
  return reports;
}

}  // namespace tb::windows
