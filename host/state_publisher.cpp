#include "host/state_publisher.h"

#include <utility>

#include "common/protocol.h"

namespace tb {

StatePublisher::StatePublisher(uv_loop_t* loop, std::function<Json()> build, std::function<void(Json)> send)
    : build_(std::move(build)), send_(std::move(send)), coalescer_(loop, kHostStateCoalesceMs, [this] { Publish(); }) {}

void StatePublisher::Start() { started_ = true; }

void StatePublisher::NoteChanged() {
  if (started_ && !closed_) coalescer_.Note();
}

void StatePublisher::Publish(bool always) {
  if (closed_) return;
  Json state = build_();
  std::string text = rpc::Dump(state);
  if (!always && text == told_) return;  // a focus that came back, a policy re-read the same
  told_ = std::move(text);
  send_(std::move(state));
}

void StatePublisher::PublishNow() {
  if (started_) Publish();
}

void StatePublisher::Close() {
  closed_ = true;
  coalescer_.Close();
}

}  // namespace tb
