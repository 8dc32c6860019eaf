// Small owners for libuv handles. A handle's memory must outlive uv_close(),
// so handles live in heap blocks that the close callback frees; the C++ owner
// may go away first.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <uv.h>

namespace tb {

// Allocates storage for any handle type; free it only through CloseHandle.
template <typename H>
H* NewHandle() {
  return reinterpret_cast<H*>(new uv_any_handle{});
}

// Idempotent: closing a handle twice is a no-op.
void CloseHandle(uv_handle_t* handle);

// Destroys `object` on the next loop turn: for owners that must let go of an
// object from inside one of its own callbacks.
void RunSoon(uv_loop_t* loop, std::function<void()> task);
template <typename T>
void DeleteSoon(uv_loop_t* loop, std::unique_ptr<T> object) {
  RunSoon(loop, [p = object.release()] { delete p; });
}

// A one-shot (or restartable) timer whose callback never outlives the owner.
class Timer {
 public:
  explicit Timer(uv_loop_t* loop);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  void Start(std::uint64_t ms, std::function<void()> fire);
  void StartRepeating(std::uint64_t ms, std::function<void()> fire);
  void Stop();

 private:
  void Arm(std::uint64_t ms, std::uint64_t repeat_ms, std::function<void()> fire);

  uv_timer_t* handle_;
  std::function<void()> fire_;
};

// Calls `changed` whenever an entry of a directory is made, removed or
// renamed (uv_fs_event: inotify, FSEvents, ReadDirectoryChangesW), so a
// waiter sees a new socket at once instead of at its next poll. A directory
// not there yet (the first host makes the socket directory) is waited for in
// its parent: its appearance calls `changed`, and from then on its own
// entries do. Start fails (false) where neither can be watched: keep polling.
class DirWatch {
 public:
  explicit DirWatch(uv_loop_t* loop);
  ~DirWatch();
  DirWatch(const DirWatch&) = delete;
  DirWatch& operator=(const DirWatch&) = delete;

  bool Start(const std::string& dir, std::function<void()> changed);

 private:
  bool WatchDir();
  static void OnEvent(uv_fs_event_t* handle, const char* name, int events, int status);

  uv_fs_event_t* handle_;
  uv_fs_event_t* parent_;  // while dir_ is missing
  std::string dir_;
  std::function<void()> changed_;
};

}  // namespace tb
