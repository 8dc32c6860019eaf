// The pure parts of browser_process.h: the Windows command line and the
// DevTools pipe's switch, unit-tested on every platform.
#include <algorithm>

#include "mcp_shim/browser_process.h"

namespace tb {

std::string IoPipesSwitch(std::uintptr_t browser_reads, std::uintptr_t browser_writes) {
  return "--remote-debugging-io-pipes=" + std::to_string(browser_reads) + "," + std::to_string(browser_writes);
}

std::vector<std::string> WithIoPipes(std::vector<std::string> args, const std::string& io_pipes) {
  const auto pipe = std::ranges::find(args, "--remote-debugging-pipe");
  args.insert(pipe == args.end() ? args.end() : pipe + 1, io_pipes);
  return args;
}

std::string QuoteWindowsArg(std::string_view arg) {
  if (!arg.empty() && arg.find_first_of(" \t\n\v\"") == std::string_view::npos) return std::string(arg);
  std::string out = "\"";
  std::size_t backslashes = 0;
  for (const char c : arg) {
    if (c == '\\') {
      ++backslashes;
      continue;
    }
    // Backslashes are literal unless a quote follows: then each is doubled.
    out.append(c == '"' ? backslashes * 2 + 1 : backslashes, '\\');
    backslashes = 0;
    out += c;
  }
  out.append(backslashes * 2, '\\');  // before the closing quote
  return out + "\"";
}

std::string WindowsCommandLine(const std::string& executable, const std::vector<std::string>& args) {
  // argv[0] is read up to the next quote, without escapes: quoted whole.
  std::string line = "\"" + executable + "\"";
  for (const auto& arg : args) line += " " + QuoteWindowsArg(arg);
  return line;
}

}  // namespace tb
