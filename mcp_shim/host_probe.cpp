#include "mcp_shim/host_probe.h"

#ifndef _WIN32
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cstdlib>

#include <spdlog/spdlog.h>

#include "common/socket_dir.h"

namespace tb {

std::string HostSocketOverride() {
  const char* path = std::getenv("TABBRIDGE_HOST_SOCKET");
  return path != nullptr ? path : "";
}

namespace {

// Only the named socket. A file another user made is refused before we
// connect (the listener's uid is checked again by HostLink::Connect).
// Files one connection attempt's outcome: a live host, a refused listener, or nothing there.
void Record(ProbeResult& result, int slot, std::string name,
            std::expected<std::unique_ptr<HostLink>, HostLink::ConnectError> link) {
  if (link) {
    result.hosts.push_back({slot, std::move(name), std::move(*link)});
  } else if (link.error().refused) {
    spdlog::warn("refused {}", link.error().message);
    result.refused.push_back(link.error().message);
  } else {
    spdlog::debug("no live host: {}", link.error().message);
  }
}

void ProbeOne(uv_loop_t* loop, const std::string& path, const Json& hello_params,
              std::function<void(std::expected<ProbeResult, std::string>)> done) {
#ifndef _WIN32
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return done(ProbeResult{});  // not forwarded (yet)
  if (!S_ISSOCK(st.st_mode)) {
    return done(ProbeResult{{}, {path + " (TABBRIDGE_HOST_SOCKET) is not a socket"}});
  }
  if (st.st_uid != ::getuid()) {
    return done(ProbeResult{{},
                            {path + " (TABBRIDGE_HOST_SOCKET) belongs to uid " + std::to_string(st.st_uid) +
                             ", not to you — not a tabbridge host of yours; nothing was sent to it"}});
  }
#endif
  // Windows: a pipe name; HostLink::Connect checks the SID of whoever serves it.
  HostLink::Connect(
      loop, path, hello_params,
      [path, done = std::move(done)](std::expected<std::unique_ptr<HostLink>, HostLink::ConnectError> link) {
        ProbeResult result;
        Record(result, 0, path, std::move(link));
        done(std::move(result));
      });
}

}  // namespace

void ProbeHosts(uv_loop_t* loop, const Json& hello_params,
                std::function<void(std::expected<ProbeResult, std::string>)> done) {
  if (const std::string path = HostSocketOverride(); !path.empty())
    return ProbeOne(loop, path, hello_params, std::move(done));
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
                        Record(gather->result, slot, SlotName(slot), std::move(link));
                        if (--gather->waiting > 0) return;
                        std::ranges::sort(gather->result.hosts, {}, &LiveHost::slot);
                        gather->done(std::move(gather->result));
                      });
  }
}

}  // namespace tb
