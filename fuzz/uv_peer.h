// The other end of a socketpair that a Transport (and so a McpServer or a
// Host) reads: what a fuzz target writes to it and reads back, while it runs
// the loop without blocking.
#pragma once

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>
#include <string_view>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/transport.h"
#include "common/uv_util.h"

namespace tb::fuzz {

struct Peer {
  int fd = -1;
  uv_loop_t* loop = nullptr;

  // A Transport over the other end of a new socketpair.
  static std::unique_ptr<Transport> Pair(uv_loop_t* loop, Framing framing, std::size_t max_in, Peer& peer) {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return nullptr;
    ::fcntl(fds[1], F_SETFL, ::fcntl(fds[1], F_GETFL) | O_NONBLOCK);
    peer.fd = fds[1];
    peer.loop = loop;
    auto* pipe = NewHandle<uv_pipe_t>();
    uv_pipe_init(loop, pipe, 0);
    uv_pipe_open(pipe, fds[0]);
    auto* stream = reinterpret_cast<uv_stream_t*>(pipe);
    return std::make_unique<Transport>(stream, stream, framing, max_in);
  }

  // Runs the loop a little and discards what the other side wrote.
  void Pump(int rounds = 4) const {
    char buf[65536];
    for (int i = 0; i < rounds; ++i) {
      uv_run(loop, UV_RUN_NOWAIT);
      while (::read(fd, buf, sizeof(buf)) > 0) {
      }
    }
  }

  // Writes all of `bytes`, running the loop whenever the socket is full.
  void Write(std::string_view bytes) const {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);  // the host may have closed
      if (n > 0)
        bytes.remove_prefix(static_cast<std::size_t>(n));
      else if (errno == EAGAIN)
        Pump(1);
      else
        return;  // the other side closed
    }
    Pump();
  }

  void Close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// A non-blocking connection to the Unix socket at `path` (the host's), or -1.
inline int ConnectTo(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  path.copy(addr.sun_path, sizeof(addr.sun_path) - 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 && errno != EINPROGRESS) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Tab `id` of the fake browser's hello, as the extension reports a tab.
inline Json FakeTab(int id) {
  return {{"id", id},
          {"windowId", 1},
          {"title", "T"},
          {"url", "http://127.0.0.1/" + std::to_string(id)},
          {"status", "complete"},
          {"active", id == 1}};
}

}  // namespace tb::fuzz
