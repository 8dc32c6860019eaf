// socket_dir.h on Windows: no directory. A host listens on a named pipe
// <prefix>-browser-<slot> whose own DACL keeps it the user's (windows_pipe.h),
// so the "directory" is the pipe prefix and there is nothing to create or
// check: the private-directory calls succeed as they are. The prefix is the
// user's private one, random once and kept in %LOCALAPPDATA%\tabbridge\pipe-prefix
// (windows::PrivatePipePrefix: a name another user cannot know cannot be
// taken first). Live hosts are the slots whose pipe exists (no pipe outlives
// its server, so none is stale).
#include <windows.h>

#include <bcrypt.h>
#undef ReplaceFile  // windows.h's macro, not our tb::ReplaceFile

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <utility>

#include <spdlog/spdlog.h>

#include "common/atomic_file.h"
#include "common/socket_dir.h"
#include "common/utf16_windows.h"
#include "common/utf8_path.h"
#include "common/windows_names.h"
#include "common/windows_pipe.h"
#include "common/windows_sid.h"

namespace tb {

namespace {

// The file's first line when it is the user's private prefix.
std::optional<std::string> ReadPrefix(const std::filesystem::path& file, std::string_view user) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  if (!windows::IsPrivatePipePrefix(line, user)) return std::nullopt;
  return line;
}

// A new private prefix for `user`, from the system's random generator.
std::expected<std::string, std::string> NewPrefix(std::string_view user) {
  unsigned char random[16];
  if (const NTSTATUS status = ::BCryptGenRandom(nullptr, random, sizeof random, BCRYPT_USE_SYSTEM_PREFERRED_RNG);
      status != 0) {
    return std::unexpected("BCryptGenRandom failed (" + std::to_string(static_cast<long>(status)) + ")");
  }
  return windows::PrivatePipePrefix(user, random);
}

// Where the prefix file lives: %LOCALAPPDATA%\tabbridge, or "" without it.
std::string PrefixDir() {
  const std::string local = EnvUtf8("LOCALAPPDATA");
  return local.empty() ? "" : local + "\\tabbridge";
}

}  // namespace

namespace windows {

std::expected<std::string, std::string> LoadPrivatePipePrefix(const std::string& dir, std::string_view user) {
  const std::filesystem::path file = Utf8Path(dir) / "pipe-prefix";
  if (auto prefix = ReadPrefix(file, user)) return *prefix;
  const auto fresh = NewPrefix(user);
  if (!fresh) return fresh;
  const std::string& made = *fresh;
  std::error_code ec;
  std::filesystem::create_directories(Utf8Path(dir), ec);
  // Written beside it, then moved in without replacing: when a host and a
  // shim make theirs at once, one wins and both read the winner's.
  const std::filesystem::path temp = file.parent_path() / ("pipe-prefix." + made.substr(made.size() - 8) + ".new");
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << made << "\n";
    if (!out.flush()) return std::unexpected("cannot write " + Utf8String(temp));
  }
  const bool moved = ::MoveFileExW(temp.c_str(), file.c_str(), MOVEFILE_WRITE_THROUGH) != 0;
  const DWORD error = moved ? 0 : ::GetLastError();
  std::filesystem::remove(temp, ec);
  if (auto prefix = ReadPrefix(file, user)) return *prefix;
  if (error == ERROR_ALREADY_EXISTS || error == ERROR_FILE_EXISTS) {
    // Something else is there (an old or edited file): replace it whole.
    spdlog::warn("{} is not a pipe prefix of {}: making a new one", Utf8String(file), user);
    if (auto ok = ReplaceFile(Utf8String(file), made + "\n"); !ok) return std::unexpected(ok.error());
    if (auto prefix = ReadPrefix(file, user)) return *prefix;
  }
  return std::unexpected("cannot keep the pipe prefix in " + Utf8String(file) +
                         (error != 0 ? ": " + ErrorText("MoveFileExW", error) : std::string()));
}

std::expected<std::string, std::string> RenewPrivatePipePrefix(const std::string& dir, std::string_view user) {
  const auto fresh = NewPrefix(user);
  if (!fresh) return fresh;
  const std::filesystem::path file = Utf8Path(dir) / "pipe-prefix";
  if (auto ok = ReplaceFile(Utf8String(file), *fresh + "\n"); !ok) return std::unexpected(ok.error());
  return *fresh;
}

std::expected<std::string, std::string> RenewSocketDir(const std::string& dir) {
  if (const char* named = std::getenv("TABBRIDGE_SOCKET_DIR"); named != nullptr && *named != '\0') {
    return std::unexpected("TABBRIDGE_SOCKET_DIR names the pipes");
  }
  const std::string user = CurrentUserName();
  if (!IsPrivatePipePrefix(dir, user) || PrefixDir().empty()) return std::unexpected(dir + " is no private prefix");
  return RenewPrivatePipePrefix(PrefixDir(), user);
}

}  // namespace windows

// $TABBRIDGE_SOCKET_DIR (a pipe prefix such as \\.\pipe\tb-test-1; tests
// keep their hosts apart with it), else the user's private prefix. Read at
// each call: a host that found its names squatted renews the prefix
// (windows::RenewSocketDir), and shims probing later follow it.
std::string SocketDir() {
  if (const char* dir = std::getenv("TABBRIDGE_SOCKET_DIR"); dir != nullptr && *dir != '\0') return dir;
  const std::string user = windows::CurrentUserName();
  const std::string dir = PrefixDir();
  std::expected<std::string, std::string> made = std::unexpected("%LOCALAPPDATA% is not set");
  if (!dir.empty()) made = windows::LoadPrivatePipePrefix(dir, user);
  if (made) return *made;
  // Still works, with the name another user could take first (docs/windows.md).
  static bool warned = false;
  if (!std::exchange(warned, true)) {
    spdlog::warn("{}; using the shared pipe prefix {}", made.error(), windows::PipePrefix(user));
  }
  return windows::PipePrefix(user);
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
