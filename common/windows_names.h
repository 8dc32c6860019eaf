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
// \\.\pipe\tabbridge-<user>: what PipeName puts before "-browser-<slot>";
// the base of PrivatePipePrefix, and the Windows "socket directory" only
// where no private prefix can be kept (SocketDir, SocketPathFor).
std::string PipePrefix(std::string_view user);

// The user's private pipe prefix: PipePrefix(user) + "-" + 32 hex digits of
// `random` (16 bytes). Pipe names are machine-wide, so another local user
// who knows a name can create it first (and take all 64 slots). A name made
// random per user, kept where only the user can read it
// (%LOCALAPPDATA%\tabbridge\pipe-prefix, socket_dir_windows.cpp), is unknown
// to them until a host listens (pipe names can be listed); a host that then
// finds all taken renews it. A SID in the name would not do: SIDs are public.
std::string PrivatePipePrefix(std::string_view user, const unsigned char (&random)[16]);
// Whether `text` is a PrivatePipePrefix of `user` (the file's one line).
bool IsPrivatePipePrefix(std::string_view text, std::string_view user);

// True for a SID string such as S-1-5-21-1004336348-1177238915-682003330-512.
bool IsSid(std::string_view sid);

// The SDDL of the pipe's security descriptor: owned by the user, a protected
// DACL (no inherited entries) that first denies network logons everything,
// then grants the user alone full access — no Everyone, no Administrators,
// no other session's processes, not the user from another machine.
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
