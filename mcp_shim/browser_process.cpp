// The POSIX side of browser_process.h: uv_spawn, the DevTools pipe on fds 3
// and 4, and the profile's SingletonLock.
#include "mcp_shim/browser_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <spdlog/spdlog.h>

#include "common/uv_util.h"

namespace tb {
namespace fs = std::filesystem;

namespace {

// Set by the process's exit callback, which may outlive the PosixBrowser.
using ExitState = std::shared_ptr<std::optional<BrowserExit>>;

class PosixBrowser : public BrowserProcess {
 public:
  PosixBrowser(int pid, ExitState exit) : pid_(pid), exit_(std::move(exit)) {}
  int pid() const override { return pid_; }
  std::optional<BrowserExit> exited() const override { return *exit_; }
  void Stop() override { uv_kill(pid_, SIGTERM); }

 private:
  int pid_;
  ExitState exit_;
};

// Whether a browser listens on the profile's SingletonSocket (it hands a
// second start over to itself through it).
bool SingletonAnswers(const fs::path& socket_path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  socket_path.string().copy(addr.sun_path, sizeof(addr.sun_path) - 1);
  const bool answers = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return answers;
}

// Whether `pid` runs a browser on `profile_dir` (one starting up has no socket yet).
bool RunsProfile(long pid, const std::string& profile_dir) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string arg;
  while (std::getline(in, arg, '\0')) {
    if (arg == "--user-data-dir=" + profile_dir) return true;
  }
  return false;
}

}  // namespace

bool ProfileSocketAnswers(const std::string& profile_dir) {
  return SingletonAnswers(fs::path(profile_dir) / "SingletonSocket");
}

std::optional<std::string> ClearStaleProfileLock(const std::string& profile_dir) {
  std::error_code ec;
  const fs::path dir(profile_dir);
  const std::string owner = fs::read_symlink(dir / "SingletonLock", ec).string();
  if (ec) return std::nullopt;
  if (SingletonAnswers(dir / "SingletonSocket")) return std::nullopt;  // its browser lives
  const auto dash = owner.rfind('-');
  char host[256] = {};
  ::gethostname(host, sizeof(host) - 1);
  if (dash != std::string::npos && owner.substr(0, dash) == host) {
    const long pid = std::atol(owner.c_str() + dash + 1);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0 && RunsProfile(pid, profile_dir)) return std::nullopt;
  }
  for (const char* name : {"SingletonLock", "SingletonSocket", "SingletonCookie"}) fs::remove(dir / name, ec);
  return owner;
}

std::expected<SpawnedProcess, std::string> SpawnBrowser(uv_loop_t* loop, const std::string& executable,
                                                        const std::vector<std::string>& args, bool devtools_pipe,
                                                        const std::string& log_path) {
  std::vector<std::string> argv_storage = {executable};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : argv_storage) argv.push_back(arg.data());
  argv.push_back(nullptr);

  // The browser's output goes to a log in its profile: our stdout is MCP.
  const int log_fd = ::open(log_path.c_str(), O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0600);
  uv_stdio_container_t stdio[7] = {};
  stdio[0].flags = UV_IGNORE;
  for (int fd : {1, 2}) {
    stdio[fd].flags = log_fd >= 0 ? UV_INHERIT_FD : UV_IGNORE;
    stdio[fd].data.fd = log_fd;
  }
  int stdio_count = 3;
  int our_fds[2] = {-1, -1};         // our ends of the DevTools pipe: we write [0], read [1]
  int child_only_fds[2] = {-1, -1};  // the browser's ends; ours to close once it has them
  if (devtools_pipe) {
    // Chrome reads CDP from fd 3 and writes to fd 4, and quits when fd 3 hits
    // EOF. It also gets our ends (fds 5, 6) so the pipe outlives this shim and
    // a browser we launched keeps running when the MCP client restarts us.
    int to_browser[2], from_browser[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, to_browser) != 0 ||
        ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, from_browser) != 0) {
      if (log_fd >= 0) ::close(log_fd);
      return std::unexpected("cannot create the DevTools pipe");
    }
    const int child_fds[4] = {to_browser[1], from_browser[1], to_browser[0], from_browser[0]};
    for (int i = 0; i < 4; ++i) {
      stdio[3 + i].flags = UV_INHERIT_FD;
      stdio[3 + i].data.fd = child_fds[i];
    }
    stdio_count = 7;
    our_fds[0] = to_browser[0];
    our_fds[1] = from_browser[0];
    child_only_fds[0] = to_browser[1];
    child_only_fds[1] = from_browser[1];
  }

  auto exit = std::make_shared<std::optional<BrowserExit>>();
  auto* process = NewHandle<uv_process_t>();
  uv_process_options_t options{};
  options.file = executable.c_str();
  options.args = argv.data();
  options.flags = UV_PROCESS_DETACHED;  // the browser outlives this shim
  options.stdio = stdio;
  options.stdio_count = stdio_count;
  process->data = new ExitState(exit);
  options.exit_cb = [](uv_process_t* p, int64_t status, int signal) {
    spdlog::info("browser process {} exited (status {}, signal {})", p->pid, status, signal);
    std::unique_ptr<ExitState> state(static_cast<ExitState*>(p->data));
    p->data = nullptr;
    **state = BrowserExit{status, signal};
    CloseHandle(reinterpret_cast<uv_handle_t*>(p));
  };
  const int rc = uv_spawn(loop, process, &options);
  if (log_fd >= 0) ::close(log_fd);
  for (int fd : child_only_fds)
    if (fd >= 0) ::close(fd);
  if (rc != 0) {
    for (int fd : our_fds)
      if (fd >= 0) ::close(fd);
    delete static_cast<ExitState*>(process->data);
    process->data = nullptr;
    CloseHandle(reinterpret_cast<uv_handle_t*>(process));
    return std::unexpected("cannot start " + executable + ": " + uv_strerror(rc));
  }
  uv_unref(reinterpret_cast<uv_handle_t*>(process));  // we do not wait for it
  return SpawnedProcess{std::make_unique<PosixBrowser>(process->pid, std::move(exit)), our_fds[0], our_fds[1]};
}

}  // namespace tb
