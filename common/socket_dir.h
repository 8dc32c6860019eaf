// Where hosts publish their sockets and how a slot is named (docs/protocol.md §2).
#pragma once

#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/platform.h"

namespace tb {

// The environment SocketDirFor reads ("" for unset).
struct SocketDirEnv {
  std::string socket_dir;   // $TABBRIDGE_SOCKET_DIR
  std::string runtime_dir;  // $XDG_RUNTIME_DIR
  std::string tmpdir;       // $TMPDIR
};

// $TABBRIDGE_SOCKET_DIR, else on Linux $XDG_RUNTIME_DIR/tabbridge and on
// macOS $TMPDIR/tabbridge (launchd gives each user a private
// /var/folders/.../T/; macOS has no XDG_RUNTIME_DIR), else /tmp/tabbridge-<uid>.
std::string SocketDirFor(Platform platform, const SocketDirEnv& env, long uid);
// The above for this process.
std::string SocketDir();

// Creates the directory 0700 if missing; refuses one owned by another user or
// open to others (and says why), so nobody else can plant a socket there.
std::expected<void, std::string> EnsurePrivateDir(const std::string& dir);

// Checks the directory without changing it (for `tabbridge doctor`).
std::expected<void, std::string> CheckPrivateDir(const std::string& dir);

// For a client about to trust what listens in `dir`: false when it does not
// exist (no host has run), true when it is ours and 0700, else why not —
// another user may have made it first (/tmp/tabbridge-<uid>) and put a fake
// host in it. Never creates or changes it: that is the host's to do.
std::expected<bool, std::string> ExistingPrivateDir(const std::string& dir);

std::string SlotName(int slot);  // "browser-<slot>"
// Where slot `slot` listens: <dir>/browser-<slot>.sock; on Windows `dir` is a
// pipe prefix (the user's private \\.\pipe\tabbridge-<user>-<random>,
// windows::PrivatePipePrefix) and this is <dir>-browser-<slot>, the pipe's name.
std::string SocketPathFor(Platform platform, const std::string& dir, int slot);
std::string SocketPath(const std::string& dir, int slot);  // for this platform
std::string LockPath(const std::string& dir, int slot);

// Slots that have a socket file, in order. A listed slot may be stale.
// Windows: the pipes of \\.\pipe\ named <dir>-browser-<n> (no pipe outlives its server).
std::vector<int> ListSlots(const std::string& dir);

// Slots numbered past this are not tried: a bound on a runaway directory.
inline constexpr int kMaxSlots = 64;

// Whether a bind error means "this slot's name is someone's already: try the
// next". libuv on Windows creates a pipe's first instance with
// FILE_FLAG_FIRST_PIPE_INSTANCE and turns a name in use (ours or a squatter's)
// into UV_EADDRINUSE, an unusable one into UV_EACCES.
bool SlotTaken(int uv_error);

// The first slot from 0 that `bind` (a libuv result: 0 or a UV_E* code)
// takes; a taken slot (SlotTaken) moves on to the next, any other error ends
// the search with that error. Pure: the Windows host's slot choice, tested
// with injected failures (Wine does not enforce FIRST_PIPE_INSTANCE).
// Every slot taken: `squatter(slot)` (when given) says who serves a slot when
// that is another user (Windows pipe names are machine-wide: another user can
// take them all first), and the error names the first such one.
// What a Windows user is told to do about another user's process serving a pipe of ours.
inline constexpr const char* kStopSquatter = "stop that user's process (Task Manager, Details, the User name column)";
using SquatterOf = std::function<std::optional<std::string>(int slot)>;
std::expected<int, std::string> ChooseSlot(const std::function<int(int slot)>& bind, const std::string& where,
                                           const SquatterOf& squatter = nullptr);

}  // namespace tb
