#include "common/windows_pipe.h"

#include <windows.h>

#include <aclapi.h>
#include <fcntl.h>
#include <io.h>
#include <sddl.h>

#include <chrono>

#include "common/peer_cred.h"
#include "common/utf16_windows.h"
#include "common/windows_names.h"

namespace tb::windows {
namespace {

constexpr std::string_view kPipeRoot = "\\\\.\\pipe\\";

}  // namespace

std::expected<void, std::string> ProtectPipe(void* handle, std::string_view sid) {
  const auto sddl = PipeSecurityDescriptor(sid);
  if (!sddl) return std::unexpected(sddl.error());
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  if (!::ConvertStringSecurityDescriptorToSecurityDescriptorW(Utf16(*sddl).c_str(), SDDL_REVISION_1, &descriptor,
                                                              nullptr)) {
    return std::unexpected(LastError("ConvertStringSecurityDescriptorToSecurityDescriptorW"));
  }
  BOOL present = FALSE;
  BOOL defaulted = FALSE;
  PACL dacl = nullptr;
  std::expected<void, std::string> result;
  if (!::GetSecurityDescriptorDacl(descriptor, &present, &dacl, &defaulted) || !present) {
    result = std::unexpected(LastError("GetSecurityDescriptorDacl"));
  } else if (const DWORD rc = ::SetSecurityInfo(handle, SE_KERNEL_OBJECT,
                                                DACL_SECURITY_INFORMATION | PROTECTED_DACL_SECURITY_INFORMATION,
                                                nullptr, nullptr, dacl, nullptr);
             rc != ERROR_SUCCESS) {
    // Only the DACL: libuv's instances have WRITE_DAC, not WRITE_OWNER. The
    // owner is whoever created the pipe, which is us.
    result = std::unexpected(ErrorText("SetSecurityInfo", rc));
  }
  ::LocalFree(descriptor);
  return result;
}

std::expected<std::string, std::string> SecurityDescriptorOf(void* handle) {
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  const SECURITY_INFORMATION what = OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION;
  if (const DWORD rc =
          ::GetSecurityInfo(handle, SE_KERNEL_OBJECT, what, nullptr, nullptr, nullptr, nullptr, &descriptor);
      rc != ERROR_SUCCESS) {
    return std::unexpected(ErrorText("GetSecurityInfo", rc));
  }
  LPWSTR text = nullptr;
  const BOOL ok =
      ::ConvertSecurityDescriptorToStringSecurityDescriptorW(descriptor, SDDL_REVISION_1, what, &text, nullptr);
  std::expected<std::string, std::string> result =
      ok ? std::expected<std::string, std::string>(Utf8(text))
         : std::unexpected(LastError("ConvertSecurityDescriptorToStringSecurityDescriptorW"));
  if (text != nullptr) ::LocalFree(text);
  ::LocalFree(descriptor);
  return result;
}

std::expected<void*, PipeOpenError> OpenOwnPipe(const std::string& name, unsigned busy_wait_ms,
                                                std::string_view our_sid, const PipeSidLookup& server_sid,
                                                bool overlapped) {
  const std::wstring wide = Utf16(name);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_wait_ms);
  HANDLE pipe = INVALID_HANDLE_VALUE;
  for (;;) {
    pipe = ::CreateFileW(wide.c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_EXISTING,
                         (overlapped ? FILE_FLAG_OVERLAPPED : 0) | SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION,
                         nullptr);
    if (pipe != INVALID_HANDLE_VALUE) break;
    const DWORD error = ::GetLastError();
    if (error != ERROR_PIPE_BUSY) {
      if (error == ERROR_FILE_NOT_FOUND) return std::unexpected(PipeOpenError{name + ": no such pipe (no host)"});
      return std::unexpected(PipeOpenError{ErrorText(name, error)});
    }
    // Every instance is taken: wait for one to free up, not past the deadline.
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || !::WaitNamedPipeW(wide.c_str(), static_cast<DWORD>(left.count()))) {
      return std::unexpected(
          PipeOpenError{name + ": every instance of the pipe stayed busy for " + std::to_string(busy_wait_ms) + " ms"});
    }
  }
  const auto sid = server_sid(pipe);
  if (!PipePeerAllowed(sid, our_sid)) {
    ::CloseHandle(pipe);
    const std::string who = sid ? "user " + *sid : "an unknown user (" + sid.error() + ")";
    return std::unexpected(PipeOpenError{name + ": the process serving it runs as " + who + ", not as you (" +
                                             std::string(our_sid) +
                                             ") — not a tabbridge host of yours; nothing was sent to it",
                                         true});
  }
  return static_cast<void*>(pipe);
}

std::expected<int, PipeOpenError> OpenOwnPipeFd(const std::string& name, unsigned busy_wait_ms,
                                                std::string_view our_sid, const PipeSidLookup& server_sid) {
  auto pipe = OpenOwnPipe(name, busy_wait_ms, our_sid, server_sid);
  if (!pipe) return std::unexpected(pipe.error());
  const int fd = ::_open_osfhandle(reinterpret_cast<intptr_t>(*pipe), _O_BINARY);
  if (fd < 0) {
    ::CloseHandle(*pipe);
    return std::unexpected(PipeOpenError{name + ": no C runtime descriptor for the pipe"});
  }
  return fd;
}

bool PipeExists(const std::string& name) {
  if (!name.starts_with(kPipeRoot)) return false;
  // Asks the pipe file system, connecting to nothing: no such pipe fails at
  // once with ERROR_FILE_NOT_FOUND; a pipe with a free instance returns TRUE,
  // one whose instances are all busy times out after 1 ms (ERROR_SEM_TIMEOUT).
  if (::WaitNamedPipeW(Utf16(name).c_str(), 1)) return true;
  const DWORD error = ::GetLastError();
  return error != ERROR_FILE_NOT_FOUND && error != ERROR_BAD_PATHNAME && error != ERROR_INVALID_NAME;
}

}  // namespace tb::windows
