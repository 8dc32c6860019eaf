// The Windows side of launch_env.h: nothing to choose. Chrome's sandbox
// needs no namespaces or setuid helper there, and there is always a desktop.
#include "mcp_shim/launch_env.h"

namespace tb {

LaunchEnv ReadLaunchEnv(const std::string&) { return LaunchEnv{.platform = Platform::kWindows}; }

std::string BrowserInstallCommand() { return BrowserInstallCommand(Platform::kWindows, "", false); }

}  // namespace tb
