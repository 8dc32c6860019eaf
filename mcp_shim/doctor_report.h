// What `tabbridge doctor` prints: ok, note, FAIL with its fix; the failures
// counted for the exit status.
#pragma once

#include <cstdio>
#include <string>

namespace tb {

struct DoctorReport {
  int failures = 0;
  void Ok(const std::string& what) { std::printf("ok    %s\n", what.c_str()); }
  void Note(const std::string& what) { std::printf("note  %s\n", what.c_str()); }
  void Fail(const std::string& what, const std::string& fix) {
    ++failures;
    std::printf("FAIL  %s\n      fix: %s\n", what.c_str(), fix.c_str());
  }
};

// Doctor's registration step: the native-messaging manifests (Linux, macOS:
// doctor_registration.cpp) or the manifest and the HKCU keys (Windows:
// doctor_registration_windows.cpp), each checked against the template filled
// in with an existing host and `extension_id`. Returns how many browsers are
// registered.
int CheckRegistration(DoctorReport& report, const std::string& extension_id);

}  // namespace tb
