// Newline-delimited messages over a pair of file descriptors (a child's
// pipes) or one socket: blocking writes, reads that end at a deadline.
#pragma once

#include <chrono>
#include <expected>
#include <string>
#include <string_view>

#include "tests/fake_extension/deadline.h"

namespace tb::fake {

enum class ReadEnd { kTimeout, kEof };

class LineChannel {
 public:
  // Does not own the descriptors; `write_fd` may equal `read_fd`.
  LineChannel(int read_fd, int write_fd);

  // Writes all of `bytes` (blocking). False once the peer is gone.
  bool Write(std::string_view bytes);
  bool WriteLine(std::string_view line);
  // The next line without its '\n', or why there is none.
  std::expected<std::string, ReadEnd> ReadLine(Deadline deadline);
  bool eof() const { return eof_; }

 private:
  int read_fd_;
  int write_fd_;
  bool write_to_socket_;  // send() with MSG_NOSIGNAL; pipes get write()
  std::string buffer_;
  std::size_t scanned_ = 0;  // bytes of buffer_ known to hold no '\n'
  bool eof_ = false;
};

// Connects to a Unix socket, retrying while the path is missing or not yet
// listening (a host binds, then listens) until `timeout`. Returns the fd.
std::expected<int, std::string> ConnectUnix(const std::string& path, std::chrono::milliseconds timeout);

}  // namespace tb::fake
