// dir_watch.h on Windows: a host's "socket" is a named pipe, not a directory
// entry, so WaitInDir re-checks `done` every few milliseconds until the
// deadline, and the path checks ask \\.\pipe\ (or the file system).
#include <io.h>

#include <filesystem>
#include <thread>

#include "common/windows_pipe.h"
#include "tests/fake_extension/deadline.h"
#include "tests/fake_extension/dir_watch.h"
#include "tests/fake_extension/line_channel.h"

namespace tb::fake {
namespace {

bool IsPipeName(const std::string& path) { return path.starts_with("\\\\.\\pipe\\"); }

}  // namespace

bool WaitInDir(const std::string&, const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const Deadline deadline = DeadlineIn(timeout);
  for (;;) {
    if (done()) return true;
    if (RemainingMs(deadline) == 0) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

bool PathExists(const std::string& path) {
  if (IsPipeName(path)) return windows::PipeExists(path);
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::u8path(path), ec);
}

bool IsSocket(const std::string& path) { return IsPipeName(path) && windows::PipeExists(path); }

ino_t InodeOf(const std::string&) { return 0; }  // pipes have none; no Windows test compares them

bool Accepting(const std::string& path) {
  auto fd = ConnectUnix(path, std::chrono::milliseconds(0));
  if (!fd) return false;
  ::_close(*fd);
  return true;
}

}  // namespace tb::fake
