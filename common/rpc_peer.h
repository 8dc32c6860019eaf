// One JSON-RPC peer over a Transport: the requests we send (our own ids, a
// deadline on each, exactly one reply each, all failed at once when the peer
// goes away) and what the peer sends us. The host's link to the extension and
// the shim's link to the host are both one of these.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/pending_calls.h"
#include "common/transport.h"

namespace tb {

class RpcPeer {
 public:
  struct Options {
    std::string name;  // in errors: "the browser extension"
    // The notification that tells the peer we gave up on request `id`.
    std::function<Json(std::int64_t id, std::string_view why)> cancel_message;
    // Frames for one outgoing JSON text; one frame unless the link must split.
    std::function<std::vector<std::string>(const std::string& text)> split;
  };
  struct Callbacks {
    std::function<void(const std::string& method, const Json& params)> on_notification;
    std::function<void(std::string_view reason)> on_close;  // once; not after Close()
  };

  RpcPeer(uv_loop_t* loop, std::unique_ptr<Transport> transport, Options options);
  ~RpcPeer();
  RpcPeer(const RpcPeer&) = delete;
  RpcPeer& operator=(const RpcPeer&) = delete;

  void Start(Callbacks callbacks);
  // Requests from the peer, each answered at once with what `handler`
  // returns; without one every request gets -32601.
  using RequestHandler = std::function<std::expected<Json, rpc::Error>(const std::string& method, const Json& params)>;
  void ServeRequests(RequestHandler handler) { on_request_ = std::move(handler); }
  // `reply` runs exactly once: the answer, an error, a timeout after
  // `deadline_ms` (the peer is told), or the loss of the peer. Returns the id,
  // or 0 when the peer is already gone (and `reply` has run). With `raw`, a
  // success answer in the shape rpc::PeekResult knows goes there as text
  // (validated JSON, never parsed) instead of to `reply`.
  std::int64_t Request(std::string_view method, Json params, std::uint64_t deadline_ms, PendingCalls::Reply reply,
                       PendingCalls::RawReply raw = {});
  // Forgets request `id` without replying and tells the peer.
  void Cancel(std::int64_t id, std::string_view why);
  void Notify(std::string_view method, Json params);
  // Idempotent; fails every pending request.
  void Close();
  bool closed() const { return closed_; }

 private:
  void OnMessage(std::string text);
  bool RelayedRaw(std::string_view text);
  void Malformed(const rpc::ParseFailure& failure);
  void Lost(std::string_view reason);
  void SendText(const std::string& text);

  std::unique_ptr<Transport> transport_;
  PendingCalls pending_;
  Options options_;
  Callbacks callbacks_;
  RequestHandler on_request_;
  bool closed_ = false;
};

}  // namespace tb
