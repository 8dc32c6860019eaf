#include "host/browser_flags.h"

#include <fstream>

namespace tb {

std::vector<std::string> CommandLineOf(long pid) {
  std::vector<std::string> args;
#ifndef _WIN32
  if (pid <= 0) return args;
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string arg;
  while (std::getline(in, arg, '\0')) args.push_back(arg);
#else
  (void)pid;
#endif
  return args;
}

bool EnablesWebMcp(const std::vector<std::string>& args) {
  bool enabled = false;
  for (const auto& arg : args) {
    if (arg.find("WebMCP") == std::string::npos) continue;
    if (arg.starts_with("--enable-features=")) enabled = true;
    if (arg.starts_with("--disable-features=")) return false;
  }
  return enabled;
}

bool HidesDebuggerBar(const std::vector<std::string>& args) {
  for (const auto& arg : args) {
    if (arg == "--silent-debugger-extension-api") return true;
  }
  return false;
}

}  // namespace tb
