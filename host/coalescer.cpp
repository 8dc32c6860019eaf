#include "host/coalescer.h"

#include <utility>

namespace tb {

Coalescer::Coalescer(uv_loop_t* loop, std::uint64_t interval_ms, std::function<void()> act)
    : timer_(loop), interval_ms_(interval_ms), act_(std::move(act)) {}

void Coalescer::Note() {
  if (closed_ || pending_) return;
  pending_ = true;
  timer_.Start(interval_ms_, [this] {
    pending_ = false;
    act_();
  });
}

void Coalescer::Close() {
  closed_ = true;
  pending_ = false;
  timer_.Stop();
}

}  // namespace tb
