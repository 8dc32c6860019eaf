#include "host/socket_server.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <boost/interprocess/sync/file_lock.hpp>

#include "common/peer_cred.h"
#include "common/socket_dir.h"
#include "common/uv_util.h"

namespace tb {
namespace ipc = boost::interprocess;

SocketServer::SocketServer(uv_loop_t* loop, long allowed_uid) : loop_(loop), allowed_uid_(allowed_uid) {}

SocketServer::~SocketServer() { Close(); }

std::expected<void, std::string> SocketServer::Listen(const std::string& dir, OnConnection on_connection) {
  if (auto ok = EnsurePrivateDir(dir); !ok) return ok;
  on_connection_ = std::move(on_connection);

  for (int slot = 0; slot < kMaxSlots; ++slot) {
    const std::string lock_path = LockPath(dir, slot);
    const int fd = ::open(lock_path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) return std::unexpected("cannot create " + lock_path);
    ::close(fd);
    try {
      auto lock = std::make_unique<ipc::file_lock>(lock_path.c_str());
      if (!lock->try_lock()) continue;  // a live host holds this slot
      lock_ = std::move(lock);
    } catch (const ipc::interprocess_exception& e) {
      return std::unexpected("cannot lock " + lock_path + ": " + e.what());
    }
    slot_ = slot;
    path_ = SocketPath(dir, slot);
    break;
  }
  if (slot_ < 0) return std::unexpected("no free socket slot in " + dir);

  // We hold the slot's lock, so a socket file here is a crashed host's.
  if (::unlink(path_.c_str()) == 0) spdlog::info("replaced stale socket {}", path_);
  // The socket gets its name only once it listens: a shim that sees the name
  // appear (its DirWatch) connects at once, where a socket bound but not yet
  // listening would refuse it until its next try, 100 ms later.
  // (No longer than the final name: a path that fits sun_path still fits.)
  std::string binding = path_;
  binding.replace(binding.size() - std::string_view(".sock").size(), std::string_view::npos, ".new");
  ::unlink(binding.c_str());

  listener_ = NewHandle<uv_pipe_t>();
  uv_pipe_init(loop_, listener_, 0);
  listener_->data = this;
  // Bind with a umask that leaves the socket 0600 from the first instant.
  const mode_t old_mask = ::umask(0177);
  int rc = uv_pipe_bind(listener_, binding.c_str());
  ::umask(old_mask);
  if (rc == 0) rc = ::chmod(binding.c_str(), 0600) == 0 ? 0 : -errno;
  if (rc == 0) {
    rc = uv_listen(reinterpret_cast<uv_stream_t*>(listener_), 64, [](uv_stream_t* server, int status) {
      auto* self = static_cast<SocketServer*>(server->data);
      if (self != nullptr && status == 0) self->OnAccept();
    });
  }
  if (rc == 0) rc = ::rename(binding.c_str(), path_.c_str()) == 0 ? 0 : -errno;
  if (rc != 0) {
    const std::string error = "cannot listen on " + path_ + ": " + uv_strerror(rc);
    ::unlink(binding.c_str());
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
  uv_os_fd_t fd = -1;
  uv_fileno(reinterpret_cast<uv_handle_t*>(connection), &fd);
  const long uid = tb::PeerUid(fd);
  if (!PeerAllowed(uid, allowed_uid_)) {
    spdlog::warn("refused a connection from uid {} (only uid {} may connect)", uid, allowed_uid_);
    CloseHandle(reinterpret_cast<uv_handle_t*>(connection));
    return;
  }
  on_connection_(connection);
}

void SocketServer::Close() {
  if (listener_ != nullptr) {
    CloseHandle(reinterpret_cast<uv_handle_t*>(listener_));
    listener_ = nullptr;
    ::unlink(path_.c_str());
  }
  lock_.reset();  // the lock file stays: removing it could race a starting host
}

}  // namespace tb
