#include "host/sessions.h"

#include <utility>

#include <spdlog/spdlog.h>

namespace tb {

Sessions::Sessions(uv_loop_t* loop) : reaper_(loop) {}

Session& Sessions::Add(SessionHost& host, std::unique_ptr<Transport> transport) {
  const std::int64_t id = next_id_++;
  auto& session = *sessions_.emplace(id, std::make_unique<Session>(host, id, std::move(transport))).first->second;
  spdlog::info("session {} connected ({} open)", id, sessions_.size());
  return session;
}

Session* Sessions::Find(std::int64_t id) {
  const auto it = sessions_.find(id);
  return it != sessions_.end() ? it->second.get() : nullptr;
}

const Session* Sessions::Find(std::int64_t id) const {
  const auto it = sessions_.find(id);
  return it != sessions_.end() ? it->second.get() : nullptr;
}

bool Sessions::Remove(std::int64_t id) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return false;
  it->second->Close();
  graveyard_.push_back(std::move(it->second));
  sessions_.erase(it);
  reaper_.Start(0, [this] { graveyard_.clear(); });
  return true;
}

void Sessions::Close() {
  for (auto& [id, session] : sessions_) session->Close();
  reaper_.Stop();
}

}  // namespace tb
