#include "mcp_shim/host_probe.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "common/socket_dir.h"

namespace tb {

void ProbeHosts(uv_loop_t* loop, const Json& hello_params, std::function<void(std::vector<LiveHost>)> done) {
  const std::string dir = SocketDir();
  const auto slots = ListSlots(dir);
  if (slots.empty()) return done({});
  struct Gather {
    std::size_t waiting;
    std::vector<LiveHost> found;
    std::function<void(std::vector<LiveHost>)> done;
  };
  auto gather = std::make_shared<Gather>(Gather{slots.size(), {}, std::move(done)});
  for (int slot : slots) {
    HostLink::Connect(loop, SocketPath(dir, slot), hello_params,
                      [gather, slot](std::expected<std::unique_ptr<HostLink>, std::string> link) {
                        if (link)
                          gather->found.push_back({slot, SlotName(slot), std::move(*link)});
                        else
                          spdlog::debug("no live host: {}", link.error());
                        if (--gather->waiting > 0) return;
                        std::ranges::sort(gather->found, {}, &LiveHost::slot);
                        gather->done(std::move(gather->found));
                      });
  }
}

}  // namespace tb
