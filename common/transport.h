// Transport: bytes in and out of one peer (a pipe pair, a socket, stdio),
// framed into whole messages. It knows nothing of what the messages mean; a
// MessageHandler above it does. One idempotent Close() path, an explicit
// write queue with a bound, and no callback after Close().
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <uv.h>

#include "common/framing.h"

namespace tb {

enum class Framing { kNative, kLine };

class Transport {
 public:
  struct Callbacks {
    std::function<void(std::string message)> on_message;
    std::function<void(std::string_view reason)> on_close;  // once, never after Close()
  };

  // `in` and `out` are initialised streams (the same one for a socket); the
  // transport owns them and closes them.
  Transport(uv_stream_t* in, uv_stream_t* out, Framing framing, std::size_t max_in);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // Opens fd 0 and 1 as a transport (pipes or terminals).
  static std::unique_ptr<Transport> ForStdio(uv_loop_t* loop, Framing framing, std::size_t max_in, std::string* error);

  // Starts reading; callbacks run on the loop until Close() or the peer leaves.
  void Start(Callbacks callbacks);
  // Frames and queues one message. False once closed.
  bool Send(std::string_view payload);
  // Closes both streams and drops queued writes. Safe to call repeatedly and
  // from inside callbacks; on_close is not called for a local Close().
  void Close();
  bool closed() const { return closed_; }
  std::size_t queued_bytes() const { return queued_bytes_; }

 private:
  // A peer that stops reading must not make us buffer without limit.
  static constexpr std::size_t kMaxQueuedBytes = 256 * 1024 * 1024;

  void OnRead(ssize_t nread, const uv_buf_t* buf);
  void Fail(std::string_view reason);
  std::string Encode(std::string_view payload) const;

  uv_stream_t* in_;
  uv_stream_t* out_;
  Framing framing_;
  NativeFramer native_;
  LineFramer line_;
  Callbacks callbacks_;
  std::vector<char> read_buffer_;
  std::size_t queued_bytes_ = 0;
  bool closed_ = false;
  std::shared_ptr<bool> alive_;  // lets write callbacks see that we are gone
};

}  // namespace tb
