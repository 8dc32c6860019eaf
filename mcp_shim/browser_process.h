// Starting the browser process itself, the part of a launch that is system
// calls: browser_process.cpp (POSIX: uv_spawn, the DevTools pipe on fds 3
// and 4, the profile's SingletonLock) and browser_process_windows.cpp
// (CreateProcessW with the pipe's handles in --remote-debugging-io-pipes).
// launcher.cpp does the rest the same way everywhere.
#pragma once

#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <uv.h>

#include "mcp_shim/launcher.h"

namespace tb {

// A browser process we started.
class BrowserProcess {
 public:
  virtual ~BrowserProcess() = default;
  virtual int pid() const = 0;
  virtual std::optional<BrowserExit> exited() const = 0;
  // Ends it (SIGTERM; TerminateProcess on Windows).
  virtual void Stop() = 0;
};

struct SpawnedProcess {
  std::unique_ptr<BrowserProcess> process;
  // Our ends of the DevTools pipe (-1 without it), for uv_pipe_open: we write
  // CDP to `to_browser` and read the browser's answers from `from_browser`.
  uv_file to_browser = -1;
  uv_file from_browser = -1;
};

// Starts `executable` with `args` (without argv[0]), detached from us (it
// outlives this shim), its stdout and stderr appended to `log_path`, with the
// DevTools pipe when `devtools_pipe`.
std::expected<SpawnedProcess, std::string> SpawnBrowser(uv_loop_t* loop, const std::string& executable,
                                                        const std::vector<std::string>& args, bool devtools_pipe,
                                                        const std::string& log_path);

// The switch that tells Chrome on Windows which inherited handles are its
// DevTools pipe: "--remote-debugging-io-pipes=<read>,<write>", the handle
// values in decimal (Chromium's own launchers write them so), the browser
// reading from the first and writing to the second.
std::string IoPipesSwitch(std::uintptr_t browser_reads, std::uintptr_t browser_writes);

// `args` with `io_pipes` right after --remote-debugging-pipe (at the end if absent).
std::vector<std::string> WithIoPipes(std::vector<std::string> args, const std::string& io_pipes);

// One argument quoted for a Windows command line so that CommandLineToArgvW
// (and the C runtime) give it back unchanged: in quotes when it is empty or
// holds a space, tab or quote; a quote escaped with a backslash, and the
// backslashes before a quote (or the closing quote) doubled.
std::string QuoteWindowsArg(std::string_view arg);
// The whole command line: `executable` then each argument, quoted.
std::string WindowsCommandLine(const std::string& executable, const std::vector<std::string>& args);

}  // namespace tb
