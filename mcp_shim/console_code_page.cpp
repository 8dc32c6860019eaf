#include "mcp_shim/console.h"

namespace tb::console {

std::optional<unsigned> OutputCodePageToSet(bool stdout_is_console, bool /*stderr_is_console*/,
                                            unsigned current_code_page) {
  // Only for a command a person reads on stdout (doctor, wsl, policy). Not
  // for the MCP server, whose stdout is a pipe though its stderr often shares
  // the client's console: that console is the client's, a process killed
  // with TerminateProcess never restores it, and two shims on it would
  // restore each other's.
  if (!stdout_is_console) return std::nullopt;
  if (current_code_page == kUtf8CodePage) return std::nullopt;
  return kUtf8CodePage;
}

}  // namespace tb::console
