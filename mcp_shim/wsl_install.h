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

// What the `claude mcp add` line passes as --wsl-distro when tabbridge.exe
// prints it on Windows: the line is pasted into a WSL shell, which expands it.
inline constexpr std::string_view kDistroFromShell = "\"$WSL_DISTRO_NAME\"";

// claude mcp add tabbridge -- <exe> [--wsl-distro <distro>], the path quoted
// for a POSIX shell when it needs it; `distro_word` is put in as it is (a
// shell word: ShellWord(name), or kDistroFromShell), left out when empty.
// The distro lets tabbridge.exe turn the client's /home/... roots into
// \\wsl.localhost\<distro>\home\... (wsl_roots.h).
std::string McpAddLine(std::string_view exe, std::string_view distro_word = {});
// `text` as one POSIX shell word, quoted only when it needs it.
std::string ShellWord(std::string_view text);

// Whether this WSL may start Windows programs (interop): its binfmt_misc
// entry, /proc/sys/fs/binfmt_misc/WSLInterop (or WSLInterop-late, as
// systemd distros register it), must exist and say "enabled".
enum class Interop { kEnabled, kDisabled, kMissing };
// From those files' contents (nullopt: the file does not exist).
Interop InteropFrom(const std::optional<std::string>& wsl_interop, const std::optional<std::string>& wsl_interop_late);
Interop ReadInterop();  // this machine's
// Whether this Linux is WSL: /proc/version read by windows::IsWsl.
bool RunsUnderWsl();
// Why a Windows program cannot run from here and how to enable it; empty when it can.
std::string InteropProblem(Interop interop);

// What a Linux shim under WSL that finds no browser adds to its answer:
// the line for `installed.front()` with `distro`, and the interop problem.
std::string NoBrowserHint(const std::vector<std::string>& installed, Interop interop, std::string_view distro);
// The same for this machine (ReadInterop, $WSL_DISTRO_NAME): reads two small files, never waits.
std::string NoBrowserHint(const std::vector<std::string>& installed);

// cmd.exe's answer to `echo %LOCALAPPDATA%` (code page 65001) as a Windows
// path: its first line that is a drive-absolute path, when that line is
// valid UTF-8 — nullopt rather than a garbled path when it is not (an OEM
// code page's "Zo\x89"), or for "%LOCALAPPDATA%" (unset).
std::optional<std::string> ParseLocalAppData(std::string_view output);
bool IsValidUtf8(std::string_view text);

// The machine itself; `interop`: ask cmd.exe and wslpath (up to a few
// seconds), else only look under /mnt/c.
Probe SystemProbe(bool interop);

}  // namespace tb::wsl
