// Who is at the other end of a Unix socket (or a Windows named pipe): the host checks every client, the
// shim checks the host before it says anything (docs/policy.md "Threat model":
// another local user must not stand in for either).
#pragma once

#include <expected>
#include <string>
#include <string_view>

namespace tb {

// The uid of a connected Unix-socket peer (SO_PEERCRED on Linux, getpeereid
// on macOS; for a listener, its uid as of listen()), or -1.
long PeerUid(int fd);
// The decision, apart from the system call: a known uid that is `allowed_uid`.
bool PeerAllowed(long peer_uid, long allowed_uid);

// The Windows form (a named pipe's peer, windows_sid.h): the peer process's
// user SID, or why it could not be read, against ours. Only a well-formed SID
// equal to `our_sid` passes; an unreadable peer is refused.
bool PipePeerAllowed(const std::expected<std::string, std::string>& peer_sid, std::string_view our_sid);

}  // namespace tb
