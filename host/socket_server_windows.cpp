// SocketServer on Windows: a named pipe, <prefix>-browser-<slot> (SocketPath
// of the user's private pipe prefix SocketDir gives; docs/windows.md).
//
// * The slot: libuv creates a pipe's first instance with
//   FILE_FLAG_FIRST_PIPE_INSTANCE, so a name that exists (a live host of ours,
//   or a squatter's pipe) fails with UV_EADDRINUSE and we take the next slot
//   (ChooseSlot). A pipe listed in \\.\pipe\ counts as taken before we even
//   try, which is also what keeps two hosts apart under Wine (Wine 8 lets a
//   second FIRST_PIPE_INSTANCE through).
// * The DACL: libuv passes no security attributes, so the first instance gets
//   the default descriptor (for pipes it also lets Everyone read). Before
//   uv_listen — before libuv creates the other instances and waits for
//   clients — the pipe gets a protected DACL granting our SID alone
//   (windows::ProtectPipe; libuv's instances are created with WRITE_DAC),
//   after an entry that denies network logons (the account on another
//   machine; libuv's pipe.c is patched for PIPE_REJECT_REMOTE_CLIENTS too).
//   Windows keeps one security descriptor per pipe name, set with its first
//   instance: the instances libuv creates later (pipe_alloc_accept, NULL
//   attributes) are instances of the same pipe and are opened against it.
//   In the instant between CreateNamedPipeW and SetSecurityInfo a client of
//   another user could connect; it is refused below like any other.
// * Each client: before a byte is read or written, the SID of the process at
//   the other end (GetNamedPipeClientProcessId, its token) must be ours.
#include <spdlog/spdlog.h>
#include <boost/interprocess/sync/file_lock.hpp>  // completes lock_'s type (POSIX slots only)

#include "common/peer_cred.h"
#include "common/socket_dir.h"
#include "common/uv_util.h"
#include "common/windows_pipe.h"
#include "host/socket_server.h"

namespace tb {

SocketServer::SocketServer(uv_loop_t* loop, long allowed_uid)
    : loop_(loop),
      allowed_uid_(allowed_uid),
      client_sid_(windows::PipeClientSid),
      server_sid_(windows::PipeServerSid) {}

SocketServer::~SocketServer() { Close(); }

std::expected<void, std::string> SocketServer::Listen(const std::string& dir, OnConnection on_connection) {
  const auto sid = windows::CurrentUserSid();
  if (!sid) return std::unexpected("cannot tell who we are: " + sid.error());
  user_sid_ = *sid;
  on_connection_ = std::move(on_connection);

  std::string protect_error;
  bool squatted = false;
  const auto slot = ChooseSlot(
      [&](int candidate) {
        const std::string name = SocketPath(dir, candidate);
        if (windows::PipeExists(name)) return static_cast<int>(UV_EADDRINUSE);
        auto* listener = NewHandle<uv_pipe_t>();
        uv_pipe_init(loop_, listener, 0);
        listener->data = this;
        int rc = uv_pipe_bind(listener, name.c_str());
        uv_os_fd_t handle{};
        if (rc == 0) rc = uv_fileno(reinterpret_cast<uv_handle_t*>(listener), &handle);
        if (rc == 0) {
          if (auto ok = windows::ProtectPipe(handle, user_sid_); !ok) {
            protect_error = "cannot protect " + name + ": " + ok.error();
            rc = UV_EPERM;
          }
        }
        if (rc != 0) {
          CloseHandle(reinterpret_cast<uv_handle_t*>(listener));  // a fresh handle for the next slot
          return rc;
        }
        listener_ = listener;
        return 0;
      },
      dir,
      [&](int taken) -> std::optional<std::string> {
        // Opened as a client that checks its server before sending anything: our own
        // host's pipe opens (and is closed at once); another user's is refused, by name.
        auto opened = windows::OpenOwnPipe(SocketPath(dir, taken), 1, user_sid_, server_sid_, false);
        if (opened) {
          ::CloseHandle(*opened);
          return std::nullopt;
        }
        if (!opened.error().refused) return std::nullopt;
        squatted = true;
        return opened.error().message;
      });
  if (!slot && squatted && !renewed_) {
    // The names were public while a host of ours listened (anyone can list
    // \\.\pipe\): a fresh private prefix, which shims read when they probe.
    if (auto renewed = windows::RenewSocketDir(dir); renewed) {
      renewed_ = true;  // once: a fresh random prefix cannot have been taken already
      spdlog::warn("{}; listening under a new private pipe prefix", slot.error());
      return Listen(*renewed, std::move(on_connection_));
    }
  }
  if (!slot) return std::unexpected(protect_error.empty() ? slot.error() : protect_error);
  slot_ = *slot;
  path_ = SocketPath(dir, slot_);

  const int rc = uv_listen(reinterpret_cast<uv_stream_t*>(listener_), 64, [](uv_stream_t* server, int status) {
    auto* self = static_cast<SocketServer*>(server->data);
    if (self != nullptr && status == 0) self->OnAccept();
  });
  if (rc != 0) {
    const std::string error = "cannot listen on " + path_ + ": " + uv_strerror(rc);
    Close();
    return std::unexpected(error);
  }
  return {};
}

void SocketServer::OnAccept() {
  auto* connection = NewHandle<uv_pipe_t>();
  uv_pipe_init(loop_, connection, 0);
  if (uv_accept(reinterpret_cast<uv_stream_t*>(listener_), reinterpret_cast<uv_stream_t*>(connection)) != 0) {
    CloseHandle(reinterpret_cast<uv_handle_t*>(connection));
    return;
  }
  uv_os_fd_t handle{};
  const auto sid = uv_fileno(reinterpret_cast<uv_handle_t*>(connection), &handle) == 0
                       ? client_sid_(handle)
                       : windows::SidOrError(std::unexpected("no pipe handle"));
  if (!PipePeerAllowed(sid, user_sid_)) {
    spdlog::warn("refused a connection from {} (only {} may connect)",
                 sid ? "user " + *sid : "an unknown user (" + sid.error() + ")", user_sid_);
    CloseHandle(reinterpret_cast<uv_handle_t*>(connection));
    return;
  }
  on_connection_(connection);
}

void SocketServer::Close() {
  if (listener_ != nullptr) {
    CloseHandle(reinterpret_cast<uv_handle_t*>(listener_));  // the pipe goes with its last instance
    listener_ = nullptr;
  }
}

}  // namespace tb
