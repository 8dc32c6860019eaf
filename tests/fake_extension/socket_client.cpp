#include "tests/fake_extension/socket_client.h"

#include <unistd.h>

#include "tests/fake_extension/line_channel.h"

namespace tb::fake {

std::expected<std::unique_ptr<SocketClient>, std::string> SocketClient::Connect(const std::string& path,
                                                                                milliseconds timeout) {
  auto fd = ConnectUnix(path, timeout);
  if (!fd) return std::unexpected(fd.error());
  return std::unique_ptr<SocketClient>(new SocketClient(*fd));
}

SocketClient::~SocketClient() { ::close(fd_); }

std::optional<Json> SocketClient::Hello(milliseconds timeout, int protocol) {
  return rpc_.Request("tabbridge/hello",
                      {{"protocol", protocol}, {"client", {{"name", "tabbridge-tests"}, {"version", "0"}}}},
                      DeadlineIn(timeout));
}

}  // namespace tb::fake
