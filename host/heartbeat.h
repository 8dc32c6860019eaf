// Liveness of the extension link: a port can stay open while the extension
// behind it no longer answers (a wedged service worker). The heartbeat pings
// it and gives up after kHeartbeatMissesAllowed misses in a row, so the
// browser starts a fresh host and sessions hear of it instead of waiting on calls.
#pragma once

#include <cstdint>
#include <functional>

#include <uv.h>

#include "common/uv_util.h"
#include "host/extension_link.h"

namespace tb {

class Heartbeat {
 public:
  // `on_silent` runs once the extension missed too many pings.
  Heartbeat(uv_loop_t* loop, ExtensionLink& link, std::uint64_t interval_ms, std::function<void()> on_silent);

  // Pings every interval_ms from now.
  void Start();
  // A sign of life other than an answered ping (hello).
  void NoteAlive();
  // How long since the extension last answered: list_tabs' cheap "is it alive?".
  std::uint64_t age_ms() const;
  void Close();

 private:
  void Ping();

  uv_loop_t* loop_;
  ExtensionLink& link_;
  std::uint64_t interval_ms_;
  std::function<void()> on_silent_;
  Timer timer_;
  std::uint64_t last_answer_ = 0;  // uv_now()
  int missed_ = 0;
  bool closed_ = false;
};

}  // namespace tb
