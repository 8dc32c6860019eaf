// Which process is the browser that started this host: the pid the hello
// reports, whose exit a shim's crash recovery watches and which the idle
// timer may close. POSIX: our parent. Windows: Chrome starts native hosts
// through `cmd.exe /d /s /c "host.exe … < pipe > pipe"`, so our parent is
// cmd.exe and the browser is the first ancestor that is not a cmd.exe.
#pragma once

#include <string>
#include <vector>

namespace tb {

struct ProcessEntry {
  long pid = 0;
  long parent = 0;
  std::string exe;  // the program's file name, as a process snapshot gives it
};

// The first ancestor of `self` among `processes` whose program is not
// cmd.exe (any case); 0 when `self` is not listed. Stops at a process not
// listed (its pid is the answer) and at a cycle (pids are reused on Windows).
long BrowserPidAmong(long self, const std::vector<ProcessEntry>& processes);

// This host's browser (browser_pid.cpp, browser_pid_windows.cpp).
long BrowserPid();

}  // namespace tb
