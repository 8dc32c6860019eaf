// The shim's connection to one host: the hello handshake, request ids
// renumbered into our own space, a deadline on every forwarded request, and
// every pending request failed when the host goes away.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/pending_calls.h"
#include "common/transport.h"

namespace tb {

class HostLink {
 public:
  struct Callbacks {
    std::function<void(const std::string& method, const Json& params)> on_notification;
    std::function<void(std::string_view reason)> on_close;
  };
  using Connected = std::function<void(std::expected<std::unique_ptr<HostLink>, std::string>)>;

  // Connects to the socket at `path` and says hello with `hello_params`
  // ({client, caps}); `done` runs once.
  static void Connect(uv_loop_t* loop, const std::string& path, const Json& hello_params, Connected done);

  HostLink(uv_loop_t* loop, std::unique_ptr<Transport> transport);
  ~HostLink();

  void SetCallbacks(Callbacks callbacks) { callbacks_ = std::move(callbacks); }
  const Json& hello() const { return hello_; }
  const std::string& path() const { return path_; }

  // Sends a request; `reply` runs exactly once. Returns the id on this link.
  std::int64_t Request(std::string_view method, Json params, std::uint64_t deadline_ms, PendingCalls::Reply reply);
  // Tells the host to stop working on `id` and forgets it: no reply will run.
  void Cancel(std::int64_t id);
  void Close();

 private:
  void OnMessage(std::string text);
  void Lost(std::string_view reason);

  std::unique_ptr<Transport> transport_;
  PendingCalls pending_;
  Callbacks callbacks_;
  Json hello_;
  std::string path_;
  bool closed_ = false;
};

}  // namespace tb
