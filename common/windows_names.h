// The names Windows and WSL support will use (docs/windows.md), kept here
// because they are plain strings: the named pipe a host listens on, the
// security descriptor that keeps it the user's, the registry keys through
// which browsers find the native-messaging manifest, and how a Linux shim
// knows it runs under WSL. Nothing here calls Windows; Linux CI tests it.
#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace tb::windows {

// \\.\pipe\tabbridge-<user>-browser-<slot>: per user (pipe names are
// machine-wide, unlike a 0700 directory) and per browser, as the socket
// slots on Linux. Characters outside [A-Za-z0-9._-] in `user` become '_'.
std::string PipeName(std::string_view user, int slot);
// \\.\pipe\tabbridge-<user>: what PipeName puts before "-browser-<slot>",
// the Windows "socket directory" (SocketDir, SocketPathFor).
std::string PipePrefix(std::string_view user);

// True for a SID string such as S-1-5-21-1004336348-1177238915-682003330-512.
bool IsSid(std::string_view sid);

// The SDDL of the pipe's security descriptor: owned by the user, a protected
// DACL (no inherited entries) granting the user alone full access — no
// Everyone, no Administrators, no other session's processes.
std::expected<std::string, std::string> PipeSecurityDescriptor(std::string_view user_sid);

struct RegistryKey {
  std::string browser;  // "Google Chrome"
  std::string path;     // under HKEY_CURRENT_USER, its default value the manifest's path
};

// HKCU\Software\...\NativeMessagingHosts\com.tabbridge.host for every
// Chrome-family browser tabbridge registers with.
std::vector<RegistryKey> NativeMessagingKeys();

// Whether /proc/version (or uname -r) says this Linux is WSL.
bool IsWsl(std::string_view proc_version);

}  // namespace tb::windows
