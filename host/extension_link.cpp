#include "host/extension_link.h"

#include <spdlog/spdlog.h>

#include "common/protocol.h"

namespace tb {
namespace {

// Cuts before a UTF-8 continuation byte never happen: a chunk must stay valid UTF-8.
std::size_t Utf8Boundary(const std::string& text, std::size_t pos) {
  while (pos > 0 && pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) --pos;
  return pos;
}

}  // namespace

ExtensionLink::ExtensionLink(uv_loop_t* loop, std::unique_ptr<Transport> transport, Callbacks callbacks,
                             std::uint64_t default_deadline_ms)
    : transport_(std::move(transport)),
      pending_(loop),
      callbacks_(std::move(callbacks)),
      default_deadline_ms_(default_deadline_ms) {}

ExtensionLink::~ExtensionLink() { Close(); }

void ExtensionLink::Start() {
  transport_->Start({.on_message = [this](std::string text) { OnMessage(std::move(text)); },
                     .on_close =
                         [this](std::string_view reason) {
                           auto on_close = callbacks_.on_close;
                           Close();
                           if (on_close) on_close(reason);
                         }});
}

std::vector<std::string> ExtensionLink::SplitForExtension(const std::string& text, std::int64_t chunk_id) {
  if (text.size() <= kMaxFrameToExtension) return {text};
  std::vector<std::string> slices;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = Utf8Boundary(text, std::min(text.size(), pos + kChunkDataBytes));
    if (end == pos) end = std::min(text.size(), pos + kChunkDataBytes);  // not UTF-8 at all; cut anyway
    slices.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  std::vector<std::string> frames;
  frames.reserve(slices.size());
  for (std::size_t i = 0; i < slices.size(); ++i) {
    frames.push_back(rpc::Dump(rpc::MakeNotification(
        ext_method::kChunk,
        {{"id", chunk_id}, {"index", i}, {"count", slices.size()}, {"data", std::move(slices[i])}})));
  }
  return frames;
}

void ExtensionLink::SendText(const std::string& text) {
  const auto chunk_id = text.size() > kMaxFrameToExtension ? next_chunk_id_++ : 0;
  for (const auto& frame : SplitForExtension(text, chunk_id)) transport_->Send(frame);
}

std::int64_t ExtensionLink::Call(std::string_view method, Json params, PendingCalls::Reply reply,
                                 std::uint64_t deadline_ms) {
  if (closed_) {
    reply(std::unexpected(rpc::Error{rpc_error::kPeerGone, "the browser extension is not connected", nullptr}));
    return 0;
  }
  const std::string name(method);
  const auto id = pending_.Add(
      deadline_ms != 0 ? deadline_ms : default_deadline_ms_,
      [name, reply = std::move(reply)](std::expected<Json, rpc::Error> outcome) {
        if (!outcome && outcome.error().code == rpc_error::kTimeout) {
          outcome.error().message = "the browser did not answer " + name + " (" + outcome.error().message + ")";
        }
        reply(std::move(outcome));
      },
      [this](std::int64_t timed_out) {
        if (!closed_) transport_->Send(rpc::Dump(rpc::MakeNotification(ext_method::kCancel, {{"id", timed_out}})));
      });
  SendText(rpc::Dump(rpc::MakeRequest(id, method, std::move(params))));
  return id;
}

void ExtensionLink::Cancel(std::int64_t id) {
  if (pending_.Fail(id, nullptr) && !closed_) {
    transport_->Send(rpc::Dump(rpc::MakeNotification(ext_method::kCancel, {{"id", id}})));
  }
}

void ExtensionLink::OnMessage(std::string text) {
  auto parsed = rpc::Parse(text);
  if (!parsed) {
    // The extension is ours; a malformed message means something is badly
    // wrong. Close and let Chrome start a fresh host when it reconnects.
    spdlog::error("malformed message from the extension ({}); closing", parsed.error().error.message);
    auto on_close = callbacks_.on_close;
    Close();
    if (on_close) on_close("malformed message from the extension");
    return;
  }
  switch (parsed->kind) {
    case rpc::Kind::kResponse:
      if (!pending_.Resolve(*parsed)) spdlog::debug("late or unknown answer from the extension: {}", rpc::Dump(parsed->id));
      break;
    case rpc::Kind::kNotification:
      if (callbacks_.on_event) callbacks_.on_event(parsed->method, parsed->params);
      break;
    case rpc::Kind::kRequest:
      // The extension sends no requests in this protocol version.
      transport_->Send(rpc::Dump(rpc::MakeError(parsed->id, rpc_error::kMethodNotFound,
                                                "the host does not serve " + parsed->method)));
      break;
  }
}

void ExtensionLink::Close() {
  if (closed_) return;
  closed_ = true;
  transport_->Close();
  pending_.FailAll({rpc_error::kPeerGone, "the browser extension disconnected", nullptr});
}

}  // namespace tb
