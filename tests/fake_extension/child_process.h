// A child process with its stdin and stdout on pipes, the way Chrome starts a
// native-messaging host and an MCP client starts the shim. POSIX:
// child_process.cpp; Windows: child_process_windows.cpp (CreateProcessW, the
// ends as C runtime descriptors).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#ifdef _WIN32
// Windows has no such signals: Signal() ends the child with TerminateProcess
// whatever the number, and its exit code is 128 + the number (as a shell says).
#ifndef SIGKILL
#define SIGKILL 9
#endif
#ifndef SIGPIPE
#define SIGPIPE 13
#endif
#endif

namespace tb::fake {

struct ExitStatus {
  bool exited = false;  // WIFEXITED: returned from main or called exit()
  int code = 0;         // exit code when `exited`
  int signal = 0;       // the terminating signal otherwise

  bool clean() const { return exited && code == 0; }
  std::string Describe() const;
};

struct SpawnOptions {
  std::vector<std::string> argv;  // argv[0] is the binary's path
  // Set (or override) in the inherited environment.
  std::vector<std::pair<std::string, std::string>> env;
  // Where the child's stderr goes; empty inherits ours.
  std::string stderr_path;
};

class ChildProcess {
 public:
  static std::expected<std::unique_ptr<ChildProcess>, std::string> Spawn(const SpawnOptions& options);
  // SIGKILLs a child that is still running and reaps it.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  int stdin_fd() const { return stdin_; }    // write end; -1 once closed
  int stdout_fd() const { return stdout_; }  // read end

  void CloseStdin();
  void Signal(int signum) const;
  // Waits for the child to end (without a busy loop: a pidfd wakes us) and
  // reaps it. nullopt if it still runs at the deadline.
  std::optional<ExitStatus> WaitExit(std::chrono::milliseconds timeout);
  std::optional<ExitStatus> exit_status() const { return status_; }

  // VmHWM from /proc/<pid>/status in KiB (peak resident set); -1 when the
  // process is gone. Read it before the child exits.
  long PeakRssKb() const;

 private:
  ChildProcess() = default;
  bool Reap(bool block);

  pid_t pid_ = -1;
  int pidfd_ = -1;
  int stdin_ = -1;
  int stdout_ = -1;
  void* process_handle_ = nullptr;  // Windows: the child's process HANDLE
  std::optional<ExitStatus> status_;
};

// VmHWM of any process, in KiB; -1 when unreadable.
long PeakRssKb(pid_t pid);

}  // namespace tb::fake
