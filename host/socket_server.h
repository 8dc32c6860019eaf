// The host's only door: a Unix socket in a user-only directory, one slot per
// live host (docs/protocol.md §2). Accepts only peers of our own uid.
// Windows (socket_server_windows.cpp): a named pipe per slot with a DACL for
// our SID alone, accepting only clients whose process runs as our SID.
#pragma once

#include <expected>
#include <functional>
#include <memory>
#include <string>

#include <uv.h>

#include "common/windows_sid.h"

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
  // Windows: when another user holds every name of the user's private pipe
  // prefix, the prefix is renewed (windows::RenewSocketDir) and tried once more.
  std::expected<void, std::string> Listen(const std::string& dir, OnConnection on_connection);
  void Close();

  // Windows: how a client's user SID is read from its pipe instance
  // (windows::PipeClientSid unless a test injects another user's).
  void SetClientSidLookup(windows::PipeSidLookup lookup) { client_sid_ = std::move(lookup); }
  // Windows: how the SID serving a taken pipe name is read (is it a squatter?).
  void SetServerSidLookup(windows::PipeSidLookup lookup) { server_sid_ = std::move(lookup); }

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
  windows::PipeSidLookup client_sid_;  // Windows only, as are:
  windows::PipeSidLookup server_sid_;
  std::string user_sid_;  // ours, read by Listen
  bool renewed_ = false;  // the private prefix was renewed once
};

}  // namespace tb
