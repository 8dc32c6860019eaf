// The native-messaging framer (extension → host): any bytes, in any split,
// either yield frames within the limit or stop with an error, and a frame
// encoded by us always reads back whole.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "common/framing.h"
#include "common/protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks where the bytes are cut, as reads from a pipe would.
  const std::size_t step = 1 + data[0] % 64;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  tb::NativeFramer framer(tb::kMaxFrameFromExtension);
  std::vector<std::string> frames;
  for (std::size_t at = 0; at < bytes.size(); at += step) {
    if (!framer.Feed(bytes.substr(at, step), frames)) {
      if (framer.error().empty()) std::abort();  // a failure always says why
      break;
    }
  }
  for (const auto& frame : frames) {
    if (frame.empty() || frame.size() > tb::kMaxFrameFromExtension) std::abort();
  }
  tb::NativeFramer round_trip(tb::kMaxFrameFromExtension);
  std::vector<std::string> back;
  if (!bytes.empty() && bytes.size() <= tb::kMaxFrameFromExtension) {
    if (!round_trip.Feed(tb::NativeFramer::Encode(bytes), back) || back.size() != 1 || back[0] != bytes) std::abort();
  }
  return 0;
}
