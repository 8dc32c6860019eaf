// The host's only door: a Unix socket in a user-only directory, one slot per
// live host (docs/protocol.md §2). Accepts only peers of our own uid.
#pragma once

#include <expected>
#include <functional>
#include <memory>
#include <string>

#include <uv.h>

namespace boost::interprocess {
class file_lock;
}

namespace tb {

class SocketServer {
 public:
  // Called with each accepted, uid-checked connection; the callee owns it.
  using OnConnection = std::function<void(uv_pipe_t* connection)>;

  // Peers whose uid is not `allowed_uid` (normally ours) are closed on accept.
  SocketServer(uv_loop_t* loop, long allowed_uid);
  ~SocketServer();  // removes the socket file and releases the slot

  // Takes the first free slot in `dir` (replacing a stale socket) and listens.
  std::expected<void, std::string> Listen(const std::string& dir, OnConnection on_connection);
  void Close();

  const std::string& path() const { return path_; }
  int slot() const { return slot_; }

 private:
  void OnAccept();

  uv_loop_t* loop_;
  long allowed_uid_;
  uv_pipe_t* listener_ = nullptr;
  std::unique_ptr<boost::interprocess::file_lock> lock_;
  OnConnection on_connection_;
  std::string path_;
  int slot_ = -1;
};

}  // namespace tb
