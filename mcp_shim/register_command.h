// `tabbridge register` / `unregister`: the native-messaging manifests, from
// the built-in template (manifests/com.tabbridge.host.json.in).
#pragma once

#include <string>
#include <vector>

namespace tb {

//   register [DIR...]     every browser found, per user (or into each DIR)
//   register --system     every browser's system-wide directory (as root)
//     --root R            write under R instead of / (packaging: the .deb)
//     --host-path P       the host the manifests name (default: next to tabbridge)
//   register --print      print the manifest instead of writing it
int RunRegister(const std::vector<std::string>& args);
//   unregister [--system]
int RunUnregister(const std::vector<std::string>& args);

}  // namespace tb
