#include "mcp_shim/browser_command.h"

#include <cstdio>

#include "mcp_shim/launcher.h"

namespace tb {

int RunBrowser() {
  const auto plan = PlanLaunch();
  if (!plan) {
    std::fprintf(stderr, "%s\n", plan.error().c_str());
    return 1;
  }
  std::printf("%s (connect_browser {launch: true} starts it; TABBRIDGE_BROWSER picks another)\n",
              plan->executable.c_str());
  for (const auto& note : plan->notes) std::printf("  %s\n", note.c_str());
  return 0;
}

}  // namespace tb
