// policy::Load on Windows: the same answers as policy_load.cpp (no file, a
// dangling link, a directory, not a regular file, too large, unreadable) from
// std::filesystem, then the contents read whole.
#include "common/policy.h"
#include "common/utf8_path.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>

namespace tb::policy {

Policy Load(const std::string& path) {
  namespace fs = std::filesystem;
  Policy policy;
  policy.path = path;
  const auto malformed = [&](std::string error) {
    policy.source = Policy::Source::kMalformed;
    policy.error = std::move(error);
    policy.fallback = Default::kDeny;
    return policy;
  };
  std::error_code error;
  const fs::path file = Utf8Path(path);  // a plain std::string would be read in the ANSI code page
  const fs::file_status status = fs::status(file, error);
  if (status.type() == fs::file_type::not_found) {
    // A symbolic link to nowhere is a policy the user meant to have: fail closed.
    if (!path.empty() && fs::is_symlink(fs::symlink_status(file, error))) {
      return malformed("it is a symbolic link to a file that does not exist");
    }
    policy.fallback = Default::kAsk;  // no file: the person decides
    return policy;                    // kNone
  }
  if (error) return malformed("cannot open it: " + error.message());
  if (fs::is_directory(status)) return malformed("it is a directory, not a file");
  if (!fs::is_regular_file(status)) return malformed("it is not a regular file");
  const std::string too_large = "too large (over " + std::to_string(kMaxFileBytes >> 20) + " MiB)";
  const std::uintmax_t size = fs::file_size(file, error);
  if (error) return malformed("cannot read it: " + error.message());
  if (size > kMaxFileBytes) return malformed(too_large);
  std::ifstream in(file, std::ios::binary);
  if (!in) return malformed("cannot open it");
  std::string text;
  char buffer[16384];
  while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) return malformed(too_large);  // it grew while read
  }
  if (in.bad()) return malformed("cannot read it");
  return Parse(text, path);
}

}  // namespace tb::policy
