// Many notes, one action: the first Note() arms a timer, the notes that come
// before it fires ride along, and the action runs once. A burst of tab events
// is one list_changed; a burst of session changes one host.state.
#pragma once

#include <cstdint>
#include <functional>

#include <uv.h>

#include "common/uv_util.h"

namespace tb {

class Coalescer {
 public:
  Coalescer(uv_loop_t* loop, std::uint64_t interval_ms, std::function<void()> act);

  // Runs the action within interval_ms unless it is already due.
  void Note();
  bool pending() const { return pending_; }
  // Drops a pending action; later notes do nothing. Idempotent.
  void Close();

 private:
  Timer timer_;
  std::uint64_t interval_ms_;
  std::function<void()> act_;
  bool pending_ = false;
  bool closed_ = false;
};

}  // namespace tb
