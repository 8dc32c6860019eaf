// Byte-stream framing: turns chunks read from a pipe or socket into whole
// messages, and whole messages into bytes to write. No I/O happens here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tb {

// Native messaging: uint32 length in native byte order, then that many bytes.
class NativeFramer {
 public:
  explicit NativeFramer(std::size_t max_frame) : max_frame_(max_frame) {}

  // Appends bytes and moves complete frames into `out`. Returns false, and
  // sets error(), when the peer broke the protocol (zero or oversized length);
  // the stream is unusable after that.
  bool Feed(std::string_view bytes, std::vector<std::string>& out);
  const std::string& error() const { return error_; }

  static std::string Encode(std::string_view payload);

 private:
  std::size_t max_frame_;
  std::string buffer_;
  std::string error_;
};

// One message per '\n'-terminated line (MCP stdio, the shim socket). Blank
// lines are skipped and a trailing '\r' is dropped, as lenient peers send them.
class LineFramer {
 public:
  explicit LineFramer(std::size_t max_line) : max_line_(max_line) {}

  bool Feed(std::string_view bytes, std::vector<std::string>& out);
  const std::string& error() const { return error_; }

  static std::string Encode(std::string_view payload);

 private:
  std::size_t max_line_;
  std::string buffer_;
  std::size_t scanned_ = 0;  // bytes of buffer_ already known to hold no '\n'
  std::string error_;
};

}  // namespace tb
