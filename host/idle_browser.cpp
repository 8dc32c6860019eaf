#include "host/idle_browser.h"

#include <csignal>

#include <spdlog/spdlog.h>

namespace tb {

IdleBrowser::IdleBrowser(uv_loop_t* loop, long browser_pid) : timer_(loop), browser_pid_(browser_pid) {}

void IdleBrowser::Launched(long pid, std::uint64_t idle_ms, std::size_t sessions) {
  if (pid <= 0 || pid != browser_pid_) return;
  idle_ms_ = idle_ms;
  SessionsNow(sessions);
}

void IdleBrowser::SessionsNow(std::size_t sessions) {
  if (!idle_ms_ || *idle_ms_ == 0 || sessions > 0) return timer_.Stop();
  timer_.Start(*idle_ms_, [this] { Close(); });
}

// SIGTERM: the browser shuts down as when its last window closes (profile
// saved), and ends this host with it. uv_kill is TerminateProcess on Windows.
void IdleBrowser::Close() {
  spdlog::info("closing the browser a shim launched (pid {}): no session for {} s", browser_pid_, *idle_ms_ / 1000);
  if (const int err = uv_kill(static_cast<int>(browser_pid_), SIGTERM); err != 0) {
    spdlog::warn("could not close the browser (pid {}): {}", browser_pid_, uv_strerror(err));
  }
}

}  // namespace tb
