// The names in socket_dir.h that need no system call: where the socket
// directory is for a given environment, and what a slot's files are called
// (also the Windows pipe names', windows_names.cpp).
#include "common/socket_dir.h"

#include <string>

#include <uv.h>

namespace tb {

std::string SocketDirFor(Platform platform, const SocketDirEnv& env, long uid) {
  if (!env.socket_dir.empty()) return env.socket_dir;
  // Only an absolute base counts: a relative one would move with the working directory.
  std::string base = platform == Platform::kMacOS ? env.tmpdir : env.runtime_dir;
  while (base.size() > 1 && base.ends_with('/')) base.pop_back();  // macOS's $TMPDIR ends in '/'
  if (base.starts_with('/') && base != "/") return base + "/tabbridge";
  return "/tmp/tabbridge-" + std::to_string(uid);
}

std::string SlotName(int slot) { return "browser-" + std::to_string(slot); }
std::string SocketPathFor(Platform platform, const std::string& dir, int slot) {
  if (platform == Platform::kWindows) return dir + "-" + SlotName(slot);
  return dir + "/" + SlotName(slot) + ".sock";
}
std::string SocketPath(const std::string& dir, int slot) { return SocketPathFor(kThisPlatform, dir, slot); }
std::string LockPath(const std::string& dir, int slot) { return dir + "/" + SlotName(slot) + ".lock"; }

}  // namespace tb

namespace tb {

bool SlotTaken(int uv_error) { return uv_error == UV_EADDRINUSE || uv_error == UV_EACCES; }

std::expected<int, std::string> ChooseSlot(const std::function<int(int slot)>& bind, const std::string& where,
                                           const SquatterOf& squatter) {
  for (int slot = 0; slot < kMaxSlots; ++slot) {
    const int rc = bind(slot);
    if (rc == 0) return slot;
    if (!SlotTaken(rc)) return std::unexpected("cannot listen on " + SocketPath(where, slot) + ": " + uv_strerror(rc));
  }
  const std::string none_free = "no free slot for " + where + " (" + std::to_string(kMaxSlots) + " taken)";
  for (int slot = 0; squatter && slot < kMaxSlots; ++slot) {
    if (auto who = squatter(slot)) {
      return std::unexpected(none_free + ": another user holds tabbridge's names — " + *who + "; " + kStopSquatter +
                             " and start the browser again");
    }
  }
  return std::unexpected(none_free);
}

}  // namespace tb
