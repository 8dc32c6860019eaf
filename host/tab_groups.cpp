#include "host/tab_groups.h"

#include <algorithm>
#include <array>

namespace tb {
namespace {

constexpr std::array<std::string_view, 8> kColors = {"blue", "red",    "yellow", "green",
                                                     "pink", "purple", "cyan",   "orange"};

// A group's title when the client gave no name (clientInfo is required by MCP, but the shim may relay "").
constexpr std::string_view kUnnamedClient = "agent";

}  // namespace

Json TabGroups::GroupFor(std::int64_t session_id, const std::string& client_name) {
  auto it = live_.find(session_id);
  if (it == live_.end()) {
    std::array<std::size_t, kColors.size()> used{};
    for (const auto& [id, group] : live_) ++used[group.color];
    const auto least = std::ranges::min_element(used);  // the first of the least used: a free one while any is
    const std::string name = client_name.empty() ? std::string(kUnnamedClient) : client_name;
    // Two live sessions of one client: "claude-code" and "claude-code 2".
    std::string title = name;
    for (int n = 2; std::ranges::any_of(live_, [&](const auto& entry) { return entry.second.title == title; }); ++n) {
      title = name + " " + std::to_string(n);
    }
    it = live_.emplace(session_id, Group{std::move(title), static_cast<std::size_t>(least - used.begin())}).first;
  }
  return {{"key", session_id}, {"title", it->second.title}, {"color", kColors[it->second.color]}};
}

std::optional<Json> TabGroups::End(std::int64_t session_id) {
  const auto it = live_.find(session_id);
  if (it == live_.end()) return std::nullopt;
  Json ended = {{"sessionId", session_id}, {"title", EndedTitle(it->second.title)}, {"color", kEndedColor}};
  live_.erase(it);
  return ended;
}

std::string TabGroups::EndedTitle(const std::string& title) { return title + " — ended"; }

}  // namespace tb
