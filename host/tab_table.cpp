#include "host/tab_table.h"

namespace tb {

std::optional<Tab> TabFromJson(const Json& json) {
  if (!json.is_object()) return std::nullopt;
  const auto id = json.find("id");
  if (id == json.end() || !id->is_number_integer()) return std::nullopt;
  Tab tab;
  tab.id = id->get<std::int64_t>();
  auto text = [&](const char* key) {
    const auto it = json.find(key);
    return it != json.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  tab.title = text("title");
  tab.url = text("url");
  tab.status = text("status");
  if (const auto w = json.find("windowId"); w != json.end() && w->is_number_integer()) tab.window_id = w->get<std::int64_t>();
  if (const auto a = json.find("active"); a != json.end() && a->is_boolean()) tab.active = a->get<bool>();
  return tab;
}

bool TabTable::IsAgentVisible(const std::string& url) {
  return url.starts_with("http://") || url.starts_with("https://") || url.starts_with("file://");
}

void TabTable::Reset(const std::vector<Tab>& tabs) {
  tabs_.clear();
  for (const auto& tab : tabs) tabs_[tab.id] = tab;
}

void TabTable::Upsert(const Tab& tab) { tabs_[tab.id] = tab; }

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

}  // namespace tb
