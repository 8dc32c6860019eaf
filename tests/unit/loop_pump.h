// Runs a libuv loop without blocking until a condition holds or a deadline
// passes: how the loop tests wait for an event instead of sleeping.
#pragma once

#include <uv.h>

#include <chrono>
#include <functional>

namespace tb::test_loop {

inline bool PumpLoopUntil(uv_loop_t* loop, const std::function<bool()>& done,
                          std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    uv_run(loop, UV_RUN_NOWAIT);
    if (done()) return true;
  }
  return false;
}

}  // namespace tb::test_loop
