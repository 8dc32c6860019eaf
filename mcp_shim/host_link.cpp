#include "mcp_shim/host_link.h"

#include <spdlog/spdlog.h>

#include "common/protocol.h"
#include "common/uv_util.h"

namespace tb {
namespace {

// A live host answers hello at once; a wedged one must not stall connect_browser.
constexpr std::uint64_t kHelloDeadlineMs = 2'000;

struct ConnectRequest {
  uv_connect_t req;
  uv_pipe_t* pipe;
  std::string path;
  Json hello_params;
  HostLink::Connected done;
};

}  // namespace

void HostLink::Connect(uv_loop_t* loop, const std::string& path, const Json& hello_params, Connected done) {
  auto* pipe = NewHandle<uv_pipe_t>();
  uv_pipe_init(loop, pipe, 0);
  auto* connect = new ConnectRequest{{}, pipe, path, hello_params, std::move(done)};
  connect->req.data = connect;
  uv_pipe_connect(&connect->req, pipe, path.c_str(), [](uv_connect_t* req, int status) {
    std::unique_ptr<ConnectRequest> request(static_cast<ConnectRequest*>(req->data));
    if (status != 0) {
      CloseHandle(reinterpret_cast<uv_handle_t*>(request->pipe));
      return request->done(std::unexpected(request->path + ": " + uv_strerror(status)));
    }
    auto* stream = reinterpret_cast<uv_stream_t*>(request->pipe);
    auto link = std::make_unique<HostLink>(req->handle->loop,
                                           std::make_unique<Transport>(stream, stream, Framing::kLine, kMaxLineBytes));
    link->path_ = request->path;
    HostLink* raw = link.release();  // owned by the hello callback until it hands it on
    Json hello = request->hello_params;
    hello["protocol"] = kShimProtocol;
    raw->Request(shim_method::kHello, std::move(hello),
                 kHelloDeadlineMs,
                 [raw, loop = req->handle->loop, path = request->path,
                  done = std::move(request->done)](std::expected<Json, rpc::Error> outcome) {
                   std::unique_ptr<HostLink> owned(raw);
                   if (!outcome) {
                     DeleteSoon(loop, std::move(owned));  // we may be inside its own FailAll
                     return done(std::unexpected(path + ": " + outcome.error().message));
                   }
                   owned->hello_ = std::move(*outcome);
                   done(std::move(owned));
                 });
  });
}

HostLink::HostLink(uv_loop_t* loop, std::unique_ptr<Transport> transport)
    : transport_(std::move(transport)), pending_(loop) {
  transport_->Start({.on_message = [this](std::string text) { OnMessage(std::move(text)); },
                     .on_close = [this](std::string_view reason) { Lost(reason); }});
}

HostLink::~HostLink() {
  callbacks_ = {};
  Close();
}

std::int64_t HostLink::Request(std::string_view method, Json params, std::uint64_t deadline_ms,
                               PendingCalls::Reply reply) {
  if (closed_) {
    reply(std::unexpected(rpc::Error{rpc_error::kPeerGone, "the browser connection is closed", nullptr}));
    return 0;
  }
  const auto id = pending_.Add(deadline_ms, std::move(reply), [this](std::int64_t timed_out) {
    transport_->Send(rpc::Dump(rpc::MakeNotification(mcp::kCancelled, {{"requestId", timed_out}, {"reason", "timeout"}})));
  });
  transport_->Send(rpc::Dump(rpc::MakeRequest(id, method, std::move(params))));
  return id;
}

void HostLink::Cancel(std::int64_t id) {
  if (pending_.Fail(id, nullptr) && !closed_) {
    transport_->Send(rpc::Dump(rpc::MakeNotification(mcp::kCancelled, {{"requestId", id}, {"reason", "cancelled by the client"}})));
  }
}

void HostLink::OnMessage(std::string text) {
  auto parsed = rpc::Parse(text);
  if (!parsed) {
    spdlog::error("malformed message from the host: {}", parsed.error().error.message);
    return Lost("the host sent a malformed message");
  }
  if (parsed->kind == rpc::Kind::kResponse) {
    pending_.Resolve(*parsed);
  } else if (parsed->kind == rpc::Kind::kNotification) {
    if (callbacks_.on_notification) callbacks_.on_notification(parsed->method, parsed->params);
  }
}

void HostLink::Lost(std::string_view reason) {
  if (closed_) return;
  auto on_close = callbacks_.on_close;
  Close();
  if (on_close) on_close(reason);
}

void HostLink::Close() {
  if (closed_) return;
  closed_ = true;
  transport_->Close();
  pending_.FailAll({rpc_error::kPeerGone, "the browser connection was lost", nullptr});
}

}  // namespace tb
