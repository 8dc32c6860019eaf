// console.h on Windows: SetConsoleOutputCP for this process's life. The code
// page belongs to the console, which outlives us (cmd.exe, PowerShell), so
// it is put back at exit and on Ctrl+C or a closed window.
#include <windows.h>

#include <atomic>
#include <cstdlib>

#include "mcp_shim/console.h"

namespace tb::console {
namespace {

std::atomic<UINT> previous_code_page{0};  // 0: nothing to restore

void Restore() {
  if (const UINT previous = previous_code_page.exchange(0); previous != 0) ::SetConsoleOutputCP(previous);
}

BOOL WINAPI OnControl(DWORD /*event*/) {
  Restore();
  return FALSE;  // and then what Windows does by default (ends the process)
}

bool IsConsole(DWORD which) {
  const HANDLE handle = ::GetStdHandle(which);
  DWORD mode = 0;
  return handle != nullptr && handle != INVALID_HANDLE_VALUE && ::GetConsoleMode(handle, &mode) != 0;
}

}  // namespace

void UseUtf8Output() {
  const UINT current = ::GetConsoleOutputCP();
  const auto wanted = OutputCodePageToSet(IsConsole(STD_OUTPUT_HANDLE), IsConsole(STD_ERROR_HANDLE), current);
  if (!wanted || current == 0 || !::SetConsoleOutputCP(*wanted)) return;
  previous_code_page = current;
  std::atexit(Restore);
  ::SetConsoleCtrlHandler(OnControl, TRUE);
}

}  // namespace tb::console
