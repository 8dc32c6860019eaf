#include "common/transport.h"

#include <cstdlib>
#include <exception>

#include <spdlog/spdlog.h>

#include "common/uv_util.h"

namespace tb {
namespace {

struct WriteRequest {
  uv_write_t req;
  std::string bytes;
  std::weak_ptr<bool> alive;
  std::size_t* queued;
};

// Read chunk size: large enough that a screenshot arrives in few reads.
constexpr std::size_t kReadChunk = 256 * 1024;

uv_stream_t* OpenStdioStream(uv_loop_t* loop, int fd, bool readable, std::string* error) {
  switch (uv_guess_handle(fd)) {
    case UV_NAMED_PIPE: {
      auto* pipe = NewHandle<uv_pipe_t>();
      uv_pipe_init(loop, pipe, 0);
      if (int rc = uv_pipe_open(pipe, fd); rc != 0) {
        *error = std::string("cannot open fd ") + std::to_string(fd) + ": " + uv_strerror(rc);
        CloseHandle(reinterpret_cast<uv_handle_t*>(pipe));
        return nullptr;
      }
      return reinterpret_cast<uv_stream_t*>(pipe);
    }
    case UV_TTY: {
      auto* tty = NewHandle<uv_tty_t>();
      uv_tty_init(loop, tty, fd, readable ? 1 : 0);
      return reinterpret_cast<uv_stream_t*>(tty);
    }
    default:
      *error = "fd " + std::to_string(fd) + " must be a pipe or a terminal";
      return nullptr;
  }
}

}  // namespace

Transport::Transport(uv_stream_t* in, uv_stream_t* out, Framing framing, std::size_t max_in)
    : in_(in),
      out_(out),
      framing_(framing),
      native_(max_in),
      line_(max_in),
      read_buffer_(kReadChunk),
      alive_(std::make_shared<bool>(true)) {
  in_->data = this;
}

Transport::~Transport() { Close(); }

std::unique_ptr<Transport> Transport::ForStdio(uv_loop_t* loop, Framing framing, std::size_t max_in,
                                               std::string* error) {
  uv_stream_t* in = OpenStdioStream(loop, 0, true, error);
  if (in == nullptr) return nullptr;
  uv_stream_t* out = OpenStdioStream(loop, 1, false, error);
  if (out == nullptr) {
    CloseHandle(reinterpret_cast<uv_handle_t*>(in));
    return nullptr;
  }
  return std::make_unique<Transport>(in, out, framing, max_in);
}

void Transport::Start(Callbacks callbacks) {
  callbacks_ = std::move(callbacks);
  uv_read_start(
      in_,
      [](uv_handle_t* h, std::size_t, uv_buf_t* buf) {
        auto* self = static_cast<Transport*>(h->data);
        *buf = uv_buf_init(self->read_buffer_.data(), static_cast<unsigned>(self->read_buffer_.size()));
      },
      [](uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
        if (auto* self = static_cast<Transport*>(s->data)) self->OnRead(nread, buf);
      });
}

void Transport::OnRead(ssize_t nread, const uv_buf_t* buf) {
  if (nread == UV_EOF) return Fail("peer closed the connection");
  if (nread < 0) return Fail(uv_strerror(static_cast<int>(nread)));
  if (nread == 0) return;
  std::vector<std::string> messages;
  const std::string_view bytes(buf->base, static_cast<std::size_t>(nread));
  const bool ok = framing_ == Framing::kNative ? native_.Feed(bytes, messages) : line_.Feed(bytes, messages);
  // Deliver what arrived intact before acting on a framing error.
  std::weak_ptr<bool> alive = alive_;
  for (auto& message : messages) {
    if (alive.expired() || closed_) return;
    if (!callbacks_.on_message) continue;
    // Handlers read every field through common/json_field.h and the fuzzers
    // hold them to it; should one still throw, only this peer pays for it:
    // an exception must never unwind through libuv.
    try {
      callbacks_.on_message(std::move(message));
    } catch (const std::exception& e) {
      spdlog::error("internal error handling a message: {}", e.what());
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
      std::abort();  // the fuzzers must see what this guard hides
#endif
      if (!alive.expired()) Fail("internal error handling a message");
      return;
    }
  }
  if (alive.expired() || closed_) return;
  if (!ok) Fail(framing_ == Framing::kNative ? native_.error() : line_.error());
}

std::string Transport::Encode(std::string_view payload) const {
  return framing_ == Framing::kNative ? NativeFramer::Encode(payload) : LineFramer::Encode(payload);
}

bool Transport::Send(std::string_view payload) {
  if (closed_) return false;
  auto* write = new WriteRequest{{}, Encode(payload), alive_, &queued_bytes_};
  queued_bytes_ += write->bytes.size();
  if (queued_bytes_ > kMaxQueuedBytes) {
    delete write;
    Fail("peer is not reading (write queue over limit)");
    return false;
  }
  uv_buf_t buf = uv_buf_init(write->bytes.data(), static_cast<unsigned>(write->bytes.size()));
  write->req.data = write;
  const int rc = uv_write(&write->req, out_, &buf, 1, [](uv_write_t* req, int status) {
    auto* w = static_cast<WriteRequest*>(req->data);
    if (!w->alive.expired()) {
      *w->queued -= w->bytes.size();
      if (status < 0 && status != UV_ECANCELED) {
        spdlog::debug("write failed: {}", uv_strerror(status));
      }
    }
    delete w;
  });
  if (rc != 0) {
    queued_bytes_ -= write->bytes.size();
    delete write;
    Fail(std::string("write failed: ") + uv_strerror(rc));
    return false;
  }
  return true;
}

void Transport::Fail(std::string_view reason) {
  if (closed_) return;
  auto on_close = std::move(callbacks_.on_close);
  Close();
  if (on_close) on_close(reason);  // may destroy this object: nothing after it
}

void Transport::Close() {
  if (closed_) return;
  closed_ = true;  // callbacks stay alive: one of them may be running now
  alive_.reset();
  CloseHandle(reinterpret_cast<uv_handle_t*>(in_));
  if (out_ != in_) CloseHandle(reinterpret_cast<uv_handle_t*>(out_));
}

}  // namespace tb
