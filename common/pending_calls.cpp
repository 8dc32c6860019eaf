#include "common/pending_calls.h"

#include "common/protocol.h"

namespace tb {

PendingCalls::~PendingCalls() = default;

std::int64_t PendingCalls::Add(std::uint64_t deadline_ms, Reply reply, std::function<void(std::int64_t)> on_timeout,
                               RawReply raw) {
  const std::int64_t id = next_id_++;
  auto timer = std::make_unique<Timer>(loop_);
  timer->Start(deadline_ms, [this, id, deadline_ms, on_timeout = std::move(on_timeout)] {
    if (on_timeout) on_timeout(id);
    Complete(id, std::unexpected(rpc::Error{rpc_error::kTimeout,
                                            "no answer within " + std::to_string(deadline_ms) + " ms", nullptr}));
  });
  calls_.emplace(id, Call{std::move(reply), std::move(raw), std::move(timer)});
  return id;
}

bool PendingCalls::Resolve(const rpc::Message& response) {
  if (!response.id.is_number_integer()) return false;
  const auto id = response.id.get<std::int64_t>();
  if (!calls_.contains(id)) return false;
  if (response.is_error)
    Complete(id, std::unexpected(response.error));
  else
    Complete(id, response.result);
  return true;
}

bool PendingCalls::WantsRaw(std::int64_t id) const {
  const auto it = calls_.find(id);
  return it != calls_.end() && it->second.raw;
}

bool PendingCalls::ResolveRaw(const rpc::ResultPrefix& answer) {
  auto it = calls_.find(answer.id);
  if (it == calls_.end() || !it->second.raw) return false;
  Call call = std::move(it->second);  // out of the map first: the reply may re-enter
  calls_.erase(it);
  call.raw(answer);
  return true;
}

bool PendingCalls::Fail(std::int64_t id, const rpc::Error* error) {
  auto it = calls_.find(id);
  if (it == calls_.end()) return false;
  if (error == nullptr) {
    calls_.erase(it);
    return true;
  }
  Complete(id, std::unexpected(*error));
  return true;
}

void PendingCalls::FailAll(const rpc::Error& error) {
  // A reply may add new calls; fail only the ones pending now.
  std::vector<std::int64_t> ids;
  ids.reserve(calls_.size());
  for (const auto& [id, call] : calls_) ids.push_back(id);
  for (auto id : ids) Complete(id, std::unexpected(error));
}

void PendingCalls::Complete(std::int64_t id, std::expected<Json, rpc::Error> outcome) {
  auto it = calls_.find(id);
  if (it == calls_.end()) return;
  Call call = std::move(it->second);  // out of the map first: the reply may re-enter
  calls_.erase(it);
  call.reply(std::move(outcome));
}

}  // namespace tb
