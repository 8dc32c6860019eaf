// tabbridge-fake-extension: plays the browser for a tabbridge-host by hand,
// to poke at a host with the shim or a raw socket client without Chromium.
// Prints every message the host sends, one JSON line each, until it exits.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/fake_extension/fake_extension.h"

namespace {

constexpr const char* kUsage =
    "usage: tabbridge-fake-extension --host PATH [--socket-dir DIR] [--tabs N] [--silent]\n"
    "  spawns the host like Chrome does, says hello with N http tabs (default 2),\n"
    "  answers ping/tabs.create/tabs.close (never, with --silent) and prints what\n"
    "  the host sends. The socket dir defaults to $TABBRIDGE_SOCKET_DIR.\n";

}  // namespace

int main(int argc, char** argv) {
  tb::fake::FakeExtensionOptions options;
  if (const char* dir = std::getenv("TABBRIDGE_SOCKET_DIR")) options.socket_dir = dir;
  bool silent = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--host" && has_value)
      options.host_binary = argv[++i];
    else if (arg == "--socket-dir" && has_value)
      options.socket_dir = argv[++i];
    else if (arg == "--tabs" && has_value)
      options.tabs = std::atoi(argv[++i]);
    else if (arg == "--silent")
      silent = true;
    else {
      std::fputs(kUsage, stderr);
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }
  if (options.host_binary.empty() || options.socket_dir.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  auto fake = tb::fake::FakeExtension::Start(options);
  if (!fake) {
    std::fprintf(stderr, "error: %s\n", fake.error().c_str());
    return 1;
  }
  (*fake)->SetAnswering(!silent);
  if ((*fake)->WaitForSocket(0, std::chrono::seconds(10))) {
    std::fprintf(stderr, "host %lld serves %s\n", static_cast<long long>((*fake)->host_pid()),
                 (*fake)->SocketPath(0).c_str());
  }
  const auto any = [](const tb::fake::Json&) { return true; };
  for (std::size_t seen = 0;; ++seen) {
    auto received = (*fake)->WaitForMessage(any, std::chrono::hours(24), seen);
    if (!received) break;  // the host closed its end
    std::printf("%s\n", received->message.dump().c_str());
    std::fflush(stdout);
  }
  const auto status = (*fake)->WaitHostExit(std::chrono::seconds(10));
  std::fprintf(stderr, "host %s\n", status ? status->Describe().c_str() : "did not exit");
  return 0;
}
