#include "host/heartbeat.h"

#include <utility>

#include <spdlog/spdlog.h>

#include "common/protocol.h"

namespace tb {

Heartbeat::Heartbeat(uv_loop_t* loop, ExtensionLink& link, std::uint64_t interval_ms, std::function<void()> on_silent)
    : loop_(loop), link_(link), interval_ms_(interval_ms), on_silent_(std::move(on_silent)), timer_(loop) {}

void Heartbeat::Start() {
  if (!closed_) timer_.Start(interval_ms_, [this] { Ping(); });
}

void Heartbeat::NoteAlive() { last_answer_ = uv_now(loop_); }

std::uint64_t Heartbeat::age_ms() const { return uv_now(loop_) - last_answer_; }

void Heartbeat::Close() {
  closed_ = true;
  timer_.Stop();
}

void Heartbeat::Ping() {
  if (closed_) return;
  Start();  // the next one goes out on time whatever this one does
  link_.Call(
      ext_method::kPing, Json::object(),
      [this](std::expected<Json, rpc::Error> outcome) {
        if (closed_) return;
        if (outcome) {
          NoteAlive();
          missed_ = 0;
          return;
        }
        if (outcome.error().code != rpc_error::kTimeout) return;  // link lost: the host closes already
        if (++missed_ < kHeartbeatMissesAllowed) {
          return spdlog::warn("the extension missed a heartbeat ({} of {})", missed_, kHeartbeatMissesAllowed);
        }
        spdlog::error("the extension stopped answering ({} heartbeats missed); closing the link", missed_);
        Close();
        on_silent_();
      },
      interval_ms_);
}

}  // namespace tb
