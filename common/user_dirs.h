// Where the user's files go: the home directory and the XDG base directories
// (the policy file, the audit log, the launch profile), found one way.
#pragma once

#include <string>
#include <string_view>

namespace tb {

// $HOME, else the password database's; without a trailing "/" ("" for "/").
std::string HomeDir();
// $`variable` when it is set to an absolute path (the XDG rule), else
// HomeDir() + "/" + `fallback` — e.g. XdgDir("XDG_STATE_HOME", ".local/state").
std::string XdgDir(const char* variable, std::string_view fallback);

}  // namespace tb
