#include "host/reply_once.h"

#include <exception>

#include <spdlog/spdlog.h>

namespace tb {

ReplyOnce::ReplyOnce(Send send, Json if_dropped)
    : state_(std::make_shared<State>(std::move(send), std::move(if_dropped))) {}

void ReplyOnce::operator()(Json result) const {
  if (!state_ || !state_->send) return;
  if (state_->answered) {
    spdlog::error("a call was answered twice; the second answer is dropped");
    return;
  }
  state_->answered = true;
  state_->send(std::move(result));
}

ReplyOnce::State::~State() {
  if (answered || if_dropped.is_null() || !send) return;
  spdlog::debug("a call was dropped without an answer; answering that");
  try {
    send(std::move(if_dropped));
  } catch (const std::exception& e) {  // a destructor must not throw
    spdlog::error("answering a dropped call failed: {}", e.what());
  }
}

}  // namespace tb
