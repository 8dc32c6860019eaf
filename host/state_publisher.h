// host.state, the view of the host the extension's popup and toolbar badge
// show (docs/protocol.md "The popup"): sent when it changed, at most once per
// kHostStateCoalesceMs, and never twice the same unless asked.
#pragma once

#include <functional>
#include <string>

#include <uv.h>

#include "common/jsonrpc.h"
#include "host/coalescer.h"

namespace tb {

class StatePublisher {
 public:
  // `build` makes the state; `send` hands it to the extension.
  StatePublisher(uv_loop_t* loop, std::function<Json()> build, std::function<void(Json)> send);

  // The extension can hear it from now on (it said hello); until then notes are dropped.
  void Start();
  // Something the state shows changed (a session came, left, focused, called a tool; the policy).
  void NoteChanged();
  // Sends the state now when it differs from what was last sent, or `always` (a new port knows nothing).
  void Publish(bool always = false);
  // Publish now when the extension can hear it (Start), without waiting for the coalescer.
  void PublishNow();
  void Close();

 private:
  std::function<Json()> build_;
  std::function<void(Json)> send_;
  Coalescer coalescer_;
  std::string told_;  // the last state, as sent
  bool started_ = false;
  bool closed_ = false;
};

}  // namespace tb
