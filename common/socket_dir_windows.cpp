// socket_dir.h on Windows: no directory. A host listens on a named pipe
// \\.\pipe\tabbridge-<user>-browser-<slot> (windows::PipeName) whose own DACL
// keeps it the user's (windows_pipe.h), so the "directory" is the pipe
// prefix \\.\pipe\tabbridge-<user>, and there is nothing to create or check:
// the private-directory calls succeed as they are. Live hosts are the slots
// whose pipe exists (no pipe outlives its server, so none is stale).
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

// Each slot's name asked of the pipe file system (windows::PipeExists).
// Enumerating \\.\pipe\* with FindFirstFileW would read the list in one
// call on Windows, but under Wine 8 it lists nothing; 64 names cost
// microseconds each.
std::vector<int> ListSlots(const std::string& dir) {
  std::vector<int> slots;
  for (int slot = 0; slot < kMaxSlots; ++slot) {
    if (windows::PipeExists(SocketPath(dir, slot))) slots.push_back(slot);
  }
  return slots;
}

}  // namespace tb
