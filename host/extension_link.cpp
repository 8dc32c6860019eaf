#include "host/extension_link.h"

#include "common/protocol.h"
#include "common/tool_catalog.h"

namespace tb {
namespace {

// A chunk must stay valid UTF-8: never cut before a continuation byte.
std::size_t Utf8Boundary(const std::string& text, std::size_t pos) {
  while (pos > 0 && pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) --pos;
  return pos;
}

}  // namespace

ExtensionLink::ExtensionLink(uv_loop_t* loop, std::unique_ptr<Transport> transport, Callbacks callbacks,
                             std::uint64_t default_deadline_ms)
    : peer_(loop, std::move(transport),
            {.name = "the browser extension",
             .cancel_message =
                 [](std::int64_t id, std::string_view) {
                   return rpc::MakeNotification(ext_method::kCancel, {{"id", id}});
                 },
             .split =
                 [this](const std::string& text) {
                   return SplitForExtension(text, text.size() > kMaxFrameToExtension ? next_chunk_id_++ : 0);
                 }}),
      callbacks_(std::move(callbacks)),
      default_deadline_ms_(default_deadline_ms) {}

void ExtensionLink::Start() {
  peer_.ServeRequests(callbacks_.on_request);
  peer_.Start({.on_notification = callbacks_.on_event, .on_close = callbacks_.on_close});
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

std::int64_t ExtensionLink::Call(std::string_view method, Json params, PendingCalls::Reply reply,
                                 std::uint64_t deadline_ms) {
  if (deadline_ms == 0) deadline_ms = default_deadline_ms_;
  // The extension answers within it (less kExtensionAnswerMarginMs) and stops acting after.
  if (params.is_object()) params["deadlineMs"] = deadline_ms;
  return peer_.Request(method, std::move(params), deadline_ms,
                       [name = std::string(method), reply = std::move(reply)](std::expected<Json, rpc::Error> outcome) {
                         if (!outcome && outcome.error().code == rpc_error::kTimeout) {
                           outcome.error().message =
                               "the browser did not answer " + name + " (" + outcome.error().message + ")";
                         } else if (!outcome && outcome.error().code == rpc_error::kPeerGone) {
                           outcome.error().message = std::string(tools::kBrowserConnectionLost);
                         }
                         reply(std::move(outcome));
                       });
}

}  // namespace tb
