// Doctor's registration step on Windows: the manifest in
// %LOCALAPPDATA%\tabbridge and each browser's HKCU key read back
// (windows::ReadKeys): pointing at it, at a missing file, elsewhere, absent.
#include <filesystem>

#include "common/utf16_windows.h"
#include "common/utf8_path.h"
#include "mcp_shim/doctor_report.h"
#include "mcp_shim/native_manifest.h"
#include "mcp_shim/registry.h"
#include "mcp_shim/windows_registration.h"

namespace tb {

int CheckRegistration(DoctorReport& report, const std::string& extension_id) {
  constexpr const char* kFix = "run `tabbridge register` (install.ps1 does)";
  const auto dir = windows::InstallDir(EnvUtf8("LOCALAPPDATA"));
  if (!dir) {
    report.Fail("registration: " + dir.error(), "run tabbridge from a normal Windows session");
    return 0;
  }
  const std::string manifest = windows::ManifestFile(*dir);
  if (auto ok = CheckManifest(*dir, extension_id); ok) {
    report.Ok("manifest: " + manifest);
  } else {
    report.Fail("manifest: " + ok.error(), kFix);
  }
  const auto registry = CurrentUserRegistry();
  const auto exists = [](const std::string& path) {
    std::error_code ec;
    return std::filesystem::is_regular_file(Utf8Path(path), ec);
  };
  int registered = 0;
  for (const auto& key : windows::ReadKeys(*registry, manifest, exists)) {
    const std::string where = key.browser + ": HKCU\\" + key.key;
    switch (key.state) {
      case windows::KeyState::kOurs:
        report.Ok(where + " -> " + key.detail);
        ++registered;
        break;
      case windows::KeyState::kMissingFile:
        report.Fail(where + " points at " + key.detail + ", which does not exist", kFix);
        break;
      case windows::KeyState::kElsewhere:
        report.Fail(where + " points at " + key.detail + ", not at this install's " + manifest,
                    std::string(kFix) + " to use this one");
        break;
      case windows::KeyState::kAbsent:
        report.Fail(where + " is absent: the browser cannot start tabbridge-host", kFix);
        break;
      case windows::KeyState::kUnreadable:
        report.Fail(where + ": " + key.detail, "check the key with regedit");
        break;
    }
  }
  return registered;
}

}  // namespace tb
