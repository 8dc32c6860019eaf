// Small owners for libuv handles. A handle's memory must outlive uv_close(),
// so handles live in heap blocks that the close callback frees; the C++ owner
// may go away first.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

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

}  // namespace tb
