// Which tab group each session's tabs go into (docs/protocol.md "Tabs the
// person can see"): titled with the MCP client's name, a colour no other live
// session's group has while one is free. The extension keeps the groups
// themselves (extension/worker/tab_groups.js); the host decides what they say.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/jsonrpc.h"

namespace tb {

class TabGroups {
 public:
  // chrome.tabGroups.Color, in the order sessions get them; grey is kept for
  // the groups of sessions that ended.
  static constexpr std::string_view kEndedColor = "grey";

  // tabs.create's `group` for a tab `session_id` opens: {key, title, color}.
  // The first call picks the session's colour: the first of the list no live
  // session has (the least used when all are taken); a second live session of
  // the same client is titled "<client> 2".
  Json GroupFor(std::int64_t session_id, const std::string& client_name);
  // The session ended: session.ended's params {sessionId, title, color} when it had
  // a group (nullopt otherwise), with `color` grey; its colour is free again.
  std::optional<Json> End(std::int64_t session_id);

  // "<client> — ended": what a session's group says once it is over.
  static std::string EndedTitle(const std::string& title);

 private:
  struct Group {
    std::string title;
    std::size_t color = 0;  // index into the colour list
  };
  std::map<std::int64_t, Group> live_;  // by session id
};

}  // namespace tb
