// Who is at the other end of a Unix socket: the host checks every client, the
// shim checks the host before it says anything (docs/policy.md "Threat model":
// another local user must not stand in for either).
#pragma once

namespace tb {

// The uid of a connected Unix-socket peer (SO_PEERCRED on Linux, getpeereid
// on macOS; for a listener, its uid as of listen()), or -1.
long PeerUid(int fd);
// The decision, apart from the system call: a known uid that is `allowed_uid`.
bool PeerAllowed(long peer_uid, long allowed_uid);

}  // namespace tb
