// socket_dir.h on Windows: no directory. A host listens on a named pipe
// \\.\pipe\tabbridge-<user>-browser-<slot> (windows::PipeName) whose own DACL
// keeps it the user's (windows_pipe.h), so the "directory" is the pipe
// prefix \\.\pipe\tabbridge-<user>, and there is nothing to create or check:
// the private-directory calls succeed as they are. Live hosts are the pipes
// listed in \\.\pipe\ (no pipe outlives its server, so none is stale).
#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "common/socket_dir.h"
#include "common/windows_names.h"
#include "common/windows_pipe.h"
#include "common/windows_sid.h"

namespace tb {

// $TABBRIDGE_SOCKET_DIR (a pipe prefix such as \\.\pipe\tb-test-1; tests
// keep their hosts apart with it), else \\.\pipe\tabbridge-<user>.
std::string SocketDir() {
  if (const char* dir = std::getenv("TABBRIDGE_SOCKET_DIR"); dir != nullptr && *dir != '\0') return dir;
  return windows::PipePrefix(windows::CurrentUserName());
}

std::expected<void, std::string> EnsurePrivateDir(const std::string&) { return {}; }
std::expected<void, std::string> CheckPrivateDir(const std::string&) { return {}; }
std::expected<bool, std::string> ExistingPrivateDir(const std::string&) { return true; }

std::vector<int> ListSlots(const std::string& dir) {
  constexpr std::string_view kRoot = "\\\\.\\pipe\\";
  if (!dir.starts_with(kRoot)) return {};
  const std::string stem = dir.substr(kRoot.size()) + "-browser-";
  std::vector<int> slots;
  for (const auto& name : windows::ListPipes(stem)) {
    int slot = -1;
    const char* end = name.data() + name.size();
    const auto [ptr, ec] = std::from_chars(name.data() + stem.size(), end, slot);
    if (ec == std::errc() && ptr == end && slot >= 0 && slot < kMaxSlots && name == stem + std::to_string(slot)) {
      slots.push_back(slot);
    }
  }
  std::ranges::sort(slots);
  const auto [first, last] = std::ranges::unique(slots);  // one entry per instance may be listed
  slots.erase(first, last);
  return slots;
}

}  // namespace tb
