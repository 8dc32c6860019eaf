// A raw client of a host's Unix socket (what the shim is, minus the shim):
// for tests that send the host exactly the lines they want.
#pragma once

#include <chrono>
#include <expected>
#include <memory>
#include <optional>
#include <string>

#include "common/protocol.h"
#include "tests/fake_extension/rpc_channel.h"

namespace tb::fake {

class SocketClient {
 public:
  // Connects, waiting up to `timeout` for the socket to accept.
  static std::expected<std::unique_ptr<SocketClient>, std::string> Connect(const std::string& path,
                                                                           milliseconds timeout);
  ~SocketClient();
  SocketClient(const SocketClient&) = delete;
  SocketClient& operator=(const SocketClient&) = delete;

  RpcChannel& rpc() { return rpc_; }
  // tabbridge/hello with `protocol`; the whole response.
  std::optional<Json> Hello(milliseconds timeout, int protocol = kShimProtocol);

 private:
  explicit SocketClient(int fd) : fd_(fd), rpc_(fd, fd) {}
  int fd_;
  RpcChannel rpc_;
};

}  // namespace tb::fake
