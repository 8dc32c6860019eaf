// Which hosts are alive in the socket directory: connect to every slot at
// once and keep those that answer hello.
#pragma once

#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <uv.h>

#include "mcp_shim/host_link.h"

namespace tb {

struct LiveHost {
  int slot = 0;
  std::string id;  // the slot name, e.g. browser-0
  std::unique_ptr<HostLink> link;
};

struct ProbeResult {
  std::vector<LiveHost> hosts;       // in slot order
  std::vector<std::string> refused;  // sockets whose listener is not ours: why, one each
};

// The socket the user named (TABBRIDGE_HOST_SOCKET, or `tabbridge
// --host-socket`): a host reached some other way, such as a browser on
// another machine through an ssh-forwarded socket. "" when unset.
std::string HostSocketOverride();

// `done` runs once with the live hosts; a stale socket (crashed host) simply
// does not answer. A socket directory that is not ours and private is an
// error, and no socket in it is touched. With HostSocketOverride() set, that
// socket is the only one tried (its file and its listener must be ours).
void ProbeHosts(uv_loop_t* loop, const Json& hello_params,
                std::function<void(std::expected<ProbeResult, std::string>)> done);

}  // namespace tb
