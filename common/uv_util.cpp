#include "common/uv_util.h"

#include <filesystem>

namespace tb {

void CloseHandle(uv_handle_t* handle) {
  if (handle == nullptr || uv_is_closing(handle)) return;
  handle->data = nullptr;
  uv_close(handle, [](uv_handle_t* h) { delete reinterpret_cast<uv_any_handle*>(h); });
}

void RunSoon(uv_loop_t* loop, std::function<void()> task) {
  auto* timer = NewHandle<uv_timer_t>();
  uv_timer_init(loop, timer);
  timer->data = new std::function<void()>(std::move(task));
  uv_timer_start(
      timer,
      [](uv_timer_t* t) {
        std::unique_ptr<std::function<void()>> run(static_cast<std::function<void()>*>(t->data));
        CloseHandle(reinterpret_cast<uv_handle_t*>(t));
        (*run)();
      },
      0, 0);
}

Timer::Timer(uv_loop_t* loop) : handle_(NewHandle<uv_timer_t>()) {
  uv_timer_init(loop, handle_);
  handle_->data = this;
}

Timer::~Timer() { CloseHandle(reinterpret_cast<uv_handle_t*>(handle_)); }

void Timer::Start(std::uint64_t ms, std::function<void()> fire) { Arm(ms, 0, std::move(fire)); }

void Timer::StartRepeating(std::uint64_t ms, std::function<void()> fire) { Arm(ms, ms, std::move(fire)); }

void Timer::Arm(std::uint64_t ms, std::uint64_t repeat_ms, std::function<void()> fire) {
  fire_ = std::move(fire);
  uv_timer_start(
      handle_,
      [](uv_timer_t* t) {
        auto* self = static_cast<Timer*>(t->data);
        if (self == nullptr) return;
        auto callback = self->fire_;  // the callback may destroy or restart this timer
        callback();
      },
      ms, repeat_ms);
}

void Timer::Stop() { uv_timer_stop(handle_); }

DirWatch::DirWatch(uv_loop_t* loop) : handle_(NewHandle<uv_fs_event_t>()), parent_(NewHandle<uv_fs_event_t>()) {
  for (auto* h : {handle_, parent_}) {
    uv_fs_event_init(loop, h);
    h->data = this;
  }
}

DirWatch::~DirWatch() {
  CloseHandle(reinterpret_cast<uv_handle_t*>(handle_));
  CloseHandle(reinterpret_cast<uv_handle_t*>(parent_));
}

bool DirWatch::Start(const std::string& dir, std::function<void()> changed) {
  uv_fs_event_stop(handle_);  // a second Start watches the new directory only
  uv_fs_event_stop(parent_);
  dir_ = dir;
  changed_ = std::move(changed);
  if (WatchDir()) return true;
  const std::string parent = std::filesystem::path(dir).parent_path().string();
  if (parent.empty() || parent == dir || uv_fs_event_start(parent_, OnEvent, parent.c_str(), 0) != 0) return false;
  // Made between the first try and the parent's watch: no event tells of it.
  if (WatchDir()) uv_fs_event_stop(parent_);
  return true;
}

bool DirWatch::WatchDir() { return uv_fs_event_start(handle_, OnEvent, dir_.c_str(), 0) == 0; }

// An event of the directory, or of its parent while the directory is awaited:
// once it is there, it is watched instead. Other entries of the parent (/tmp
// is anyone's) are not a change of the directory.
void DirWatch::OnEvent(uv_fs_event_t* handle, const char*, int, int status) {
  auto* self = static_cast<DirWatch*>(handle->data);
  if (self == nullptr || status < 0) return;
  if (handle == self->parent_) {
    if (!self->WatchDir()) return;
    uv_fs_event_stop(self->parent_);
  }
  auto callback = self->changed_;  // the callback may destroy this watch
  callback();
}

}  // namespace tb
