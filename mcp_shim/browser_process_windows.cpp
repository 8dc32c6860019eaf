// The Windows side of browser_process.h: CreateProcessW with exactly the
// handles the browser needs (STARTUPINFOEX + PROC_THREAD_ATTRIBUTE_HANDLE_LIST,
// so no other inheritable handle of ours leaks into it), the DevTools pipe's
// handles named in --remote-debugging-io-pipes, the process watched through
// its handle. Chrome's profile lock is a file the system releases with the
// process, and a running browser answers on a message window named after
// its profile.
// winsock2.h before windows.h, as libuv's uv.h (included below) needs.
#include <winsock2.h>

#include <windows.h>
// windows.h first: io.h needs its types.
#include <io.h>

#include <algorithm>

#include <spdlog/spdlog.h>

#include "common/utf16_windows.h"
#include "mcp_shim/browser_process.h"

namespace tb {
namespace {

std::string LastError() {
  const DWORD error = ::GetLastError();
  char* text = nullptr;
  ::FormatMessageA(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
                   error, 0, reinterpret_cast<char*>(&text), 0, nullptr);
  std::string message = text != nullptr ? text : "error " + std::to_string(error);
  if (text != nullptr) ::LocalFree(text);
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r' || message.back() == '.')) {
    message.pop_back();
  }
  return message;
}

class WindowsBrowser : public BrowserProcess {
 public:
  WindowsBrowser(HANDLE process, int pid) : process_(process), pid_(pid) {}
  ~WindowsBrowser() override { ::CloseHandle(process_); }  // the browser runs on
  int pid() const override { return pid_; }
  std::optional<BrowserExit> exited() const override {
    DWORD code = 0;
    if (::WaitForSingleObject(process_, 0) != WAIT_OBJECT_0 || !::GetExitCodeProcess(process_, &code)) {
      return std::nullopt;
    }
    return BrowserExit{static_cast<std::int64_t>(code), 0};
  }
  void Stop() override { ::TerminateProcess(process_, 1); }

 private:
  HANDLE process_;
  int pid_;
};

// A kernel handle closed on every way out.
struct OwnedHandle {
  HANDLE h = INVALID_HANDLE_VALUE;
  OwnedHandle() = default;
  explicit OwnedHandle(HANDLE handle) : h(handle) {}
  OwnedHandle(const OwnedHandle&) = delete;
  OwnedHandle& operator=(const OwnedHandle&) = delete;
  ~OwnedHandle() {
    if (h != INVALID_HANDLE_VALUE && h != nullptr) ::CloseHandle(h);
  }
};

// The CRT descriptors of one pipe, closed unless released.
struct PipeFds {
  uv_file fds[2] = {-1, -1};
  ~PipeFds() {
    for (uv_file fd : fds)
      if (fd >= 0) ::_close(fd);
  }
  uv_file Release(int i) { return std::exchange(fds[i], -1); }
  HANDLE Handle(int i) const { return reinterpret_cast<HANDLE>(::_get_osfhandle(fds[i])); }
};

void SetInheritable(HANDLE h, bool inheritable) {
  ::SetHandleInformation(h, HANDLE_FLAG_INHERIT, inheritable ? HANDLE_FLAG_INHERIT : 0);
}

}  // namespace

bool ProfileSocketAnswers(const std::string& profile_dir) {
  // Chrome's process singleton: a message-only window of this class titled
  // with the profile's path; a second start hands over to it.
  return ::FindWindowExW(HWND_MESSAGE, nullptr, L"Chrome_MessageWindow", Utf16(profile_dir).c_str()) != nullptr;
}

// Chrome's lock on Windows is an open file, released by the system when its
// browser dies: nothing is ever left to clear.
std::optional<std::string> ClearStaleProfileLock(const std::string&) { return std::nullopt; }

std::expected<SpawnedProcess, std::string> SpawnBrowser(uv_loop_t*, const std::string& executable,
                                                        const std::vector<std::string>& args, bool devtools_pipe,
                                                        const std::string& log_path) {
  SECURITY_ATTRIBUTES inherit{
      .nLength = sizeof(SECURITY_ATTRIBUTES), .lpSecurityDescriptor = nullptr, .bInheritHandle = TRUE};
  // The browser's output goes to a log in its profile (our stdout is MCP); its stdin is NUL.
  OwnedHandle nul(::CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, OPEN_EXISTING,
                                FILE_ATTRIBUTE_NORMAL, nullptr));
  OwnedHandle log(::CreateFileW(Utf16(log_path).c_str(), FILE_APPEND_DATA,
                                FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &inherit, OPEN_ALWAYS,
                                FILE_ATTRIBUTE_NORMAL, nullptr));
  if (nul.h == INVALID_HANDLE_VALUE) return std::unexpected("cannot open NUL for the browser: " + LastError());
  const HANDLE out = log.h != INVALID_HANDLE_VALUE ? log.h : nul.h;
  std::vector<HANDLE> inherited = {nul.h};
  if (out != nul.h) inherited.push_back(out);

  // The DevTools pipe: the browser reads CDP from one pipe and writes to the
  // other, through blocking handles; our ends are overlapped for libuv. The
  // browser also inherits our ends, so the pipe outlives this shim and a
  // browser we launched keeps running when the MCP client restarts us.
  PipeFds to_browser, from_browser;
  std::vector<std::string> full_args = args;
  if (devtools_pipe) {
    if (const int rc = uv_pipe(to_browser.fds, 0, UV_NONBLOCK_PIPE); rc != 0) {
      return std::unexpected(std::string("cannot create the DevTools pipe: ") + uv_strerror(rc));
    }
    if (const int rc = uv_pipe(from_browser.fds, UV_NONBLOCK_PIPE, 0); rc != 0) {
      return std::unexpected(std::string("cannot create the DevTools pipe: ") + uv_strerror(rc));
    }
    for (HANDLE h : {to_browser.Handle(0), from_browser.Handle(1), to_browser.Handle(1), from_browser.Handle(0)}) {
      SetInheritable(h, true);
      inherited.push_back(h);
    }
    full_args = WithIoPipes(args, IoPipesSwitch(reinterpret_cast<std::uintptr_t>(to_browser.Handle(0)),
                                                reinterpret_cast<std::uintptr_t>(from_browser.Handle(1))));
  }

  SIZE_T size = 0;
  ::InitializeProcThreadAttributeList(nullptr, 1, 0, &size);
  std::vector<char> attributes_storage(size);
  auto* attributes = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(attributes_storage.data());
  if (!::InitializeProcThreadAttributeList(attributes, 1, 0, &size)) {
    return std::unexpected("cannot start " + executable + ": " + LastError());
  }
  const bool listed = ::UpdateProcThreadAttribute(attributes, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherited.data(),
                                                  inherited.size() * sizeof(HANDLE), nullptr, nullptr);
  STARTUPINFOEXW startup{};
  startup.StartupInfo.cb = sizeof(startup);
  startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
  startup.StartupInfo.hStdInput = nul.h;
  startup.StartupInfo.hStdOutput = out;
  startup.StartupInfo.hStdError = out;
  startup.lpAttributeList = attributes;

  const std::wstring application = Utf16(executable);
  std::wstring command_line = Utf16(WindowsCommandLine(executable, full_args));
  // Detached: no console of ours, its own process group (our Ctrl+C is not
  // its), and out of an MCP client's kill-on-close job where the job allows.
  DWORD flags = EXTENDED_STARTUPINFO_PRESENT | CREATE_UNICODE_ENVIRONMENT | CREATE_NEW_PROCESS_GROUP |
                DETACHED_PROCESS | CREATE_BREAKAWAY_FROM_JOB;
  PROCESS_INFORMATION info{};
  BOOL started = listed && ::CreateProcessW(application.c_str(), command_line.data(), nullptr, nullptr, TRUE, flags,
                                            nullptr, nullptr, &startup.StartupInfo, &info);
  if (listed && !started && ::GetLastError() == ERROR_ACCESS_DENIED) {
    flags &= ~static_cast<DWORD>(CREATE_BREAKAWAY_FROM_JOB);  // the job forbids breaking away
    started = ::CreateProcessW(application.c_str(), command_line.data(), nullptr, nullptr, TRUE, flags, nullptr,
                               nullptr, &startup.StartupInfo, &info);
  }
  const std::string error = started ? "" : LastError();
  ::DeleteProcThreadAttributeList(attributes);
  if (!started) return std::unexpected("cannot start " + executable + ": " + error);
  ::CloseHandle(info.hThread);
  spdlog::debug("started {}", WindowsCommandLine(executable, full_args));

  SpawnedProcess spawned{std::make_unique<WindowsBrowser>(info.hProcess, static_cast<int>(info.dwProcessId))};
  if (devtools_pipe) {
    // The browser's ends close with PipeFds; ours stay, no longer inheritable.
    SetInheritable(to_browser.Handle(1), false);
    SetInheritable(from_browser.Handle(0), false);
    spawned.to_browser = to_browser.Release(1);
    spawned.from_browser = from_browser.Release(0);
  }
  return spawned;
}

}  // namespace tb
