// Doctor's registration step on Linux and macOS: the native-messaging
// manifest of every browser found and of the launch profile.
#include <filesystem>

#include "mcp_shim/doctor_report.h"
#include "mcp_shim/native_manifest.h"
#include "mcp_shim/paths.h"

namespace tb {

int CheckRegistration(DoctorReport& report, const std::string& extension_id) {
  // Each the template (manifests/) filled in with an executable host and our ID.
  int registered = 0;
  for (const auto& browser : KnownBrowsers()) {
    if (!browser.found) continue;
    // The browser reads the per-user one, else the system-wide one (the .deb's).
    const bool user_level = std::filesystem::exists(ManifestPath(browser.manifest_dir)) ||
                            !std::filesystem::exists(ManifestPath(browser.system_dir));
    const std::string dir = user_level ? browser.manifest_dir : browser.system_dir;
    if (auto ok = CheckManifest(dir, extension_id); ok) {
      report.Ok(browser.name + ": " + ManifestPath(dir) + (user_level ? "" : " (system-wide)"));
      ++registered;
    } else {
      report.Fail(browser.name + ": " + ok.error(),
                  user_level ? "run `tabbridge register` (or install/install.sh)"
                             : "reinstall the tabbridge package, or `sudo tabbridge register --system`");
    }
  }
  const std::string profile_manifests = ProfileDir() + "/NativeMessagingHosts";
  if (std::filesystem::exists(ManifestPath(profile_manifests))) {
    if (auto ok = CheckManifest(profile_manifests, extension_id); ok)
      report.Ok("launch profile: " + ManifestPath(profile_manifests));
    else
      report.Fail("launch profile: " + ok.error(), "delete it; connect_browser {launch: true} writes it again");
  }
  return registered;
}

}  // namespace tb
