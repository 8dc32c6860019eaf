// BrowserPid on Windows: the process snapshot (Windows has no getppid), walked
// up past the cmd.exe Chrome starts us through.
#include <windows.h>

#include <tlhelp32.h>

#include "common/utf16_windows.h"
#include "host/browser_pid.h"

namespace tb {

long BrowserPid() {
  const HANDLE snapshot = ::CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (snapshot == INVALID_HANDLE_VALUE) return 0;
  std::vector<ProcessEntry> processes;
  PROCESSENTRY32W entry{};
  entry.dwSize = sizeof(entry);
  for (BOOL more = ::Process32FirstW(snapshot, &entry); more; more = ::Process32NextW(snapshot, &entry)) {
    processes.push_back({.pid = static_cast<long>(entry.th32ProcessID),
                         .parent = static_cast<long>(entry.th32ParentProcessID),
                         .exe = Utf8(entry.szExeFile)});
  }
  ::CloseHandle(snapshot);
  return BrowserPidAmong(static_cast<long>(::GetCurrentProcessId()), processes);
}

}  // namespace tb
