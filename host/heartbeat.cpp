// Liveness of the extension link: a port can stay open while the extension
// behind it no longer answers (a wedged service worker). The host pings it and
// ends the link after kHeartbeatMissesAllowed misses in a row, so the browser
// starts a fresh host and sessions hear of it instead of waiting on calls.
#include <unistd.h>

#include <spdlog/spdlog.h>

#include "common/protocol.h"
#include "host/host.h"

namespace tb {

void Host::StartHeartbeat() {
  heartbeat_timer_.Start(options_.heartbeat_ms, [this] { OnHeartbeatTimer(); });
}

void Host::OnHeartbeatTimer() {
  if (shutting_down_) return;
  StartHeartbeat();  // the next one goes out on time whatever this one does
  extension_.Call(
      ext_method::kPing, Json::object(),
      [this](std::expected<Json, rpc::Error> outcome) {
        if (shutting_down_) return;
        if (outcome) {
          last_heartbeat_ = uv_now(loop_);
          heartbeats_missed_ = 0;
          return;
        }
        if (outcome.error().code != rpc_error::kTimeout) return;  // link lost: Shutdown runs already
        if (++heartbeats_missed_ < kHeartbeatMissesAllowed) {
          return spdlog::warn("the extension missed a heartbeat ({} of {})", heartbeats_missed_,
                              kHeartbeatMissesAllowed);
        }
        spdlog::error("the extension stopped answering ({} heartbeats missed); closing the link", heartbeats_missed_);
        exit_code_ = 1;
        Shutdown("the extension stopped answering");
      },
      options_.heartbeat_ms);
}

Json Host::ConnectionStatus() const {
  return {{"browser", browser_},
          {"extension", extension_info_},
          {"host", {{"version", kVersion}, {"pid", static_cast<long>(getpid())}}},
          {"heartbeatAgeMs", uv_now(loop_) - last_heartbeat_},
          {"sessions", sessions_.size()}};
}

}  // namespace tb
