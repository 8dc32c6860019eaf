// run_steps: several page tools (or the page's own) in one call, one after
// the other, each through the call gate as the client's own call of it
// would go (host/run_steps.cpp). A part of the host: it knows the host only
// by what it is handed here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "host/reply_once.h"
#include "host/session.h"
#include "host/tool_call.h"

namespace tb {

class RunSteps {
 public:
  using Reply = ReplyOnce;
  struct Parts {
    // A call of one of tabbridge's tools, or of the page's own (false: no such tool), through the call gate.
    std::function<void(Session&, ToolCall, Reply)> call_tool;
    std::function<bool(Session&, const ToolCall&, Reply&)> call_own_tool;
    std::function<Session*(std::int64_t id)> find_session;
    std::function<std::optional<std::string>(const Session&)> focused_url;
    // Holds the session's notifications until the returned release runs (Session::HoldUntilReleased).
    std::function<std::function<void()>(Session&)> hold_notifications;
    std::weak_ptr<bool> alive;  // the host's: an answer after it went reaches nothing
  };

  explicit RunSteps(Parts parts) : parts_(std::move(parts)) {}

  // The run_steps tool: one signature with every host tool's part.
  void Run(Session& session, const ToolCall& call, Reply reply);

 private:
  Parts parts_;
};

}  // namespace tb
