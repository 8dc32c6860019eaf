// connect_browser {launch: true}: start a browser with a dedicated profile and
// our extension, with its NativeMessagingHosts/ holding our manifest.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>
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
};

// Adds WebMCP to the browser's --enable-features unless `args` already
// enable or disable it (launched browsers get the page's own tools natively).
void EnableWebMcp(std::vector<std::string>& args);

// Finds the browser ($TABBRIDGE_BROWSER or the first Chrome-family browser on
// PATH) and builds its command line. Pure apart from looking at the disk.
std::expected<LaunchPlan, std::string> PlanLaunch();

// Owns what a launched browser needs from us while it runs (the DevTools pipe).
class LaunchedBrowser {
 public:
  virtual ~LaunchedBrowser() = default;
  virtual int pid() const = 0;
};

// Prepares the profile (manifest) and starts the browser detached from us;
// `done` runs once the extension load is requested (at once for --load-extension).
// Over the pipe the browser must answer within answer_within_ms, or it is
// stopped and `done` gets the error.
void Launch(uv_loop_t* loop, const LaunchPlan& plan, std::uint64_t answer_within_ms,
            std::function<void(std::expected<std::unique_ptr<LaunchedBrowser>, std::string>)> done);

}  // namespace tb
