// tabbridge.exe's text on a Windows console. tabbridge writes UTF-8 (paths
// with a user named "Zoë"); a console shows bytes in its output code page
// (OEM: 437, 850…), so while tabbridge.exe runs on one its code page is
// UTF-8 (65001) and the old one comes back at exit. A pipe or a file (the MCP
// channel on stdout, PowerShell capturing `& $exe wsl`) gets the same UTF-8
// bytes, untouched: nothing is converted, nothing else is written.
#pragma once

#include <optional>

namespace tb::console {

inline constexpr unsigned kUtf8CodePage = 65001;  // CP_UTF8

// The code page to set: UTF-8 when stdout is a console whose output code
// page is another; nullopt when stdout is a pipe or file (the MCP server,
// even with stderr on a console: that console is the client's), or UTF-8.
std::optional<unsigned> OutputCodePageToSet(bool stdout_is_console, bool stderr_is_console, unsigned current_code_page);

#ifdef _WIN32
// Sets it (console_windows.cpp) and restores the previous one at exit or
// Ctrl+C. (argv and getenv are UTF-8 already: every .exe's manifest makes
// UTF-8 its ANSI code page, cmake/windows_utf8.manifest; the console's
// output code page is not the ANSI one.)
void UseUtf8Output();
#else
inline void UseUtf8Output() {}  // a terminal takes the bytes as they are
#endif

}  // namespace tb::console
