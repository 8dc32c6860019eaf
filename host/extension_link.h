// The host's side of native messaging: an RpcPeer whose requests carry the
// link's deadline and whose frames are split under Chrome's 1 MiB limit.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <uv.h>

#include "common/rpc_peer.h"

namespace tb {

class ExtensionLink {
 public:
  struct Callbacks {
    std::function<void(const std::string& event, const Json& params)> on_event;
    // The popup's requests (ext_request): answered at once.
    std::function<std::expected<Json, rpc::Error>(const std::string& method, const Json& params)> on_request;
    std::function<void(std::string_view reason)> on_close;
  };

  ExtensionLink(uv_loop_t* loop, std::unique_ptr<Transport> transport, Callbacks callbacks,
                std::uint64_t default_deadline_ms);

  void Start();
  // Sends a request; `reply` runs exactly once (answer, error, timeout, or loss
  // of the extension). Returns the call id for Cancel(), 0 if answered at once.
  // A zero deadline means the link's default.
  std::int64_t Call(std::string_view method, Json params, PendingCalls::Reply reply, std::uint64_t deadline_ms = 0);
  // Gives up on a call without answering it (the caller was cancelled).
  void Cancel(std::int64_t id) { peer_.Cancel(id, "cancelled"); }
  // A notification (no answer); small ones only: it is never chunked.
  void Notify(std::string_view method, Json params) { peer_.Notify(method, std::move(params)); }
  void Close() { peer_.Close(); }

  // Splits one JSON text into the frames to send (a single frame when it fits).
  static std::vector<std::string> SplitForExtension(const std::string& text, std::int64_t chunk_id);

 private:
  RpcPeer peer_;
  Callbacks callbacks_;
  std::uint64_t default_deadline_ms_;
  std::int64_t next_chunk_id_ = 1;
};

}  // namespace tb
