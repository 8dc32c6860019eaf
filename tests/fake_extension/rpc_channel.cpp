#include "tests/fake_extension/rpc_channel.h"

namespace tb::fake {
namespace {

std::string Key(const Json& id) { return id.dump(); }

}  // namespace

std::int64_t RpcChannel::SendRequest(std::string_view method, Json params) {
  const std::int64_t id = next_id_++;
  Json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params);
  lines_.WriteLine(message.dump());
  return id;
}

bool RpcChannel::SendNotification(std::string_view method, Json params) {
  Json message = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params);
  return lines_.WriteLine(message.dump());
}

bool RpcChannel::SendLine(std::string_view line) { return lines_.WriteLine(line); }

bool RpcChannel::SendBytes(std::string_view bytes) { return lines_.Write(bytes); }

bool RpcChannel::ReadOne(Deadline deadline) {
  auto line = lines_.ReadLine(deadline);
  if (!line) return false;
  Json message = Json::parse(*line, nullptr, /*allow_exceptions=*/false);
  if (!message.is_object() || message.value("jsonrpc", "") != "2.0") {
    garbage_.push_back(std::move(*line));
  } else if (message.contains("method") && !message.contains("id")) {
    arrivals_.push_back("notification " + message.value("method", ""));
    notifications_.push_back(std::move(message));
  } else if (message.contains("id") && !message.contains("method")) {
    std::string key = Key(message["id"]);  // before the move: `=` evaluates its right side first
    arrivals_.push_back("response " + key);
    responses_[std::move(key)] = std::move(message);
  } else {
    garbage_.push_back(std::move(*line));  // a request: none of our peers sends one
  }
  return true;
}

std::optional<Json> RpcChannel::WaitResponse(const Json& id, Deadline deadline) {
  const std::string key = Key(id);
  for (;;) {
    if (auto it = responses_.find(key); it != responses_.end()) {
      Json response = std::move(it->second);
      responses_.erase(it);
      return response;
    }
    if (!ReadOne(deadline)) return std::nullopt;
  }
}

std::optional<Json> RpcChannel::Request(std::string_view method, Json params, Deadline deadline) {
  return WaitResponse(SendRequest(method, std::move(params)), deadline);
}

std::optional<Json> RpcChannel::WaitNotification(std::string_view method, Deadline deadline) {
  for (;;) {
    for (auto it = notifications_.begin(); it != notifications_.end(); ++it) {
      if (method.empty() || (*it)["method"] == method) {
        Json found = std::move(*it);
        notifications_.erase(it);
        return found;
      }
    }
    if (!ReadOne(deadline)) return std::nullopt;
  }
}

std::vector<Json> RpcChannel::TakeNotifications() {
  std::vector<Json> out(std::make_move_iterator(notifications_.begin()), std::make_move_iterator(notifications_.end()));
  notifications_.clear();
  return out;
}

void RpcChannel::Drain() {
  while (ReadOne(Clock::now())) {
  }
}

bool RpcChannel::WaitEof(Deadline deadline) {
  while (ReadOne(deadline)) {
  }
  return lines_.eof();
}

}  // namespace tb::fake
