// Waiting for something to happen to a directory's entries (a host binding
// or removing its socket) without sleeping: inotify wakes us on each change.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>

namespace tb::fake {

// Re-evaluates `done` whenever an entry of `dir` is created, removed or
// changes, until it holds (true) or `timeout` passes (false). `dir` must exist.
bool WaitInDir(const std::string& dir, const std::function<bool()>& done, std::chrono::milliseconds timeout);

// Convenience checks for WaitInDir.
bool PathExists(const std::string& path);
bool IsSocket(const std::string& path);
ino_t InodeOf(const std::string& path);  // 0 when missing
// A listener accepts connections on this Unix socket path right now (a stale
// socket file left by a killed process refuses them).
bool Accepting(const std::string& path);

}  // namespace tb::fake
