// `tabbridge register` / `unregister` on Windows: the manifest in
// %LOCALAPPDATA%\tabbridge and the HKCU keys of every Chrome-family browser
// (windows_registration.h decides; this file reads the environment and says
// what happened). No administrator: HKCU and the user's own directory.
#include <cstdio>
#include <filesystem>

#include "common/utf16_windows.h"
#include "common/utf8_path.h"
#include "mcp_shim/native_manifest.h"
#include "mcp_shim/paths.h"
#include "mcp_shim/register_command.h"
#include "mcp_shim/registry.h"
#include "mcp_shim/windows_registration.h"

namespace tb {
namespace {

std::string LocalAppData() { return EnvUtf8("LOCALAPPDATA"); }

}  // namespace

int RunRegister(const std::vector<std::string>& args) {
  bool print = false;
  std::string host_path;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--print") {
      print = true;
    } else if (args[i] == "--host-path" && i + 1 < args.size() && !args[i + 1].empty()) {
      host_path = args[++i];
    } else {
      std::fprintf(stderr,
                   "tabbridge register: '%s' is not an option on Windows (register [--print] [--host-path P] writes "
                   "%%LOCALAPPDATA%%\\tabbridge and the HKCU keys)\n",
                   args[i].c_str());
      return 2;
    }
  }
  if (host_path.empty()) host_path = Utf8String(Utf8Path(HostBinary()).make_preferred());
  const auto id = InstalledExtensionId();
  if (!id) {
    std::fprintf(stderr, "tabbridge register: %s\n", id.error().c_str());
    return 1;
  }
  if (print) {
    std::printf("%s\n", ManifestJson(host_path, *id).dump(2).c_str());
    return 0;
  }
  const auto registry = CurrentUserRegistry();
  const auto done = windows::Register(*registry, LocalAppData(), host_path, *id);
  if (!done) {
    std::fprintf(stderr, "tabbridge register: %s\n", done.error().c_str());
    return 1;
  }
  std::printf("wrote %s (host %s)\n", done->manifest.c_str(), host_path.c_str());
  int failures = 0;
  for (const auto& key : done->keys) {
    if (key.error.empty()) {
      std::printf("registered %s: HKCU\\%s\n", key.browser.c_str(), key.key.c_str());
    } else {
      std::fprintf(stderr, "error: %s: %s\n", key.browser.c_str(), key.error.c_str());
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}

int RunUnregister(const std::vector<std::string>& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "tabbridge unregister: takes no arguments on Windows\n");
    return 2;
  }
  const auto registry = CurrentUserRegistry();
  const auto done = windows::Unregister(*registry, LocalAppData());
  for (const auto& what : done.removed) std::printf("removed %s\n", what.c_str());
  for (const auto& what : done.left) std::printf("left %s\n", what.c_str());
  for (const auto& error : done.errors) std::fprintf(stderr, "error: %s\n", error.c_str());
  return done.errors.empty() ? 0 : 1;
}

}  // namespace tb
