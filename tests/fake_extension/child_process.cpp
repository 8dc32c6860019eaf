#include "tests/fake_extension/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <thread>

#include "tests/fake_extension/deadline.h"

extern char** environ;

namespace tb::fake {
namespace {

std::string Errno(const std::string& what) { return what + ": " + std::strerror(errno); }

// The inherited environment with `overrides` applied, as "K=V" strings.
std::vector<std::string> BuildEnv(const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [key, value] : overrides) env[key] = value;
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [key, value] : env) out.push_back(key + "=" + value);
  return out;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

std::string ExitStatus::Describe() const {
  if (exited) return "exited with code " + std::to_string(code);
  return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
}

std::expected<std::unique_ptr<ChildProcess>, std::string> ChildProcess::Spawn(const SpawnOptions& options) {
  if (options.argv.empty()) return std::unexpected("no argv");
  // O_CLOEXEC everywhere: no other child may inherit our ends, or EOF would
  // never come while that child lives. dup2 in the child clears the flag.
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return std::unexpected(Errno("pipe2"));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    return std::unexpected(Errno("pipe2"));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  if (!options.stderr_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, options.stderr_path.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0600);
  }
  std::vector<std::string> argv_strings = options.argv;
  std::vector<std::string> env_strings = BuildEnv(options.env);
  auto argv = CStrings(argv_strings);
  auto envp = CStrings(env_strings);

  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  if (rc != 0) {
    ::close(in[1]);
    ::close(out[0]);
    return std::unexpected("cannot start " + options.argv[0] + ": " + std::strerror(rc));
  }
  auto child = std::unique_ptr<ChildProcess>(new ChildProcess());
  child->pid_ = pid;
  child->stdin_ = in[1];
  child->stdout_ = out[0];
  child->pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));  // -1 on old kernels: we poll instead
  return child;
}

ChildProcess::~ChildProcess() {
  if (!status_) {
    Signal(SIGKILL);
    Reap(/*block=*/true);
  }
  CloseStdin();
  if (stdout_ >= 0) ::close(stdout_);
  if (pidfd_ >= 0) ::close(pidfd_);
}

void ChildProcess::CloseStdin() {
  if (stdin_ < 0) return;
  ::close(stdin_);
  stdin_ = -1;
}

void ChildProcess::Signal(int signum) const {
  if (!status_) ::kill(pid_, signum);
}

bool ChildProcess::Reap(bool block) {
  if (status_) return true;
  int raw = 0;
  pid_t got;
  do {
    got = ::waitpid(pid_, &raw, block ? 0 : WNOHANG);
  } while (got < 0 && errno == EINTR);
  if (got != pid_) return false;
  ExitStatus status;
  status.exited = WIFEXITED(raw);
  status.code = status.exited ? WEXITSTATUS(raw) : 0;
  status.signal = WIFSIGNALED(raw) ? WTERMSIG(raw) : 0;
  status_ = status;
  return true;
}

std::optional<ExitStatus> ChildProcess::WaitExit(std::chrono::milliseconds timeout) {
  const Deadline deadline = DeadlineIn(timeout);
  while (!Reap(/*block=*/false)) {
    const int left = RemainingMs(deadline);
    if (left == 0) return std::nullopt;
    if (pidfd_ >= 0) {
      pollfd p{pidfd_, POLLIN, 0};
      ::poll(&p, 1, left);  // readable once the child has exited
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(left, 5)));
    }
  }
  return status_;
}

long ChildProcess::PeakRssKb() const { return status_ ? -1 : tb::fake::PeakRssKb(pid_); }

long PeakRssKb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("VmHWM:")) return std::stol(line.substr(6));
  }
  return -1;
}

}  // namespace tb::fake
