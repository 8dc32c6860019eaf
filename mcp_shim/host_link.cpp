#include "mcp_shim/host_link.h"

#ifdef _WIN32
#include <io.h>

#include "common/windows_pipe.h"
#else
#include <unistd.h>

#include "common/peer_cred.h"
#endif

#include "common/json_field.h"
#include "common/protocol.h"
#include "common/uv_util.h"

namespace tb {
namespace {

// A live host answers hello at once; a wedged one must not stall connect_browser.
constexpr std::uint64_t kHelloDeadlineMs = 2'000;
// Windows: how long to wait for a free instance of a host's pipe (WaitNamedPipeW).
[[maybe_unused]] constexpr unsigned kBusyPipeWaitMs = 1'000;

struct ConnectRequest {
  uv_connect_t req;
  uv_pipe_t* pipe;
  std::string path;
  Json hello_params;
  HostLink::Connected done;
};

}  // namespace

void HostLink::SayHello(uv_loop_t* loop, uv_pipe_t* pipe, const std::string& path, Json hello, Connected done) {
  auto* stream = reinterpret_cast<uv_stream_t*>(pipe);
  HostLink* raw = new HostLink(loop, std::make_unique<Transport>(stream, stream, Framing::kLine, kMaxLineBytes),
                               path);  // owned by the hello callback until it hands it on
  hello[hello_param::kProtocol] = kShimProtocol;
  raw->Request(shim_method::kHello, std::move(hello), kHelloDeadlineMs,
               [raw, loop, path, done = std::move(done)](std::expected<Json, rpc::Error> outcome) {
                 std::unique_ptr<HostLink> owned(raw);
                 if (!outcome) {
                   DeleteSoon(loop, std::move(owned));  // we may be inside its own FailAll
                   return done(std::unexpected(ConnectError{path + ": " + outcome.error().message}));
                 }
                 if (!outcome->is_object()) {
                   DeleteSoon(loop, std::move(owned));
                   return done(std::unexpected(ConnectError{path + ": the host's hello answer is not an object"}));
                 }
                 owned->hello_ = std::move(*outcome);
                 done(std::move(owned));
               });
}

#ifdef _WIN32
void HostLink::Connect(uv_loop_t* loop, const std::string& path, const Json& hello_params, Connected done,
                       windows::PipeSidLookup server_sid) {
  // Opened by hand, not by uv_pipe_connect: the server's SID is checked on
  // the handle before libuv (or anything) may write to it.
  auto fail = [loop, &done](ConnectError error) {
    RunSoon(loop, [done = std::move(done), error = std::move(error)] { done(std::unexpected(error)); });
  };
  const auto our_sid = windows::CurrentUserSid();
  if (!our_sid) return fail({path + ": cannot tell who we are: " + our_sid.error()});
  const auto fd = windows::OpenOwnPipeFd(path, kBusyPipeWaitMs, *our_sid,
                                         server_sid ? server_sid : windows::PipeSidLookup(windows::PipeServerSid));
  if (!fd) return fail({fd.error().message, fd.error().refused});
  auto* pipe = NewHandle<uv_pipe_t>();
  uv_pipe_init(loop, pipe, 0);
  if (const int rc = uv_pipe_open(pipe, *fd); rc != 0) {
    ::_close(*fd);
    CloseHandle(reinterpret_cast<uv_handle_t*>(pipe));
    return fail({path + ": " + uv_strerror(rc)});
  }
  SayHello(loop, pipe, path, hello_params, std::move(done));
}
#else
void HostLink::Connect(uv_loop_t* loop, const std::string& path, const Json& hello_params, Connected done,
                       windows::PipeSidLookup) {
  auto* pipe = NewHandle<uv_pipe_t>();
  uv_pipe_init(loop, pipe, 0);
  auto* connect = new ConnectRequest{{}, pipe, path, hello_params, std::move(done)};
  connect->req.data = connect;
  uv_pipe_connect(&connect->req, pipe, path.c_str(), [](uv_connect_t* req, int status) {
    std::unique_ptr<ConnectRequest> request(static_cast<ConnectRequest*>(req->data));
    if (status != 0) {
      CloseHandle(reinterpret_cast<uv_handle_t*>(request->pipe));
      return request->done(std::unexpected(ConnectError{request->path + ": " + uv_strerror(status)}));
    }
    // Before the hello: what we send (and every call after it) must reach
    // no other user's process, whatever the directory allowed.
    uv_os_fd_t fd = -1;
    const long uid = uv_fileno(reinterpret_cast<uv_handle_t*>(request->pipe), &fd) == 0 ? PeerUid(fd) : -1;
    if (!PeerAllowed(uid, static_cast<long>(::getuid()))) {
      CloseHandle(reinterpret_cast<uv_handle_t*>(request->pipe));
      const std::string who = uid < 0 ? "an unknown user" : "uid " + std::to_string(uid);
      return request->done(std::unexpected(ConnectError{request->path + ": the process listening there runs as " + who +
                                                            ", not as you (uid " + std::to_string(::getuid()) +
                                                            ") — not a tabbridge host of yours; nothing was sent to it",
                                                        true}));
    }
    SayHello(req->handle->loop, request->pipe, request->path, request->hello_params, std::move(request->done));
  });
}
#endif

HostLink::HostLink(uv_loop_t* loop, std::unique_ptr<Transport> transport, std::string path)
    : peer_(loop, std::move(transport),
            {.name = "the browser connection",
             .cancel_message =
                 [](std::int64_t id, std::string_view why) {
                   return rpc::MakeNotification(mcp::kCancelled, {{"requestId", id}, {"reason", why}});
                 },
             .split = {}}),
      path_(std::move(path)) {
  peer_.Start({.on_notification =
                   [this](const std::string& method, const Json& params) {
                     if (callbacks_.on_notification) callbacks_.on_notification(method, params);
                   },
               .on_close =
                   [this](std::string_view reason) {
                     if (auto on_close = callbacks_.on_close) on_close(reason);
                   }});
}

}  // namespace tb
