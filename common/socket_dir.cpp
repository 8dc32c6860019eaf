#include "common/socket_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace tb {
namespace {

std::string Errno(const std::string& what) { return what + ": " + std::strerror(errno); }

}  // namespace

std::string SocketDir() {
  auto env = [](const char* name) -> std::string {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
  };
  return SocketDirFor(kThisPlatform, {env("TABBRIDGE_SOCKET_DIR"), env("XDG_RUNTIME_DIR"), env("TMPDIR")},
                      static_cast<long>(getuid()));
}

std::expected<void, std::string> CheckPrivateDir(const std::string& dir) {
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0) return std::unexpected(Errno(dir));
  if (!S_ISDIR(st.st_mode)) return std::unexpected(dir + " is not a directory");
  if (st.st_uid != getuid()) {
    return std::unexpected(dir + " belongs to uid " + std::to_string(st.st_uid) + ", not to you (uid " +
                           std::to_string(getuid()) + ")");
  }
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%04o", st.st_mode & 0777);
    return std::unexpected(dir + " has mode " + mode + "; it must be 0700");
  }
  return {};
}

std::expected<bool, std::string> ExistingPrivateDir(const std::string& dir) {
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0 && errno == ENOENT) return false;
  if (auto ok = CheckPrivateDir(dir); !ok) return std::unexpected(ok.error());
  return true;
}

std::expected<void, std::string> EnsurePrivateDir(const std::string& dir) {
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    // The parent may be missing (a fresh TABBRIDGE_SOCKET_DIR); make it too.
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(dir).parent_path(), ec);
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return std::unexpected(Errno("cannot create " + dir));
  }
  struct stat st {};
  if (lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() && (st.st_mode & 077) != 0) {
    // Ours but too open (e.g. made by hand): tighten rather than refuse.
    if (chmod(dir.c_str(), 0700) != 0) return std::unexpected(Errno("cannot chmod " + dir));
  }
  return CheckPrivateDir(dir);
}

std::vector<int> ListSlots(const std::string& dir) {
  std::vector<int> slots;
  for (int slot = 0; slot < kMaxSlots; ++slot) {
    struct stat st {};
    if (lstat(SocketPath(dir, slot).c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) slots.push_back(slot);
  }
  return slots;
}

}  // namespace tb
