#include "mcp_shim/host_probe.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "common/socket_dir.h"

namespace tb {

void ProbeHosts(uv_loop_t* loop, const Json& hello_params,
                std::function<void(std::expected<ProbeResult, std::string>)> done) {
  const std::string dir = SocketDir();
  const auto usable = ExistingPrivateDir(dir);
  if (!usable) return done(std::unexpected("the socket directory " + usable.error()));
  const auto slots = *usable ? ListSlots(dir) : std::vector<int>{};
  if (slots.empty()) return done(ProbeResult{});
  struct Gather {
    std::size_t waiting;
    ProbeResult result;
    std::function<void(std::expected<ProbeResult, std::string>)> done;
  };
  auto gather = std::make_shared<Gather>(Gather{slots.size(), {}, std::move(done)});
  for (int slot : slots) {
    HostLink::Connect(loop, SocketPath(dir, slot), hello_params,
                      [gather, slot](std::expected<std::unique_ptr<HostLink>, HostLink::ConnectError> link) {
                        if (link) {
                          gather->result.hosts.push_back({slot, SlotName(slot), std::move(*link)});
                        } else if (link.error().refused) {
                          spdlog::warn("refused {}", link.error().message);
                          gather->result.refused.push_back(link.error().message);
                        } else {
                          spdlog::debug("no live host: {}", link.error().message);
                        }
                        if (--gather->waiting > 0) return;
                        std::ranges::sort(gather->result.hosts, {}, &LiveHost::slot);
                        gather->done(std::move(gather->result));
                      });
  }
}

}  // namespace tb
