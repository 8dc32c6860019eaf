// JSON-RPC over a LineChannel, from the client's side: requests with our own
// integer ids, responses matched by id, notifications kept in arrival order.
// Everything is read on the caller's thread, so a wait is one poll() away
// from the data (what the benchmarks need).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/fake_extension/line_channel.h"

namespace tb::fake {

using Json = nlohmann::json;

class RpcChannel {
 public:
  RpcChannel(int read_fd, int write_fd) : lines_(read_fd, write_fd) {}

  // Sends a request and returns its id.
  std::int64_t SendRequest(std::string_view method, Json params = nullptr);
  bool SendNotification(std::string_view method, Json params = nullptr);
  bool SendLine(std::string_view line);    // any text, '\n' appended
  bool SendBytes(std::string_view bytes);  // exactly these bytes

  // The response with this id (null for errors about unreadable requests).
  std::optional<Json> WaitResponse(const Json& id, Deadline deadline);
  std::optional<Json> Request(std::string_view method, Json params, Deadline deadline);
  // Removes and returns the oldest notification named `method` (any when empty).
  std::optional<Json> WaitNotification(std::string_view method, Deadline deadline);
  // Notifications read so far and not yet claimed; clears them.
  std::vector<Json> TakeNotifications();
  // Reads whatever the peer has already sent, without waiting.
  void Drain();
  // True once the peer closed its end (read EOF), after reading what is left.
  bool WaitEof(Deadline deadline);

  // Lines that were not JSON-RPC: a peer writing anything else on a protocol
  // channel (a log line on stdout) is a bug these let tests catch.
  const std::vector<std::string>& garbage() const { return garbage_; }
  bool eof() const { return lines_.eof(); }
  // Every message read so far, in order: "response <id>" or "notification <method>".
  const std::vector<std::string>& arrivals() const { return arrivals_; }

 private:
  // Reads one message and files it. False at the deadline or EOF.
  bool ReadOne(Deadline deadline);

  LineChannel lines_;
  std::int64_t next_id_ = 1;
  std::map<std::string, Json> responses_;  // by dumped id
  std::deque<Json> notifications_;
  std::vector<std::string> garbage_;
  std::vector<std::string> arrivals_;
};

}  // namespace tb::fake
