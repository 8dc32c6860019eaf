// What the machine lets a launched browser do, and the switches that follow:
// no sandbox where Chromium's cannot start (root; user namespaces blocked, as
// in most containers, with no setuid helper), headless where there is no
// display. Pure choices over a LaunchEnv read once, so tests cover every case.
#pragma once

#include <string>
#include <vector>

#include "common/platform.h"

namespace tb {

struct LaunchEnv {
  bool root = false;            // effective uid 0: Chromium refuses its sandbox to root
  bool user_namespaces = true;  // unprivileged user namespaces work (the namespace sandbox)
  bool setuid_sandbox = false;  // a setuid-root chrome-sandbox helper next to the browser
  bool display = true;          // DISPLAY or WAYLAND_DISPLAY set (always on macOS)
  Platform platform = kThisPlatform;
};

// This process's environment, for the browser at `executable`. Probes user
// namespaces in a short-lived child (unshare(CLONE_NEWUSER)).
LaunchEnv ReadLaunchEnv(const std::string& executable);

struct LaunchChoice {
  std::vector<std::string> args;   // to add to the browser's command line
  std::vector<std::string> notes;  // one sentence per choice, for connect_browser's answer and doctor
  bool no_sandbox = false;         // the browser runs without its sandbox (ours or the user's choice)
  bool headless = false;           // the browser runs headless (ours or the user's choice)
};

// The switches `env` needs that `user_args` (TABBRIDGE_BROWSER_ARGS) do not
// decide: the user's --no-sandbox, --headless… or --ozone-platform=… make
// that choice theirs, and we add nothing for it.
LaunchChoice ChooseLaunchArgs(const LaunchEnv& env, const std::vector<std::string>& user_args);

// The one command that installs a browser here, for "no browser found"
// (empty when we know none for this system). `os_release_id_like`: the
// ID and ID_LIKE of /etc/os-release, space-separated.
std::string BrowserInstallCommand(Platform platform, const std::string& os_release_id_like, bool root);
std::string BrowserInstallCommand();

}  // namespace tb
