// Requests we sent and are waiting on: id correlation, a deadline on each,
// and one place that fails them all when the peer goes away.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <unordered_map>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/uv_util.h"

namespace tb {

class PendingCalls {
 public:
  using Reply = std::function<void(std::expected<Json, rpc::Error>)>;
  // A success answer as text, for a caller that relays it without a parse
  // (rpc::PeekResult); errors, timeouts and losses still go to Reply.
  using RawReply = std::function<void(const rpc::ResultPrefix&)>;

  explicit PendingCalls(uv_loop_t* loop) : loop_(loop) {}
  ~PendingCalls();

  // Registers a call and returns the id to send it with. `reply` runs exactly
  // once: with the answer, a timeout error after `deadline_ms`, or the error
  // given to Fail/FailAll. `on_timeout` (optional) lets the caller tell the
  // peer to stop working on it.
  std::int64_t Add(std::uint64_t deadline_ms, Reply reply, std::function<void(std::int64_t)> on_timeout = {},
                   RawReply raw = {});

  // Completes the call a response answers. False for an unknown id (late or bogus).
  bool Resolve(const rpc::Message& response);
  // True when call `id` takes its success answer as text.
  bool WantsRaw(std::int64_t id) const;
  // Completes such a call with the answer's text (the caller validated it).
  bool ResolveRaw(const rpc::ResultPrefix& answer);
  // Completes one call with an error, or drops it silently when error is null.
  bool Fail(std::int64_t id, const rpc::Error* error);
  void FailAll(const rpc::Error& error);
  std::size_t size() const { return calls_.size(); }

 private:
  struct Call {
    Reply reply;
    RawReply raw;
    std::unique_ptr<Timer> deadline;
  };
  void Complete(std::int64_t id, std::expected<Json, rpc::Error> outcome);

  uv_loop_t* loop_;
  std::int64_t next_id_ = 1;
  std::unordered_map<std::int64_t, Call> calls_;
};

}  // namespace tb
