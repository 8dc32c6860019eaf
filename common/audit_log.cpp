#include "common/audit_log.h"
#include "common/user_dirs.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>

namespace tb::audit {
namespace {

std::string Errno(std::string_view what, const std::string& path, int error) {
  return "audit log " + path + ": " + std::string(what) + ": " + std::strerror(error);
}

// Closes a descriptor on every path out.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// mkdir -p of `dir`, each directory it creates 0700.
std::expected<void, std::string> MakeDirs(const std::string& dir, const std::string& path) {
  if (dir.empty()) return {};
  for (std::size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    const std::string prefix = dir.substr(0, slash);
    if (!prefix.empty() && prefix.back() != '/') {
      if (::mkdir(prefix.c_str(), 0700) == 0) {
        ::chmod(prefix.c_str(), 0700);  // whatever the umask took away
      } else if (const int error = errno; error != EEXIST) {
        return std::unexpected(Errno("cannot create directory " + prefix, path, error));
      }
    }
    if (slash == std::string::npos) return {};
  }
}

// Opens the file for appending, creating it 0600; a regular file only (and a
// FIFO planted there cannot block: O_NONBLOCK).
std::expected<int, std::string> OpenForAppend(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0600);
  if (fd < 0) return std::unexpected(Errno("open", path, errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    return std::unexpected(Errno("stat", path, error));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return std::unexpected("audit log " + path + ": not a regular file");
  }
  if ((st.st_mode & 07777) != 0600 && ::fchmod(fd, 0600) != 0) {
    const int error = errno;
    ::close(fd);
    return std::unexpected(Errno("chmod 0600", path, error));
  }
  return fd;
}

enum class Rotation { kDone, kAlreadyRotated };

// Moves <path> to <path>.1 (and .1 to .2 …) while holding an exclusive flock
// on the file `fd` has open, so two hosts rotating at once rotate once: the
// second finds the path no longer names its file and reopens.
std::expected<Rotation, std::string> Rotate(const std::string& path, int fd) {
  // Never waits: this runs on the host's event loop. A lock held elsewhere is
  // another host rotating right now, so the file is as good as rotated.
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) return Rotation::kAlreadyRotated;
    if (errno != EINTR) return std::unexpected(Errno("flock", path, errno));
  }
  struct stat mine {};
  struct stat named {};
  std::expected<Rotation, std::string> result = Rotation::kDone;
  if (::fstat(fd, &mine) != 0 || ::stat(path.c_str(), &named) != 0 || mine.st_dev != named.st_dev ||
      mine.st_ino != named.st_ino) {
    result = Rotation::kAlreadyRotated;
  } else {
    for (int i = kKeptFiles - 1; i >= 1; --i) {
      const std::string from = RotatedPath(path, i);
      const std::string to = RotatedPath(path, i + 1);
      if (::rename(from.c_str(), to.c_str()) != 0 && errno != ENOENT) {
        const int error = errno;
        result = std::unexpected(Errno("rotate " + from, path, error));
        break;
      }
    }
    const std::string first = RotatedPath(path, 1);
    if (result && ::rename(path.c_str(), first.c_str()) != 0) {
      const int error = errno;
      result = std::unexpected(Errno("rotate", path, error));
    }
  }
  ::flock(fd, LOCK_UN);
  return result;
}

// The whole line in one write(2): O_APPEND makes it land whole at the end.
std::expected<void, std::string> WriteLine(const std::string& path, int fd, const std::string& line) {
  for (;;) {
    const ssize_t written = ::write(fd, line.data(), line.size());
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return std::unexpected(Errno("write", path, errno));
    if (static_cast<std::size_t>(written) != line.size()) {
      return std::unexpected("audit log " + path + ": short write (disk full?)");
    }
    return {};
  }
}

// Reads `path` backwards in chunks, handing each line (newest first) to
// `take` until it returns false. Lines over kMaxLineBytes are skipped.
template <typename Take>
void ReadLinesBackwards(const std::string& path, Take take) {
  const int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (raw < 0) return;
  Fd fd(raw);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return;

  constexpr std::size_t kChunk = 64 * 1024;
  std::string chunk(kChunk, '\0');
  std::string pending;  // the newest part of the line being assembled
  bool too_long = false;
  // Hands over chunk[begin, end) + pending as one line.
  auto finish = [&](std::size_t begin, std::size_t end) {
    bool more = true;
    if (!too_long && end - begin + pending.size() <= kMaxLineBytes) {
      pending.insert(0, chunk, begin, end - begin);
      more = take(pending);
    }
    pending.clear();
    too_long = false;
    return more;
  };

  auto offset = static_cast<std::size_t>(st.st_size);
  while (offset > 0) {
    const std::size_t length = std::min(kChunk, offset);
    offset -= length;
    std::size_t got = 0;
    while (got < length) {
      const ssize_t n = ::pread(fd.get(), chunk.data() + got, length - got, static_cast<off_t>(offset + got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;  // an error, or the file shrank under us
      got += static_cast<std::size_t>(n);
    }
    std::size_t end = length;
    for (;;) {
      const std::size_t newline = end == 0 ? std::string::npos : chunk.rfind('\n', end - 1);
      if (newline == std::string::npos) {
        if (!too_long && pending.size() + end <= kMaxLineBytes) {
          pending.insert(0, chunk, 0, end);
        } else {
          too_long = true;
          pending.clear();
        }
        break;
      }
      if (!finish(newline + 1, end)) return;
      end = newline;
    }
  }
  finish(0, 0);  // the file's first line
}

}  // namespace

std::string DefaultPath() {
  std::string state = XdgDir("XDG_STATE_HOME", ".local/state");
  while (state.size() > 1 && state.back() == '/') state.pop_back();
  return state + "/tabbridge/audit.jsonl";
}

std::expected<void, std::string> Log::Append(const Entry& entry) try {
  const std::string line = ToLine(entry) + "\n";
  const std::size_t slash = path_.rfind('/');
  if (slash != std::string::npos) {
    if (auto made = MakeDirs(path_.substr(0, slash), path_); !made) return made;
  }
  std::string rotate_error;
  // Rotation can need a second look (another host rotated first); after a
  // few tries the line goes into whatever file is there.
  constexpr int kTries = 3;
  for (int attempt = 1;; ++attempt) {
    auto opened = OpenForAppend(path_);
    if (!opened) return std::unexpected(opened.error());
    Fd fd(*opened);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return std::unexpected(Errno("stat", path_, errno));
    const auto size = static_cast<std::size_t>(st.st_size);
    if (attempt < kTries && rotate_error.empty() && size > 0 && size + line.size() > max_bytes_) {
      auto rotated = Rotate(path_, fd.get());
      if (!rotated) rotate_error = rotated.error();
      // Rotated by us or by another host: open the new file. A failed
      // rotation: write here anyway, a line kept beats a size kept.
      if (rotate_error.empty()) continue;
    }
    if (auto written = WriteLine(path_, fd.get(), line); !written) return written;
    if (!rotate_error.empty()) return std::unexpected(rotate_error + " (the line was written)");
    return {};
  }
} catch (const std::exception& e) {  // std::bad_alloc, nothing else expected
  return std::unexpected("audit log " + path_ + ": " + e.what());
}

std::vector<std::string> TailLines(const std::string& path, std::size_t n) {
  std::vector<std::string> newest_first;
  for (int i = 0; i <= kKeptFiles && newest_first.size() < n; ++i) {
    ReadLinesBackwards(RotatedPath(path, i), [&](std::string& line) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty() && line.front() == '{' && Json::accept(line)) newest_first.push_back(std::move(line));
      return newest_first.size() < n;
    });
  }
  std::reverse(newest_first.begin(), newest_first.end());
  return newest_first;
}

}  // namespace tb::audit
