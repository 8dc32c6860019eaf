// Who a Windows process is: the user SID of our own token and of another
// process (the peer of a named pipe), as SID strings (S-1-5-21-…). The
// decision on them is PipePeerAllowed (peer_cred.h), pure and tested on Linux.
// Windows only (windows_sid.cpp); handles are void* so no <windows.h> leaks.
#pragma once

#include <expected>
#include <functional>
#include <string>
#include <string_view>

namespace tb::windows {

using SidOrError = std::expected<std::string, std::string>;

// The user SID of this process's token (GetTokenInformation(TokenUser)).
SidOrError CurrentUserSid();
// The user SID of process `pid` (PROCESS_QUERY_LIMITED_INFORMATION, its token).
SidOrError ProcessUserSid(unsigned long pid);
// The user SID of the process at the other end of a connected pipe:
// GetNamedPipeClientProcessId on a server's instance, GetNamedPipeServerProcessId
// on a client's handle.
SidOrError PipeClientSid(void* pipe);
SidOrError PipeServerSid(void* pipe);

// Looks up a pipe peer's SID; tests inject another user's.
using PipeSidLookup = std::function<SidOrError(void* pipe)>;

// The logged-on user's name (GetUserNameW), UTF-8; "user" when unknown.
std::string CurrentUserName();

// "what: <FormatMessage text> (error N)" for GetLastError() or `code`.
std::string LastError(std::string_view what);
std::string ErrorText(std::string_view what, unsigned long code);

}  // namespace tb::windows
