// upload_file's decisions on a path's text alone (upload_files.h reads the
// files): the file:// URIs of the client's roots, and on Windows how paths
// compare and which places are never read. Pure over a Platform and the
// user's directories, so the Windows rules are unit-tested on Linux too.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/platform.h"

namespace tb {

// A file:// URI of roots/list as a local path, or nullopt (another scheme, a
// bad escape, a NUL; a remote host except on Windows). On Windows
// "file:///C:/a%20b" (or "file:///c%3A/a", as VS Code writes it) is
// "C:\a b" and "file://server/share/x" the UNC path "\\server\share\x".
std::optional<std::string> PathOfFileUri(const std::string& uri, Platform platform = kThisPlatform);

// Windows paths for comparing: "\" separators, the "\\?\" (and "\\?\UNC\")
// prefix of long and final paths taken off, lower case (NTFS names are
// case-insensitive), no trailing separator but after a drive ("c:\").
std::string WindowsComparable(std::string_view path);
// Whether `path` is an absolute Windows path: "C:\…" or "C:/…", or UNC "\\server\share…".
bool IsWindowsAbsolute(std::string_view path);
// `path` is `dir` or inside it, both compared as above.
bool WindowsUnder(std::string_view path, std::string_view dir);

// "\\wsl.localhost\Ubuntu" (or "\\wsl$\Ubuntu") for a path inside a WSL
// distro's share, in the path's case; nullopt for any other path. A Linux
// home is in there, so its dot-files are refused as %USERPROFILE%'s are.
std::optional<std::string> WslShareOf(std::string_view path);

// Inside a WSL share (`share` from WslShareOf): why `path` is refused as
// Linux refuses it (/proc, /sys, /dev: a process's environ holds its
// secrets), or nullopt. `drive_path` is set to the Windows path a
// <share>\mnt\<letter>\… path is ("C:\…"), for the Windows refusals.
std::optional<std::string> WslShareRefusal(std::string_view path, std::string_view share,
                                           std::optional<std::string>* drive_path);

// What a Windows user's secrets are kept under, as the environment names it.
struct WindowsUserDirs {
  std::string profile;                       // %USERPROFILE% (HomeDir)
  std::string appdata;                       // %APPDATA% (Roaming)
  std::string local_appdata;                 // %LOCALAPPDATA%
  std::string launch_profile;                // the browser profile tabbridge launches (ProfileDir)
  std::vector<std::string> tabbridge_files;  // the policy file, the audit log's directory, the log file…
};

struct RefusedDir {
  std::string dir;
  std::string why;
};

// Never read on Windows, whatever the roots: %APPDATA% whole (every
// program's roaming settings and tokens, Firefox's profiles), the browsers'
// user data under %LOCALAPPDATA% (Chrome, Chromium, Edge, Brave, Vivaldi),
// %LOCALAPPDATA%\tabbridge and tabbridge's own files.
std::vector<RefusedDir> WindowsRefusedDirs(const WindowsUserDirs& dirs);

// Why `path` (absolute) may never be read on Windows, from its text: under a
// refused directory; hidden under %USERPROFILE% (.ssh, .aws, a project's
// .env); a device ("\\.\", "\\?\GLOBALROOT", CON, NUL, COM1…); an
// alternate data stream ("file.txt:secret"). nullopt when none applies.
std::optional<std::string> WindowsRefusal(const std::string& path, const std::vector<RefusedDir>& refused,
                                          const std::string& home);

}  // namespace tb
