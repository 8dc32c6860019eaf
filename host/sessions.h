// The attached shims: one Session per socket connection, by id. A session
// removed from inside one of its own callbacks lives until the next loop turn.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include <uv.h>

#include "common/transport.h"
#include "common/uv_util.h"
#include "host/session.h"

namespace tb {

class Sessions {
 public:
  using Map = std::map<std::int64_t, std::unique_ptr<Session>>;

  explicit Sessions(uv_loop_t* loop);

  Session& Add(SessionHost& host, std::unique_ptr<Transport> transport);
  Session* Find(std::int64_t id);
  const Session* Find(std::int64_t id) const;
  // Closes session `id` and forgets it; false when there is none.
  bool Remove(std::int64_t id);
  std::size_t size() const { return sessions_.size(); }
  Map::iterator begin() { return sessions_.begin(); }
  Map::iterator end() { return sessions_.end(); }
  Map::const_iterator begin() const { return sessions_.begin(); }
  Map::const_iterator end() const { return sessions_.end(); }
  // Closes every session (each fails what it still runs). Idempotent.
  void Close();

 private:
  Map sessions_;
  std::int64_t next_id_ = 1;
  std::vector<std::unique_ptr<Session>> graveyard_;
  Timer reaper_;
};

}  // namespace tb
