#include "tests/fake_extension/dir_watch.h"

#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "tests/fake_extension/line_channel.h"

#include "tests/fake_extension/deadline.h"

namespace tb::fake {

bool WaitInDir(const std::string& dir, const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const Deadline deadline = DeadlineIn(timeout);
  const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd >= 0) {
    ::inotify_add_watch(fd, dir.c_str(), IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_ATTRIB);
  }
  // Watch first, then check: a change between the two still wakes us.
  bool ok = done();
  while (!ok) {
    const int left = RemainingMs(deadline);
    if (left == 0) break;
    // Without inotify (or should an event be lost) re-check now and then anyway.
    pollfd p{fd, POLLIN, 0};
    ::poll(&p, fd >= 0 ? 1 : 0, std::min(left, 50));
    if (fd >= 0 && (p.revents & POLLIN) != 0) {
      char events[4096];
      while (::read(fd, events, sizeof(events)) > 0) {
      }
    }
    ok = done();
  }
  if (fd >= 0) ::close(fd);
  return ok;
}

bool PathExists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

bool IsSocket(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
}

ino_t InodeOf(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

bool Accepting(const std::string& path) {
  auto fd = ConnectUnix(path, std::chrono::milliseconds(0));
  if (!fd) return false;
  ::close(*fd);
  return true;
}

}  // namespace tb::fake
