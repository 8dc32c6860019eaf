// connect_browser {launch: true}: start a browser with a dedicated profile and
// our extension, with its NativeMessagingHosts/ holding our manifest.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <uv.h>

namespace tb {

struct LaunchPlan {
  std::string executable;
  std::vector<std::string> args;  // without argv[0]
  std::string profile_dir;
  std::string extension_dir;
  // Branded Chrome 137+ ignores --load-extension; it gets the extension over
  // the DevTools pipe (CDP Extensions.loadUnpacked) instead.
  bool load_over_pipe = false;
  // Said once in connect_browser's answer: what the machine made us choose
  // (no sandbox, headless), ChooseLaunchArgs.
  std::vector<std::string> notes;
};

// Adds `feature` to the last `which` switch ("--enable-features=" or
// "--disable-features=") in `args`, or a switch of its own, unless `args`
// already enable or disable it: the user's arguments decide first.
void AddFeature(std::vector<std::string>& args, std::string_view which, std::string_view feature);

// Adds WebMCP to the browser's --enable-features unless `args` already
// enable or disable it (launched browsers get the page's own tools natively).
void EnableWebMcp(std::vector<std::string>& args);

// Disables the features that keep renderers alive an agent's browser does not
// use (the WebUI omnibox popup, the spare renderer), unless `args` decide them.
void DisableIdleRenderers(std::vector<std::string>& args);

// True when `args` start the browser headless (--headless, --headless=new|old).
bool IsHeadless(const std::vector<std::string>& args);

// Whether a launched browser gets --silent-debugger-extension-api (no debugger
// bar): unless TABBRIDGE_DEBUGGER_BAR=show asks for the bar the person's own
// browser shows.
bool LaunchedWithoutDebuggerBar();

// A headless browser quits with its last tab, and its host with it; an agent
// closing its last tab (or the launch tab being closed) must not end the
// browser. Adds --keep-alive-for-test (Chrome's switch for a browser that
// outlives its windows) to headless `args` that lack it.
void KeepHeadlessAlive(std::vector<std::string>& args);

// Finds the browser ($TABBRIDGE_BROWSER or the first Chrome-family browser on
// PATH) and builds its command line. Pure apart from looking at the disk.
std::expected<LaunchPlan, std::string> PlanLaunch();

// A browser that crashed leaves its profile locked: SingletonLock, a symlink
// to "<host>-<pid>". Chromium takes over such a lock by itself only when the
// host name still matches and the pid is free; after a container or VM got
// another host name, or the pid went to another program, it refuses the
// profile ("in use by another process"). Removes the lock (with its socket
// and cookie) when no browser answers on the SingletonSocket and no process
// of this machine is starting a browser on the profile; returns the owner it
// named, or nullopt when there was no lock or it is held.
std::optional<std::string> ClearStaleProfileLock(const std::string& profile_dir);

// Whether a browser (or a helper of a dead one, for a moment) still answers on
// the profile's SingletonSocket: a browser started on it then hands over to it.
bool ProfileSocketAnswers(const std::string& profile_dir);

// How a launched browser ended.
struct BrowserExit {
  std::int64_t status = 0;  // on Windows the exit code (an NTSTATUS for a crash)
  int signal = 0;           // always 0 on Windows
};

// Owns what a launched browser needs from us while it runs (the DevTools pipe),
// and knows whether it has exited already.
class LaunchedBrowser {
 public:
  virtual ~LaunchedBrowser() = default;
  virtual int pid() const = 0;
  virtual std::optional<BrowserExit> exited() const = 0;
  // What the browser wrote to its log since this launch.
  virtual std::string log_path() const = 0;
  virtual std::uint64_t log_offset() const = 0;
};

// The browser's own words on why it stopped: the last few ERROR/FATAL lines
// it logged after `offset` of `log_path`, without Chromium's
// [pid:tid:time:LEVEL:file(line)] prefix, one per line ("" if none).
std::string BrowserLogErrors(const std::string& log_path, std::uint64_t offset, std::size_t max_lines = 3);

// A sentence on what to do about a browser that stopped with `errors` (its
// log lines), for connect_browser's instructions.
std::string AdviceForBrowserErrors(const std::string& errors, const std::string& log_path);

// "exited with status 1" / "was killed by signal 9" / "crashed (exception 0xC0000005)".
std::string DescribeExit(const BrowserExit& exit);

// Windows has no signals: a process an exception ended exits with its
// NTSTATUS (0xC0000005, an access violation…), 0xC0000000 and above.
bool IsWindowsException(std::int64_t status);
// "0xC0000005".
std::string ExceptionCode(std::int64_t status);

// Prepares the profile (manifest) and starts the browser detached from us;
// `done` runs once the extension load is requested (at once for --load-extension).
// Over the pipe the browser must answer within answer_within_ms, or it is
// stopped and `done` gets the error.
// Creates the launch profile directory (and its parents) and makes it 0700.
std::expected<void, std::string> PrepareProfileDir(const std::string& dir);

void Launch(uv_loop_t* loop, const LaunchPlan& plan, std::uint64_t answer_within_ms,
            std::function<void(std::expected<std::unique_ptr<LaunchedBrowser>, std::string>)> done);

// Launch once the profile is ready: starts the browser (its output appended
// to <profile>/tabbridge-browser.log) and, over the pipe, asks it to load the
// extension.
void StartBrowser(uv_loop_t* loop, const LaunchPlan& plan, std::uint64_t answer_within_ms,
                  std::function<void(std::expected<std::unique_ptr<LaunchedBrowser>, std::string>)> done);

}  // namespace tb
