#include "mcp_shim/tools_command.h"

#include <cstdio>

#include "common/capabilities.h"
#include "common/tool_catalog.h"
#include "common/wire_js.h"

namespace tb {

int RunTools(const std::vector<std::string>& args) {
  const std::string mode = args.empty() ? "" : args[0];
  if (args.size() > 1 || (!mode.empty() && mode != "--json" && mode != "--js" && mode != "--wire-js" &&
                          mode != "--wire-json" && mode != "--caps-json")) {
    std::fputs("usage: tabbridge tools [--json | --js | --wire-js | --wire-json | --caps-json]\n", stderr);
    return 2;
  }
  if (mode == "--caps-json") {
    std::printf("%s\n", caps::CapabilitiesJson().dump(2).c_str());
    return 0;
  }
  if (mode == "--wire-js") {
    std::fputs(WireJs().c_str(), stdout);
    return 0;
  }
  if (mode == "--wire-json") {
    std::printf("%s\n", WireConstants().dump(2).c_str());
    return 0;
  }
  if (mode == "--js") {
    std::fputs(tools::ExtensionCatalogJs().c_str(), stdout);
    return 0;
  }
  std::vector<std::string> all_caps(std::begin(tools::kAllCaps), std::end(tools::kAllCaps));
  Json list = Json::array();
  for (const auto& name : tools::ReservedNames()) {
    const auto variant = tools::PageTool(name, all_caps);
    list.push_back(variant ? *variant : *tools::Find(name));
  }
  if (mode == "--json") {
    std::printf("%s\n", list.dump(2).c_str());
    return 0;
  }
  for (const auto& tool : list) {
    const std::string& name = tool["name"].get_ref<const std::string&>();
    const auto cap = tools::CapabilityOf(name);
    const auto session_cap = tools::RequiredCap(name);
    std::string needs = cap ? std::string(policy::Name(*cap)) : "-";
    if (!session_cap.empty()) needs += " (--caps " + std::string(session_cap) + ")";
    std::printf("%-18s %-24s %s\n", name.c_str(), needs.c_str(),
                tool["description"].get_ref<const std::string&>().c_str());
  }
  return 0;
}

}  // namespace tb
