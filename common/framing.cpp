#include "common/framing.h"

#include <cstdint>
#include <cstring>

namespace tb {

bool NativeFramer::Feed(std::string_view bytes, std::vector<std::string>& out) {
  if (!error_.empty()) return false;
  buffer_.append(bytes);
  std::size_t pos = 0;
  while (buffer_.size() - pos >= sizeof(std::uint32_t)) {
    std::uint32_t length = 0;
    std::memcpy(&length, buffer_.data() + pos, sizeof(length));
    if (length == 0) {
      error_ = "zero-length frame";
      return false;
    }
    if (length > max_frame_) {
      error_ = "frame of " + std::to_string(length) + " bytes exceeds the limit of " + std::to_string(max_frame_);
      return false;
    }
    if (buffer_.size() - pos - sizeof(length) < length) break;
    out.emplace_back(buffer_, pos + sizeof(length), length);
    pos += sizeof(length) + length;
  }
  buffer_.erase(0, pos);
  return true;
}

std::string NativeFramer::Encode(std::string_view payload) {
  const auto length = static_cast<std::uint32_t>(payload.size());
  std::string frame(sizeof(length) + payload.size(), '\0');
  std::memcpy(frame.data(), &length, sizeof(length));
  std::memcpy(frame.data() + sizeof(length), payload.data(), payload.size());
  return frame;
}

bool LineFramer::Feed(std::string_view bytes, std::vector<std::string>& out) {
  if (!error_.empty()) return false;
  buffer_.append(bytes);
  std::size_t start = 0;
  for (;;) {
    const std::size_t nl = buffer_.find('\n', start + scanned_);
    if (nl == std::string::npos) break;
    // However the bytes were split into reads, a line over the limit is refused.
    if (nl - start > max_line_) {
      error_ = "line exceeds the limit of " + std::to_string(max_line_) + " bytes";
      return false;
    }
    std::size_t end = nl;
    if (end > start && buffer_[end - 1] == '\r') --end;
    if (end > start) out.emplace_back(buffer_, start, end - start);
    start = nl + 1;
    scanned_ = 0;
  }
  buffer_.erase(0, start);
  scanned_ = buffer_.size();
  if (buffer_.size() > max_line_) {
    error_ = "line exceeds the limit of " + std::to_string(max_line_) + " bytes";
    return false;
  }
  return true;
}

std::string LineFramer::Encode(std::string_view payload) {
  std::string line;
  line.reserve(payload.size() + 1);
  line.append(payload);
  line.push_back('\n');
  return line;
}

}  // namespace tb
