#include "host/own_tool_registry.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/protocol.h"

namespace tb {

OwnToolRegistry::OwnToolRegistry(uv_loop_t* loop, std::uint64_t settle_ms, std::function<void()> on_changed)
    : loop_(loop), settle_ms_(settle_ms), on_changed_(std::move(on_changed)), settle_timer_(loop), pace_timer_(loop) {}

const own_tools::OwnToolSet* OwnToolRegistry::Find(std::int64_t tab_id) const {
  const auto it = sets_.find(tab_id);
  return it != sets_.end() ? &it->second : nullptr;
}

std::optional<std::uint64_t> OwnToolRegistry::NewUntil(std::int64_t tab_id) const {
  const auto it = new_until_.find(tab_id);
  if (it == new_until_.end() || it->second <= uv_now(loop_)) return std::nullopt;
  return it->second;
}

void OwnToolRegistry::NoteRuntime(const own_tools::OwnToolSet& set) {
  if (set.api == "native" || set.native)
    runtime_seen_ = "native";
  else if (runtime_seen_.empty())
    runtime_seen_ = "absent";
}

std::string OwnToolRegistry::DocumentOf(std::int64_t tab_id) const {
  const auto it = documents_.find(tab_id);
  return it != documents_.end() ? it->second : std::string();
}

void OwnToolRegistry::Report(std::int64_t tab_id, own_tools::OwnToolSet set, std::optional<bool> settled) {
  if (closed_) return;
  documents_[tab_id] = set.document_id;
  const auto old = sets_.find(tab_id);
  // The extension clears the tab at a navigation: wait for the new page's
  // list before telling anyone.
  const auto settling = settling_.find(tab_id);
  const bool awaited = settling != settling_.end() && settling->second.document_id == set.document_id;
  const bool cleared =
      settled ? !*settled
              : set.tools.empty() && old != sets_.end() && old->second.document_id != set.document_id && !awaited;
  if (cleared) {
    // The list stays as it was until the new page reports (a call meanwhile
    // names the old document and hears "the page changed"), so the same
    // tools back are no change at all. Each new document has its own time.
    if (awaited) return;
    settling_[tab_id] = {uv_now(loop_) + settle_ms_, set.document_id};
    new_until_[tab_id] = uv_now(loop_) + settle_ms_;
    // Armed for the earliest deadline; OnSettleTimer re-arms for the next.
    if (settling_.size() == 1) settle_timer_.Start(settle_ms_, [this] { OnSettleTimer(); });
    return;
  }
  settling_.erase(tab_id);
  // Another change of the same document within the interval waits for its
  // end (the last one wins); a new document is news at once.
  const bool same_document = old != sets_.end() && old->second.document_id == set.document_id;
  if (!same_document) {
    pace_.erase(tab_id);
    return Apply(tab_id, std::move(set));
  }
  Pace& pace = pace_[tab_id];
  const std::uint64_t now = uv_now(loop_);
  if (pace.last_applied != 0 && now < pace.last_applied + kOwnToolsChangeIntervalMs) {
    const bool armed = std::ranges::any_of(pace_, [](const auto& entry) { return entry.second.pending.has_value(); });
    pace.pending = std::move(set);
    if (!armed) pace_timer_.Start(pace.last_applied + kOwnToolsChangeIntervalMs - now, [this] { OnPaceTimer(); });
    return;
  }
  pace.last_applied = now;
  pace.pending.reset();
  Apply(tab_id, std::move(set));
}

void OwnToolRegistry::Apply(std::int64_t tab_id, own_tools::OwnToolSet set) {
  if (set.tools.empty()) {
    sets_.erase(tab_id);
  } else {
    sets_[tab_id] = std::move(set);
  }
  on_changed_();  // sessions focused on it hear of it once, if their list changed
}

void OwnToolRegistry::OnPaceTimer() {
  const std::uint64_t now = uv_now(loop_);
  std::uint64_t next = UINT64_MAX;
  std::vector<std::pair<std::int64_t, own_tools::OwnToolSet>> due;
  for (auto& [tab, pace] : pace_) {
    if (!pace.pending) continue;
    const std::uint64_t at = pace.last_applied + kOwnToolsChangeIntervalMs;
    if (at > now) {
      next = std::min(next, at);
      continue;
    }
    due.emplace_back(tab, std::move(*pace.pending));
    pace.pending.reset();
    pace.last_applied = now;
  }
  if (next != UINT64_MAX) pace_timer_.Start(next - now, [this] { OnPaceTimer(); });
  for (auto& [tab, set] : due) {
    // A document that changed since (a navigation) reported on its own: this one is old news.
    const auto current = sets_.find(tab);
    if (current != sets_.end() && current->second.document_id != set.document_id) continue;
    Apply(tab, std::move(set));
  }
}

void OwnToolRegistry::OnSettleTimer() {
  const std::uint64_t now = uv_now(loop_);
  // The new page never reported: it has no tools of its own.
  std::erase_if(new_until_, [now](const auto& entry) { return entry.second <= now; });
  std::erase_if(settling_, [this, now](const auto& entry) {
    if (entry.second.deadline > now) return false;
    sets_.erase(entry.first);
    return true;
  });
  if (!settling_.empty()) {
    std::uint64_t next = UINT64_MAX;
    for (const auto& [tab, settle] : settling_) next = std::min(next, settle.deadline);
    settle_timer_.Start(next - now, [this] { OnSettleTimer(); });
  }
  on_changed_();
}

void OwnToolRegistry::Forget(const std::function<bool(std::int64_t)>& gone) {
  std::erase_if(sets_, [&](const auto& entry) { return gone(entry.first); });
  std::erase_if(documents_, [&](const auto& entry) { return gone(entry.first); });
  std::erase_if(settling_, [&](const auto& entry) { return gone(entry.first); });
  std::erase_if(new_until_, [&](const auto& entry) { return gone(entry.first); });
  std::erase_if(pace_, [&](const auto& entry) { return gone(entry.first); });
}

void OwnToolRegistry::Close() {
  closed_ = true;
  settle_timer_.Stop();
  pace_timer_.Stop();
}

}  // namespace tb
