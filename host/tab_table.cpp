#include "host/tab_table.h"

#include "common/protocol.h"

#include "common/json_field.h"

namespace tb {

std::optional<Tab> TabFromJson(const Json& json) {
  if (!json.is_object()) return std::nullopt;
  const auto id = field::Int(json, "id");
  if (!id) return std::nullopt;
  Tab tab;
  tab.id = *id;
  tab.title = field::String(json, "title").value_or("");
  tab.url = field::String(json, "url").value_or("");
  tab.status = field::String(json, "status").value_or("");
  if (const auto w = field::Int(json, "windowId")) tab.window_id = *w;
  if (const auto a = field::Bool(json, "active")) tab.active = *a;
  if (const auto c = field::Bool(json, "crashed")) tab.crashed = *c;
  return tab;
}

bool TabTable::IsAgentVisible(const std::string& url) { return IsAgentUrl(url); }

void TabTable::Reset(const std::vector<Tab>& tabs) {
  tabs_.clear();
  for (const auto& tab : tabs) Upsert(tab);
}

void TabTable::Upsert(const Tab& tab) {
  if (tab.active) {
    for (auto& [id, other] : tabs_) other.active = false;
  }
  tabs_[tab.id] = tab;
}

void TabTable::Remove(std::int64_t id) { tabs_.erase(id); }

const Tab* TabTable::Find(std::int64_t id) const {
  const auto it = tabs_.find(id);
  return it != tabs_.end() && IsAgentVisible(it->second.url) ? &it->second : nullptr;
}

std::vector<const Tab*> TabTable::Visible() const {
  std::vector<const Tab*> visible;
  for (const auto& [id, tab] : tabs_) {
    if (IsAgentVisible(tab.url)) visible.push_back(&tab);
  }
  return visible;
}

std::size_t TabTable::VisibleCount() const { return Visible().size(); }

std::vector<std::int64_t> TabTable::BlankTabs() const {
  std::vector<std::int64_t> ids;
  for (const auto& [id, tab] : tabs_) {
    if (tab.url == "about:blank") ids.push_back(id);
  }
  return ids;
}

bool TabTable::IsBlank(std::int64_t id) const {
  const auto it = tabs_.find(id);
  return it != tabs_.end() && it->second.url == "about:blank";
}

const Tab* TabTable::Active() const {
  for (const auto& [id, tab] : tabs_) {
    if (tab.active) return &tab;
  }
  return nullptr;
}

}  // namespace tb
