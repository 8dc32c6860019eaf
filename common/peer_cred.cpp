#include "common/peer_cred.h"

#include <sys/socket.h>
#include <unistd.h>

namespace tb {

long PeerUid(int fd) {
#if defined(__APPLE__) || defined(__FreeBSD__)
  // The BSDs have no SO_PEERCRED; getpeereid reads the same kernel record
  // (the peer's credentials as of connect() or listen()).
  uid_t uid = 0;
  gid_t gid = 0;
  if (getpeereid(fd, &uid, &gid) != 0) return -1;
  return static_cast<long>(uid);
#else
  struct ucred cred {};
  socklen_t len = sizeof(cred);
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
  return static_cast<long>(cred.uid);
#endif
}

}  // namespace tb
