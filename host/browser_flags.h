// What the browser that started us was started with (Linux: its command
// line, /proc/<pid>/cmdline), for what its extension cannot ask: whether
// WebMCP is on, whether the debugger bar is off. Elsewhere nothing is known.
#pragma once

#include <string>
#include <vector>

namespace tb {

// The arguments of process `pid`; empty where they cannot be read.
std::vector<std::string> CommandLineOf(long pid);

// --enable-features=…WebMCP… and no --disable-features=…WebMCP….
bool EnablesWebMcp(const std::vector<std::string>& args);

// --silent-debugger-extension-api: chrome.debugger shows no bar.
bool HidesDebuggerBar(const std::vector<std::string>& args);

}  // namespace tb
