// The answer to one tools/call, given once. Copies share one state, so a
// handler may hand it on through lambdas; the first answer counts and a
// later one is dropped (and logged). The call's own ReplyOnce — the one the
// session makes — also carries the answer for "never answered": when its
// last copy goes without an answer (a handler dropped it: a bug), the client
// gets that at once instead of waiting for its deadline (150 s). A wrapper
// made from a plain callable (an audit line around the answer) adds nothing:
// dropping it drops the answer it holds, and that one speaks up.
#pragma once

#include <concepts>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "common/jsonrpc.h"

namespace tb {

class ReplyOnce {
 public:
  using Send = std::function<void(Json result)>;

  ReplyOnce() = default;
  // A wrapper: no answer of its own when dropped. Implicit: every answering lambda is one.
  template <typename F>
    requires(!std::same_as<std::remove_cvref_t<F>, ReplyOnce> && std::invocable<F&, Json>)
  ReplyOnce(F&& send) : ReplyOnce(Send(std::forward<F>(send)), nullptr) {}  // NOLINT(google-explicit-constructor)
  // The call's own answer: `if_dropped` goes to `send` when every copy is gone unanswered.
  ReplyOnce(Send send, Json if_dropped);

  // Answers (the first time only).
  void operator()(Json result) const;
  bool answered() const { return state_ && state_->answered; }

 private:
  struct State {
    State(Send s, Json d) : send(std::move(s)), if_dropped(std::move(d)) {}
    State(const State&) = delete;
    State& operator=(const State&) = delete;
    ~State();
    Send send;
    Json if_dropped;  // null: a wrapper
    bool answered = false;
  };
  std::shared_ptr<State> state_;
};

}  // namespace tb
