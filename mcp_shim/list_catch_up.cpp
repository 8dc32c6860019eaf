#include "mcp_shim/list_catch_up.h"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "common/protocol.h"

namespace tb {

ListCatchUp::ListCatchUp(uv_loop_t* loop, std::uint64_t bound_ms, std::function<void(std::string)> send)
    : timer_(loop), bound_ms_(bound_ms), send_(std::move(send)) {}

void ListCatchUp::SetClientName(std::string_view name) {
  if (refetches_ == Refetches::kUnknown && std::ranges::find(kRefetchingClients, name) != std::end(kRefetchingClients))
    refetches_ = Refetches::kYes;
}

void ListCatchUp::SetSubscribed() {
  refetches_ = Refetches::kYes;
  misses_ = 0;
}

void ListCatchUp::OnNotified() { ++notified_; }

void ListCatchUp::OnListAsked(const std::string& key, bool calls_waiting) {
  asked_[key] = notified_;
  if (!Behind()) return;
  if (!held_.empty()) asked_while_holding_ = true;
  // Fetched on the notification alone, with its call not answered yet.
  if (refetches_ == Refetches::kUnknown && calls_waiting) {
    spdlog::debug("the client re-fetches tools/list by itself: call answers wait for it from now on");
    refetches_ = Refetches::kYes;
  }
}

void ListCatchUp::OnListAnswered(const std::string& key) {
  const auto it = asked_.find(key);
  if (it == asked_.end()) return;
  if (it->second > fetched_) {
    fetched_ = it->second;
    misses_ = 0;
  }
  asked_.erase(it);
  if (!Behind()) Release();
}

void ListCatchUp::SendAnswer(const std::string& key, std::string text) {
  if (closed_) return;
  if (held_.empty() && (refetches_ != Refetches::kYes || !Behind())) return send_(std::move(text));
  held_.push_back({key, std::move(text)});
  if (held_.size() > 1) return;  // the wait is on
  // A tools/list asked after the change and not answered yet counts as the fetch.
  asked_while_holding_ = std::ranges::any_of(asked_, [this](const auto& a) { return a.second == notified_; });
  timer_.Start(bound_ms_, [this] { OnBound(); });
}

void ListCatchUp::Drop(const std::string& key) {
  std::erase_if(held_, [&key](const Held& h) { return h.key == key; });
  if (held_.empty()) timer_.Stop();
}

void ListCatchUp::Close() {
  closed_ = true;
  held_.clear();
  timer_.Stop();
}

void ListCatchUp::Release() {
  timer_.Stop();
  for (Held& held : std::exchange(held_, {})) send_(std::move(held.text));
}

void ListCatchUp::OnBound() {
  if (asked_while_holding_) {
    misses_ = 0;
  } else if (++misses_ >= 2) {
    spdlog::info("the client did not fetch tools/list after two list changes: call answers no longer wait for it");
    refetches_ = Refetches::kNo;
  }
  Release();
}

}  // namespace tb
