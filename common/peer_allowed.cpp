// The decisions of peer_cred.h, apart from the system calls that feed them:
// built on every platform, so Linux unit tests check the Windows one too.
#include "common/peer_cred.h"
#include "common/windows_names.h"

namespace tb {

bool PeerAllowed(long peer_uid, long allowed_uid) { return peer_uid >= 0 && peer_uid == allowed_uid; }

bool PipePeerAllowed(const std::expected<std::string, std::string>& peer_sid, std::string_view our_sid) {
  return peer_sid.has_value() && windows::IsSid(*peer_sid) && windows::IsSid(our_sid) && *peer_sid == our_sid;
}

}  // namespace tb
