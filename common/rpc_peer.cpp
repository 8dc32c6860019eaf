#include "common/rpc_peer.h"

#include <spdlog/spdlog.h>

#include "common/protocol.h"

namespace tb {

RpcPeer::RpcPeer(uv_loop_t* loop, std::unique_ptr<Transport> transport, Options options)
    : transport_(std::move(transport)), pending_(loop), options_(std::move(options)) {}

RpcPeer::~RpcPeer() {
  callbacks_ = {};
  on_request_ = nullptr;
  Close();
}

void RpcPeer::Start(Callbacks callbacks) {
  callbacks_ = std::move(callbacks);
  transport_->Start({.on_message = [this](std::string text) { OnMessage(std::move(text)); },
                     .on_close = [this](std::string_view reason) { Lost(reason); }});
}

void RpcPeer::SendText(const std::string& text) {
  if (!options_.split) {
    transport_->Send(text);
    return;
  }
  for (const auto& frame : options_.split(text)) transport_->Send(frame);
}

std::int64_t RpcPeer::Request(std::string_view method, Json params, std::uint64_t deadline_ms,
                              PendingCalls::Reply reply, PendingCalls::RawReply raw) {
  if (closed_) {
    reply(std::unexpected(rpc::Error{rpc_error::kPeerGone, options_.name + " is not connected", nullptr}));
    return 0;
  }
  const auto id = pending_.Add(
      deadline_ms, std::move(reply),
      [this](std::int64_t timed_out) {
        if (!closed_) SendText(rpc::Dump(options_.cancel_message(timed_out, "timeout")));
      },
      std::move(raw));
  SendText(rpc::Dump(rpc::MakeRequest(id, method, std::move(params))));
  return id;
}

void RpcPeer::Cancel(std::int64_t id, std::string_view why) {
  if (pending_.Fail(id, nullptr) && !closed_) SendText(rpc::Dump(options_.cancel_message(id, why)));
}

void RpcPeer::Notify(std::string_view method, Json params) {
  if (!closed_) SendText(rpc::Dump(rpc::MakeNotification(method, std::move(params))));
}

// A success answer for a call that takes it as text: validated (a SAX pass,
// no DOM, no re-serialisation) and handed over. Anything else is parsed.
bool RpcPeer::RelayedRaw(std::string_view text) {
  const auto answer = rpc::PeekResult(text);
  if (!answer || !pending_.WantsRaw(answer->id) || !Json::accept(text)) return false;
  return pending_.ResolveRaw(*answer);
}

void RpcPeer::OnMessage(std::string text) {
  if (RelayedRaw(text)) return;
  auto parsed = rpc::Parse(text);
  if (!parsed) return Malformed(parsed.error());
  if (parsed->repaired)
    spdlog::info("a message from {} held text that is not well-formed Unicode: read with U+FFFD in its place",
                 options_.name);
  switch (parsed->kind) {
    case rpc::Kind::kResponse:
      if (!pending_.Resolve(*parsed))
        spdlog::debug("late or unknown answer from {}: {}", options_.name, rpc::Dump(parsed->id));
      break;
    case rpc::Kind::kNotification:
      if (callbacks_.on_notification) callbacks_.on_notification(parsed->method, parsed->params);
      break;
    case rpc::Kind::kRequest: {
      if (!on_request_) {
        SendText(
            rpc::Dump(rpc::MakeError(parsed->id, rpc_error::kMethodNotFound, "not served here: " + parsed->method)));
        break;
      }
      auto answer = on_request_(parsed->method, parsed->params);
      if (closed_) break;  // the request closed the link (or the host)
      SendText(rpc::Dump(answer ? rpc::MakeResult(parsed->id, std::move(*answer))
                                : rpc::MakeError(parsed->id, answer.error())));
      break;
    }
  }
}

// A message that cannot be read is dropped, never the link. The extension's
// messages carry page text: if one could close the link, an ordinary page open
// in any tab would cut every session off the browser, and again for every host
// Chrome starts (issue 29). The one that waits for an answer still gets one: a
// call of ours it answers fails now, a request with an id is answered.
void RpcPeer::Malformed(const rpc::ParseFailure& failure) {
  spdlog::warn("dropped a malformed message from {}: {}", options_.name, failure.error.message);
  if (failure.id.is_number_integer()) {
    const rpc::Error error{failure.error.code, "unreadable answer from " + options_.name + ": " + failure.error.message,
                           nullptr};
    if (pending_.Fail(failure.id.get<std::int64_t>(), &error)) return;
  }
  if (!failure.id.is_null() && !failure.response && !closed_)
    SendText(rpc::Dump(rpc::MakeError(failure.id, failure.error)));
}

void RpcPeer::Lost(std::string_view reason) {
  if (closed_) return;
  auto on_close = callbacks_.on_close;
  Close();
  if (on_close) on_close(reason);  // may destroy this object
}

void RpcPeer::Close() {
  if (closed_) return;
  closed_ = true;
  transport_->Close();
  pending_.FailAll({rpc_error::kPeerGone, options_.name + " disconnected", nullptr});
}

}  // namespace tb
