// The shim's connection to one host: the hello handshake, then an RpcPeer
// (our own request ids, a deadline on each, all failed when the host goes).
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>

#include <uv.h>

#include "common/rpc_peer.h"
#include "common/windows_sid.h"

namespace tb {

class HostLink {
 public:
  struct ConnectError {
    std::string message;
    bool refused = false;  // the listener is not ours (another uid): nothing was sent
  };
  using Connected = std::function<void(std::expected<std::unique_ptr<HostLink>, ConnectError>)>;

  // Connects to the socket at `path`, checks that the process listening there
  // runs as our uid, and only then says hello with `hello_params` ({client,
  // caps}): a host of another user never sees a byte. `done` runs once, never
  // before Connect returns. On Windows `path` names a pipe and the check is
  // the serving process's user SID (`server_sid`, windows::PipeServerSid
  // unless a test injects another user's; ignored elsewhere).
  static void Connect(uv_loop_t* loop, const std::string& path, const Json& hello_params, Connected done,
                      windows::PipeSidLookup server_sid = {});

  HostLink(uv_loop_t* loop, std::unique_ptr<Transport> transport, std::string path);

  // Replaces what the link reports: notifications from the host and its loss.
  void SetCallbacks(RpcPeer::Callbacks callbacks) { callbacks_ = std::move(callbacks); }
  const Json& hello() const { return hello_; }
  const std::string& path() const { return path_; }

  std::int64_t Request(std::string_view method, Json params, std::uint64_t deadline_ms, PendingCalls::Reply reply,
                       PendingCalls::RawReply raw = {}) {
    return peer_.Request(method, std::move(params), deadline_ms, std::move(reply), std::move(raw));
  }
  // Tells the host to stop working on `id` and forgets it: no reply will run.
  void Cancel(std::int64_t id) { peer_.Cancel(id, "cancelled by the client"); }
  void Close() { peer_.Close(); }

 private:
  // Says hello on a pipe whose peer has been checked; `done` runs once.
  static void SayHello(uv_loop_t* loop, uv_pipe_t* pipe, const std::string& path, Json hello, Connected done);

  RpcPeer peer_;
  RpcPeer::Callbacks callbacks_;  // forwarded to, so they can change after Start
  Json hello_;
  std::string path_;
};

}  // namespace tb
