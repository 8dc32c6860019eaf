// Which hosts are alive in the socket directory: connect to every slot at
// once and keep those that answer hello.
#pragma once

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

// `done` runs once with the live hosts in slot order; a stale socket (crashed
// host) simply does not answer.
void ProbeHosts(uv_loop_t* loop, const Json& hello_params, std::function<void(std::vector<LiveHost>)> done);

}  // namespace tb
