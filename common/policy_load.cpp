// policy::Load on Linux and macOS: the policy file read through one
// descriptor, opened without following a FIFO into a wait, checked to be a
// regular file of at most kMaxFileBytes before it is read.
#include "common/policy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

namespace tb::policy {
namespace {

// Why another user could change a file or directory, or nothing: owned by
// someone else (root aside), writable by everyone (a directory with the
// sticky bit aside: others cannot replace what is ours there), or by a group
// that is not ours.
std::optional<std::string> WritableByAnother(const struct stat& st, const std::string& what) {
  const auto mode = [&] {
    char text[8];
    std::snprintf(text, sizeof(text), "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return std::string(text);
  };
  if (st.st_uid != ::geteuid() && st.st_uid != 0) {
    return what + " belongs to another user (uid " + std::to_string(st.st_uid) + "): only your own file is obeyed";
  }
  const bool sticky_dir = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) != 0;
  if ((st.st_mode & S_IWOTH) != 0 && !sticky_dir) {
    return what + " can be written by every user (mode " + mode() + "): chmod o-w it";
  }
  if ((st.st_mode & S_IWGRP) != 0 && st.st_gid != ::getegid() && !sticky_dir) {
    return what + " can be written by group " + std::to_string(st.st_gid) + " (mode " + mode() + "): chmod g-w it";
  }
  return std::nullopt;
}

}  // namespace

Policy Load(const std::string& path) {
  Policy policy;
  policy.path = path;
  const auto malformed = [&](std::string error) {
    policy.source = Policy::Source::kMalformed;
    policy.error = std::move(error);
    policy.fallback = Default::kDeny;
    return policy;
  };
  const auto errno_text = [](int error) { return std::error_code(error, std::generic_category()).message(); };
  // O_NONBLOCK: a FIFO put there must not hang the host; fstat refuses it next.
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) {
      struct stat link {};
      // A symbolic link to nowhere is a policy the user meant to have: fail closed.
      if (!path.empty() && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
        return malformed("it is a symbolic link to a file that does not exist");
      }
      policy.fallback = Default::kAsk;  // no file: the person decides
      return policy;                    // kNone
    }
    return malformed("cannot open it: " + errno_text(error));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return malformed("cannot read it: " + errno_text(errno));
  if (S_ISDIR(st.st_mode)) return malformed("it is a directory, not a file");
  if (!S_ISREG(st.st_mode)) return malformed("it is not a regular file");
  // The person's file, as the socket directory is theirs: one another user
  // can write (or replace, through its directory) is not obeyed.
  if (auto foreign = WritableByAnother(st, "it")) return malformed(*foreign);
  {
    std::error_code error;
    const auto real = std::filesystem::canonical(path, error);  // a link's target's directory
    const std::string dir = (error ? std::filesystem::path(path) : real).parent_path().string();
    struct stat dst {};
    if (::stat(dir.empty() ? "." : dir.c_str(), &dst) == 0) {
      if (auto foreign = WritableByAnother(dst, "its directory " + dir)) return malformed(*foreign);
    }
  }
  const std::string too_large = "too large (over " + std::to_string(kMaxFileBytes >> 20) + " MiB)";
  if (static_cast<std::uint64_t>(st.st_size) > kMaxFileBytes) return malformed(too_large);
  std::string text;
  char buffer[16384];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return malformed("cannot read it: " + errno_text(errno));
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kMaxFileBytes) return malformed(too_large);  // it grew while read
  }
  return Parse(text, path);
}

}  // namespace tb::policy
