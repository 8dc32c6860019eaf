// The Windows tabbridge.exe seen from WSL (docs/windows.md, "WSL"): inside
// WSL the MCP client runs the Windows shim through interop, so the one thing
// to tell the user is the `claude mcp add` line with its /mnt/c/... path.
// Pure: what the machine looks like comes in a Probe (tests inject one).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tb::wsl {

// Where install.ps1 puts it, for the user to fill in when none is found.
inline constexpr std::string_view kTemplatePath = "/mnt/c/Users/<you>/AppData/Local/tabbridge/tabbridge.exe";

struct Probe {
  // %LOCALAPPDATA% of the Windows user ("C:\Users\me\AppData\Local"), asked
  // through interop (cmd.exe); nullopt when interop does not answer.
  std::function<std::optional<std::string>()> local_app_data;
  // wslpath -u; nullopt when it cannot (MountPath is used then).
  std::function<std::optional<std::string>(const std::string&)> wsl_path;
  std::function<std::vector<std::string>(const std::string&)> list_dir;  // entry names
  std::function<bool(const std::string&)> exists;
  std::string user;  // $USER: whose Windows profile to prefer
};

// C:\Users\me -> /mnt/c/Users/me (WSL's default automount root); nullopt
// for anything but a drive-absolute Windows path.
std::optional<std::string> MountPath(std::string_view windows_path);

// Every installed tabbridge.exe, best first: the one under the Windows
// user's %LOCALAPPDATA% (interop), then /mnt/c/Users/*/AppData/Local/
// tabbridge/tabbridge.exe, the profile named like $USER first.
std::vector<std::string> FindInstalled(const Probe& probe);

// claude mcp add tabbridge -- <exe>, the path quoted for a POSIX shell when it needs it.
std::string McpAddLine(std::string_view exe);

// What a Linux shim under WSL that finds no browser adds to its answer.
std::string NoBrowserHint(const std::vector<std::string>& installed);

// The machine itself; `interop`: ask cmd.exe and wslpath (up to a few
// seconds), else only look under /mnt/c.
Probe SystemProbe(bool interop);

}  // namespace tb::wsl
