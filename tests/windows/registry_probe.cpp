// The Windows registration keys for real, under Wine: what `tabbridge
// register`, `unregister` and `doctor` do to HKCU (mcp_shim/windows_keys.cpp
// through registry_windows.cpp), driven by registration_test.sh, which reads
// the keys back with Wine's own `reg query`.
//   tabbridge_registry_probe point MANIFEST   set every browser's key to MANIFEST
//   tabbridge_registry_probe read MANIFEST    each key's state, one line each
//   tabbridge_registry_probe delete           delete every browser's key
//   tabbridge_registry_probe register ARGS... / unregister
//                                             what `tabbridge.exe register` / `unregister` run
//   tabbridge_registry_probe doctor           doctor's registration step (exit 1 on a FAIL)
#include <windows.h>

#include <shellapi.h>  // CommandLineToArgvW (after windows.h)

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "common/protocol.h"
#include "common/utf16_windows.h"
#include "common/utf8_path.h"
#include "mcp_shim/doctor_report.h"
#include "mcp_shim/register_command.h"
#include "mcp_shim/registry.h"
#include "mcp_shim/windows_keys.h"

namespace {

const char* Name(tb::windows::KeyState state) {
  switch (state) {
    case tb::windows::KeyState::kOurs:
      return "ours";
    case tb::windows::KeyState::kMissingFile:
      return "missing-file";
    case tb::windows::KeyState::kElsewhere:
      return "elsewhere";
    case tb::windows::KeyState::kAbsent:
      return "absent";
    case tb::windows::KeyState::kUnreadable:
      return "unreadable";
  }
  return "?";
}

// The arguments in UTF-8 (main's argv has the ANSI code page's bytes).
std::vector<std::string> Arguments() {
  int count = 0;
  wchar_t** wide = ::CommandLineToArgvW(::GetCommandLineW(), &count);
  std::vector<std::string> args;
  for (int i = 0; i < count; ++i) args.push_back(tb::Utf8(wide[i]));
  ::LocalFree(wide);
  return args;
}

}  // namespace

int main() {
  const std::vector<std::string> argv = Arguments();
  const auto argc = argv.size();
  const std::string command = argc > 1 ? argv[1] : "";
  const auto registry = tb::CurrentUserRegistry();
  if (command == "point" && argc == 3) {
    int failures = 0;
    for (const auto& key : tb::windows::PointKeys(*registry, argv[2])) {
      std::printf("%s: %s\n", key.browser.c_str(), key.error.empty() ? "set" : key.error.c_str());
      failures += key.error.empty() ? 0 : 1;
    }
    return failures == 0 ? 0 : 1;
  }
  if (command == "read" && argc == 3) {
    const auto exists = [](const std::string& path) {
      std::error_code ec;
      return std::filesystem::is_regular_file(tb::Utf8Path(path), ec);
    };
    for (const auto& key : tb::windows::ReadKeys(*registry, argv[2], exists)) {
      std::printf("%s: %s %s\n", key.browser.c_str(), Name(key.state), key.detail.c_str());
    }
    return 0;
  }
  if (command == "delete" && argc == 2) {
    const auto done = tb::windows::DeleteKeys(*registry);
    for (const auto& what : done.removed) std::printf("removed %s\n", what.c_str());
    for (const auto& error : done.errors) std::fprintf(stderr, "error: %s\n", error.c_str());
    return done.errors.empty() ? 0 : 1;
  }
  if (command == "register") return tb::RunRegister({argv.begin() + 2, argv.end()});
  if (command == "unregister") return tb::RunUnregister({argv.begin() + 2, argv.end()});
  if (command == "doctor" && argc == 2) {
    tb::DoctorReport report;
    tb::CheckRegistration(report, std::string(tb::kExtensionId));
    return report.failures == 0 ? 0 : 1;
  }
  std::fprintf(stderr,
               "usage: tabbridge_registry_probe point MANIFEST | read MANIFEST | delete | register ARGS | unregister | "
               "doctor\n");
  return 2;
}
