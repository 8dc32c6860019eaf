// The MCP client's roots (MCP `roots/list`), where upload_file reads from
// (upload_files.h): asked when an upload first needs them, kept, and asked
// again at once on notifications/roots/list_changed. A client that declared
// the capability and does not answer in time is taken to have none (the
// refusal of the upload says so). On Windows the WSL paths a client inside
// WSL sends (file:///home/u/proj, file:///mnt/c/x) are translated
// (wsl_roots.h); without the distro those outside /mnt are left out, and
// the note says how to fix it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/platform.h"
#include "common/uv_util.h"
#include "mcp_shim/wsl_roots.h"

namespace tb {

inline constexpr std::string_view kRootsListChanged = "notifications/roots/list_changed";
inline constexpr std::uint64_t kRootsDeadlineMs = 10'000;

class ClientRoots {
 public:
  // `send` writes one message to the client; `wsl_distro`: --wsl-distro (Windows only).
  ClientRoots(uv_loop_t* loop, std::function<void(const Json&)> send, Platform platform = kThisPlatform,
              std::string wsl_distro = wsl::DistroFromEnvironment());

  // initialize's capabilities.roots.
  void SetDeclared(bool declared) { declared_ = declared; }
  bool declared() const { return declared_; }

  // Runs `then` once the roots are known: at once when they are, else after
  // the client's answer (or the deadline).
  void WhenKnown(std::function<void()> then);
  bool known() const { return known_; }
  const std::vector<std::string>& paths() const { return paths_; }  // local directories
  const std::string& note() const {
    return note_;
  }  // why there are none or fewer: the client failed, WSL roots dropped

  void OnListChanged();
  // A response from the client: true when it answered our roots/list.
  bool OnResponse(const rpc::Message& msg);
  // The client is gone: nothing waits any more.
  void Close();

 private:
  void Ask();
  void Settle(std::vector<std::string> paths, std::string note);

  std::function<void(const Json&)> send_;
  Timer deadline_;
  Platform platform_;
  std::string wsl_distro_;
  bool declared_ = false;
  bool known_ = false;
  std::vector<std::string> paths_;
  std::string note_;
  std::string asking_;  // the dumped id of the roots/list in flight
  bool stale_ = false;  // list_changed came while it was in flight
  std::int64_t next_id_ = 1;
  std::vector<std::function<void()>> waiting_;
};

}  // namespace tb
