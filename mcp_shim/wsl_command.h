// `tabbridge wsl`: the `claude mcp add` line that lets an MCP client inside
// WSL use the Windows tabbridge.exe (docs/windows.md, "WSL").
#pragma once

#include <string>
#include <vector>

namespace tb {

// Inside WSL: finds the installed tabbridge.exe (wsl_install.h) and prints
// the line, with --wsl-distro $WSL_DISTRO_NAME; 1 when none is installed or
// interop is off (Windows programs cannot run: the line would fail). On
// Windows: the line for this tabbridge.exe, as WSL sees it, the distro left
// to the WSL shell ("$WSL_DISTRO_NAME"). Elsewhere: 1, it is not WSL.
int RunWsl(const std::vector<std::string>& args);

}  // namespace tb
