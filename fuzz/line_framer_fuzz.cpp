// The line framer (MCP stdio, the host socket): any bytes, in any split, give
// the same lines as in one piece, each within the limit, or an error.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "common/framing.h"

namespace {
// Small, so the fuzzer reaches the over-long-line path.
constexpr std::size_t kMaxLine = 256;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t step = 1 + data[0] % 32;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  tb::LineFramer whole(kMaxLine);
  std::vector<std::string> at_once;
  const bool whole_ok = whole.Feed(bytes, at_once);
  tb::LineFramer pieces(kMaxLine);
  std::vector<std::string> piecewise;
  bool pieces_ok = true;
  for (std::size_t at = 0; at < bytes.size() && pieces_ok; at += step)
    pieces_ok = pieces.Feed(bytes.substr(at, step), piecewise);
  if (whole_ok != pieces_ok) std::abort();
  if (whole_ok && at_once != piecewise) std::abort();
  for (const auto& line : at_once) {
    if (line.size() > kMaxLine || line.find('\n') != std::string::npos) std::abort();
  }
  return 0;
}
