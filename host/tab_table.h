// The browser's tabs as the extension reports them, and which of them the
// agent sees: pages with http, https or file URLs (not chrome://, about:…).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/jsonrpc.h"

namespace tb {

struct Tab {
  std::int64_t id = 0;
  std::int64_t window_id = 0;
  std::string title;
  std::string url;
  std::string status;
  // The person's active tab: the active tab of the last-focused normal
  // window (one tab at most: TabTable::Upsert keeps it so).
  bool active = false;
  bool crashed = false;  // its renderer died; listed until closed, back on reload
};

// A Tab from the extension's JSON (docs/protocol.md §1); nullopt when malformed.
std::optional<Tab> TabFromJson(const Json& json);

class TabTable {
 public:
  static bool IsAgentVisible(const std::string& url);

  void Reset(const std::vector<Tab>& tabs);
  // A tab that became the person's active tab takes the mark from the one that was.
  void Upsert(const Tab& tab);
  void Remove(std::int64_t id);

  // Visible tabs only: a tab that navigated to chrome://settings is not "there".
  const Tab* Find(std::int64_t id) const;
  std::vector<const Tab*> Visible() const;
  std::size_t VisibleCount() const;
  // Tabs showing about:blank (hidden from the agent), by id.
  std::vector<std::int64_t> BlankTabs() const;
  bool IsBlank(std::int64_t id) const;
  // The person's active tab, visible to the agent or not; nullptr when none is known.
  const Tab* Active() const;

 private:
  std::map<std::int64_t, Tab> tabs_;  // by id: Chrome hands out ids in creation order
};

}  // namespace tb
