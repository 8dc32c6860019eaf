// tabbridge-host: Chrome starts it when our extension calls connectNative.
// stdin/stdout carry native messaging to the extension (never logs); the
// Unix socket serves the shims.
#include <signal.h>
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <winsock2.h>  // before windows.h, as uv.h wants it
// clang-format off
#include <windows.h>
// clang-format on
#else
#include <unistd.h>
#endif

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>
#include <uv.h>

#include "common/audit_log.h"
#include "common/logging.h"
#include "common/policy.h"
#include "common/protocol.h"
#include "common/socket_dir.h"
#include "host/browser_pid.h"
#include "host/host.h"

namespace {

constexpr const char* kUsage =
    "tabbridge-host — the native-messaging host of tabbridge.\n"
    "Chrome starts it for the tabbridge extension; you do not run it yourself.\n"
    "Run `tabbridge doctor` to check the installation.\n";

// A positive number of milliseconds from the environment, else `fallback`.
std::uint64_t MillisFromEnv(const char* name, std::uint64_t fallback) {
  const char* env = std::getenv(name);
  const long long value = env != nullptr ? std::atoll(env) : 0;
  return value > 0 ? static_cast<std::uint64_t>(value) : fallback;
}

#ifdef _WIN32
long OwnUid() { return -1; }  // the pipe checks SIDs instead (host/socket_server_windows.cpp)
#else
long OwnUid() { return static_cast<long>(getuid()); }
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::fputs(kUsage, stderr);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    std::fprintf(stderr, "tabbridge-host %s\n", std::string(tb::kVersion).c_str());
    return 0;
  }
  tb::InitLogging("tabbridge-host", "info");
  spdlog::debug("timeline: host started");
#ifdef _WIN32
  // Native messaging is binary: no CRLF translation of the frames (Chrome
  // opens its ends in binary mode too). libuv writes to the handles, but the
  // CRT's descriptors must agree for anything else that touches them.
  ::_setmode(::_fileno(stdin), _O_BINARY);
  ::_setmode(::_fileno(stdout), _O_BINARY);
#else
  ::signal(SIGPIPE, SIG_IGN);  // a vanished peer is an error code, not a death
#endif

  const std::string origin = argc > 1 ? argv[1] : "";
  const std::string expected = "chrome-extension://" + std::string(tb::kExtensionId) + "/";
  if (origin != expected) spdlog::warn("started by {} (expected {})", origin.empty() ? "nobody" : origin, expected);

  uv_loop_t* loop = uv_default_loop();
  std::string error;
  auto stdio = tb::Transport::ForStdio(loop, tb::Framing::kNative, tb::kMaxFrameFromExtension, &error);
  if (!stdio) {
    spdlog::error("{} — tabbridge-host is started by the browser, not by hand", error);
    return 2;
  }
  int exit_code = 0;
  {
    tb::Host host(
        loop, std::move(stdio),
        {.socket_dir = tb::SocketDir(),
         .allowed_uid = OwnUid(),
         .browser_pid = tb::BrowserPid(),
         // Tests change these timings (README "Configuration"): a silent extension fails
         // fast, a list_changed provably comes from the new page's report and not the
         // hold running out, detach-after-idle and a wedged extension are quick to see.
         .extension_deadline_ms = MillisFromEnv("TABBRIDGE_EXTENSION_DEADLINE_MS", tb::kDefaultExtensionDeadlineMs),
         .navigation_settle_ms = MillisFromEnv("TABBRIDGE_NAVIGATION_SETTLE_MS", tb::kNavigationSettleMs),
         .debugger_idle_ms = MillisFromEnv("TABBRIDGE_DEBUGGER_IDLE_MS", tb::kDebuggerIdleMs),
         .heartbeat_ms = MillisFromEnv("TABBRIDGE_HEARTBEAT_MS", tb::kHeartbeatIntervalMs),
         // The browser's environment decides, as for every program it starts (docs/policy.md).
         .policy_path = tb::policy::DefaultPath(),
         .audit_path = tb::audit::DefaultPath()});
    // On the heap, freed by their close callbacks: those run after this block.
    std::vector<uv_signal_t*> signals;
    for (const int signum : {SIGTERM, SIGINT}) {
      auto* handle = tb::NewHandle<uv_signal_t>();
      uv_signal_init(loop, handle);
      handle->data = &host;
      uv_signal_start(
          handle,
          [](uv_signal_t* h, int) {
            static_cast<tb::Host*>(h->data)->Shutdown("signal");  // idempotent; closed below
          },
          signum);
      uv_unref(reinterpret_cast<uv_handle_t*>(handle));  // signals alone do not keep us alive
      signals.push_back(handle);
    }
    host.Start();
    uv_run(loop, UV_RUN_DEFAULT);
    exit_code = host.exit_code();
    // Already on the way out: a second Ctrl-C or SIGTERM must not turn a
    // clean exit into a death by signal. Closing the handles restores the
    // default action process-wide — and libuv's threadpool threads (the
    // policy file's poll) would take the signal — so ignore both at once.
    for (auto* handle : signals) tb::CloseHandle(reinterpret_cast<uv_handle_t*>(handle));
    ::signal(SIGINT, SIG_IGN);
    ::signal(SIGTERM, SIG_IGN);
  }
  uv_run(loop, UV_RUN_DEFAULT);  // let close callbacks free their handles
  uv_loop_close(loop);
  return exit_code;
}
