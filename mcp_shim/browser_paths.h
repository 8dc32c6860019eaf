// Which browser connect_browser {launch: true} starts, decided from what the
// machine holds: pure over an injected environment and file check, so the
// Windows and macOS choices are unit-tested on Linux too.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/platform.h"

namespace tb {

// An environment variable's value ("" when unset).
using EnvLookup = std::function<std::string(const char* name)>;

// The places a Chrome-family browser is installed, most wanted first
// (Chrome, Chromium, Brave, Edge, Vivaldi): on Windows absolute paths under
// %ProgramFiles%, %ProgramFiles(x86)% and %LOCALAPPDATA% (a per-user
// install); on macOS the .app bundles; on Linux program names for PATH.
std::vector<std::string> BrowserCandidates(Platform platform, const EnvLookup& env);

// The first candidate `usable` accepts, or "".
std::string PickBrowser(const std::vector<std::string>& candidates,
                        const std::function<bool(const std::string&)>& usable);

// Google's own Chrome (not Chromium, Edge…): from 137 on it ignores
// --load-extension, so it gets the extension over the DevTools pipe.
bool IsBrandedChrome(const std::string& executable, Platform platform);

}  // namespace tb
