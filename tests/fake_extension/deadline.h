// Every wait in the test tools ends by a deadline: a broken product makes a
// test fail, never hang.
#pragma once

#include <algorithm>
#include <chrono>

namespace tb::fake {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
using std::chrono::milliseconds;

inline Deadline DeadlineIn(milliseconds timeout) { return Clock::now() + timeout; }

// Milliseconds left until `deadline`, for poll(): never negative, rounded up
// so a wait does not spin on a sub-millisecond remainder.
inline int RemainingMs(Deadline deadline) {
  const auto left = std::chrono::ceil<milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1'000'000));
}

}  // namespace tb::fake
