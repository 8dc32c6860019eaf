#include "tests/fake_extension/line_channel.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace tb::fake {

LineChannel::LineChannel(int read_fd, int write_fd) : read_fd_(read_fd), write_fd_(write_fd) {
  struct stat st {};
  write_to_socket_ = ::fstat(write_fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

bool LineChannel::Write(std::string_view bytes) {
  while (!bytes.empty()) {
    // On a socket a vanished peer is EPIPE, not SIGPIPE; for pipes the test
    // programs ignore SIGPIPE.
    const ssize_t n = write_to_socket_ ? ::send(write_fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL)
                                       : ::write(write_fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool LineChannel::WriteLine(std::string_view line) {
  std::string framed;
  framed.reserve(line.size() + 1);
  framed.append(line);
  framed.push_back('\n');
  return Write(framed);
}

std::expected<std::string, ReadEnd> LineChannel::ReadLine(Deadline deadline) {
  for (;;) {
    if (const auto nl = buffer_.find('\n', scanned_); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      scanned_ = 0;
      return line;
    }
    scanned_ = buffer_.size();
    if (eof_) return std::unexpected(ReadEnd::kEof);
    pollfd p{read_fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, RemainingMs(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return std::unexpected(ReadEnd::kTimeout);
    char chunk[64 * 1024];
    const ssize_t n = ::read(read_fd_, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      eof_ = true;  // a partial last line is dropped: the peer broke the framing
      continue;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

std::expected<int, std::string> ConnectUnix(const std::string& path, std::chrono::milliseconds timeout) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof(addr.sun_path)) return std::unexpected("socket path too long: " + path);
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const Deadline deadline = DeadlineIn(timeout);
  for (;;) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return std::unexpected(std::string("socket: ") + std::strerror(errno));
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0) return fd;
    const int error = errno;
    ::close(fd);
    const bool retry = error == ENOENT || error == ECONNREFUSED || error == EAGAIN;
    if (!retry || RemainingMs(deadline) == 0) {
      return std::unexpected("connect " + path + ": " + std::strerror(error));
    }
    // The window between bind and listen is microseconds; poll it briefly.
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace tb::fake
