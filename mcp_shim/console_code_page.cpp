#include "mcp_shim/console.h"

namespace tb::console {

std::optional<unsigned> OutputCodePageToSet(bool stdout_is_console, bool stderr_is_console,
                                            unsigned current_code_page) {
  if (!stdout_is_console && !stderr_is_console) return std::nullopt;  // pipes and files: bytes as written
  if (current_code_page == kUtf8CodePage) return std::nullopt;
  return kUtf8CodePage;
}

}  // namespace tb::console
