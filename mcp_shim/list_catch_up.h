// A state change and its tools are one step for the model: after a
// list_changed, a tools/call answer is held until the client has fetched
// tools/list again, so the next request its model sees already has the new
// tools. Claude Code re-fetches 4-571 ms after the notification, while it
// builds the model's next request as soon as the answer comes: sent at once,
// the answer arrives with the old list.
//
// Only a client that re-fetches is waited for: one known to (by name), one
// that subscribed to tools changes (2026-07-28), or one that has fetched the
// list by itself while a call of its waited. A wait ends at kListCatchUpMs
// whatever comes; two such waits in a row without a fetch, and the client is
// taken for one that does not re-fetch. Held answers go out in order.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include <uv.h>

#include "common/uv_util.h"

namespace tb {

class ListCatchUp {
 public:
  ListCatchUp(uv_loop_t* loop, std::uint64_t bound_ms, std::function<void(std::string)> send);

  // The client's clientInfo name: a known re-fetcher is waited for at once.
  void SetClientName(std::string_view name);
  // A 2026-07-28 client subscribed to tools changes (it re-fetches on them).
  void SetSubscribed();
  // A list_changed went to the client.
  void OnNotified();
  // A tools/list request `key` came; `calls_waiting`: a call of the client has no answer yet.
  void OnListAsked(const std::string& key, bool calls_waiting);
  // Its answer was sent: the held answers the client may now read follow it.
  void OnListAnswered(const std::string& key);
  // Sends a tools/call answer (already serialised), or holds it.
  void SendAnswer(const std::string& key, std::string text);
  // A cancelled call's held answer is dropped.
  void Drop(const std::string& key);
  void Close();

 private:
  enum class Refetches { kUnknown, kYes, kNo };
  struct Held {
    std::string key;
    std::string text;
  };
  bool Behind() const { return fetched_ < notified_; }
  void Release();
  void OnBound();

  Timer timer_;
  std::uint64_t bound_ms_;
  std::function<void(std::string)> send_;
  Refetches refetches_ = Refetches::kUnknown;
  std::uint64_t notified_ = 0;  // list_changed sent so far
  std::uint64_t fetched_ = 0;   // the notifications the client's last answered tools/list covers
  std::unordered_map<std::string, std::uint64_t> asked_;  // tools/list in flight: notified_ when asked
  std::deque<Held> held_;
  bool asked_while_holding_ = false;  // this wait saw a tools/list
  int misses_ = 0;                    // waits in a row that ended at the bound without a fetch
  bool closed_ = false;
};

}  // namespace tb
