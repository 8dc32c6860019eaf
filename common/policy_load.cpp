// policy::Load on Linux and macOS: the policy file read through one
// descriptor, opened without following a FIFO into a wait, checked to be a
// regular file of at most kMaxFileBytes before it is read.
#include "common/policy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>
#include <system_error>
#include <utility>

namespace tb::policy {

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
