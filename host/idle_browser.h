// A browser a shim launched closes once no session has been connected to it
// for its idle time (docs/behaviour.md "A launched browser"): a headless
// Chromium holds some 850 MB, and nobody but an agent uses it. The launching
// shim's hello names it (hello_param::kLaunchedPid) and gives the time
// (kLaunchedIdleMs; 0 keeps it running). A browser the person started is never
// named so, and never closed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <uv.h>

#include "common/uv_util.h"

namespace tb {

class IdleBrowser {
 public:
  // browser_pid: the browser this host runs in (its parent).
  IdleBrowser(uv_loop_t* loop, long browser_pid);

  // A shim says it launched the browser with `pid`: closed after `idle_ms`
  // without sessions (0: never). Another browser's pid is ignored.
  void Launched(long pid, std::uint64_t idle_ms, std::size_t sessions);
  // How many sessions are connected now: none starts the idle time, one stops it.
  void SessionsNow(std::size_t sessions);

 private:
  void Close();

  Timer timer_;
  long browser_pid_;
  std::optional<std::uint64_t> idle_ms_;  // set once a shim said it launched this browser
};

}  // namespace tb
