// LineChannel on Windows: the descriptors are C runtime ones over pipe
// handles (a child's anonymous pipes, or a named pipe's client end). A read
// with a deadline waits on PeekNamedPipe, checked every millisecond until
// data, EOF (ERROR_BROKEN_PIPE) or the deadline: anonymous pipes have no
// overlapped reads to wait on.
#include <windows.h>

#include <io.h>

#include <algorithm>
#include <thread>

#include "common/windows_pipe.h"
#include "common/windows_sid.h"
#include "tests/fake_extension/line_channel.h"

namespace tb::fake {

LineChannel::LineChannel(int read_fd, int write_fd) : read_fd_(read_fd), write_fd_(write_fd), write_to_socket_(false) {}

bool LineChannel::Write(std::string_view bytes) {
  while (!bytes.empty()) {
    const int n =
        ::_write(write_fd_, bytes.data(), static_cast<unsigned>(std::min<std::size_t>(bytes.size(), 1 << 20)));
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool LineChannel::WriteLine(std::string_view line) {
  std::string framed(line);
  framed.push_back('\n');
  return Write(framed);
}

std::expected<std::string, ReadEnd> LineChannel::ReadLine(Deadline deadline) {
  const HANDLE pipe = reinterpret_cast<HANDLE>(::_get_osfhandle(read_fd_));
  for (;;) {
    if (const auto nl = buffer_.find('\n', scanned_); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      scanned_ = 0;
      return line;
    }
    scanned_ = buffer_.size();
    if (eof_) return std::unexpected(ReadEnd::kEof);
    DWORD available = 0;
    if (!::PeekNamedPipe(pipe, nullptr, 0, nullptr, &available, nullptr)) {
      eof_ = true;  // the writer is gone; a partial last line is dropped
      continue;
    }
    if (available == 0) {
      if (RemainingMs(deadline) == 0) return std::unexpected(ReadEnd::kTimeout);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    char chunk[64 * 1024];
    const int n = ::_read(read_fd_, chunk, static_cast<unsigned>(std::min<DWORD>(available, sizeof(chunk))));
    if (n <= 0) {
      eof_ = true;
      continue;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

// The Windows "socket": the named pipe `path`, served by our own user
// (checked before anything is sent, as the shim does), retried while no
// instance exists yet until `timeout`.
std::expected<int, std::string> ConnectUnix(const std::string& path, std::chrono::milliseconds timeout) {
  const auto sid = windows::CurrentUserSid();
  if (!sid) return std::unexpected(sid.error());
  const Deadline deadline = DeadlineIn(timeout);
  for (;;) {
    auto pipe = windows::OpenOwnPipe(path, 1'000, *sid, windows::PipeServerSid, /*overlapped=*/false);
    if (pipe) return ::_open_osfhandle(reinterpret_cast<intptr_t>(*pipe), 0);
    if (pipe.error().refused || RemainingMs(deadline) == 0) return std::unexpected(pipe.error().message);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace tb::fake
