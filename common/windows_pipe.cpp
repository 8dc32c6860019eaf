#include "common/windows_pipe.h"

#include <windows.h>

#include <aclapi.h>
#include <sddl.h>

#include <chrono>

#include "common/peer_cred.h"
#include "common/windows_names.h"

namespace tb::windows {
namespace {

constexpr std::string_view kPipeRoot = "\\\\.\\pipe\\";

}  // namespace

std::expected<void, std::string> ProtectPipe(void* handle, std::string_view sid) {
  const auto sddl = PipeSecurityDescriptor(sid);
  if (!sddl) return std::unexpected(sddl.error());
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  if (!::ConvertStringSecurityDescriptorToSecurityDescriptorW(Wide(*sddl).c_str(), SDDL_REVISION_1, &descriptor,
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
  const BOOL ok = ::ConvertSecurityDescriptorToStringSecurityDescriptorW(descriptor, SDDL_REVISION_1, what, &text,
                                                                          nullptr);
  std::expected<std::string, std::string> result =
      ok ? std::expected<std::string, std::string>(Utf8(text))
         : std::unexpected(LastError("ConvertSecurityDescriptorToStringSecurityDescriptorW"));
  if (text != nullptr) ::LocalFree(text);
  ::LocalFree(descriptor);
  return result;
}

std::expected<void*, PipeOpenError> OpenOwnPipe(const std::string& name, unsigned busy_wait_ms,
                                                std::string_view our_sid, const PipeSidLookup& server_sid) {
  const std::wstring wide = Wide(name);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_wait_ms);
  HANDLE pipe = INVALID_HANDLE_VALUE;
  for (;;) {
    pipe = ::CreateFileW(wide.c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_EXISTING,
                         FILE_FLAG_OVERLAPPED | SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION, nullptr);
    if (pipe != INVALID_HANDLE_VALUE) break;
    const DWORD error = ::GetLastError();
    if (error != ERROR_PIPE_BUSY) {
      if (error == ERROR_FILE_NOT_FOUND) return std::unexpected(PipeOpenError{name + ": no such pipe (no host)"});
      return std::unexpected(PipeOpenError{ErrorText(name, error)});
    }
    // Every instance is taken: wait for one to free up, not past the deadline.
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || !::WaitNamedPipeW(wide.c_str(), static_cast<DWORD>(left.count()))) {
      return std::unexpected(PipeOpenError{name + ": every instance of the pipe stayed busy for " +
                                           std::to_string(busy_wait_ms) + " ms"});
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

std::vector<std::string> ListPipes(std::string_view prefix) {
  std::vector<std::string> names;
  WIN32_FIND_DATAW entry{};
  const HANDLE find = ::FindFirstFileW(L"\\\\.\\pipe\\*", &entry);
  if (find == INVALID_HANDLE_VALUE) return names;
  do {
    std::string name = Utf8(entry.cFileName);
    if (name.starts_with(prefix)) names.push_back(std::move(name));
  } while (::FindNextFileW(find, &entry));
  ::FindClose(find);
  return names;
}

bool PipeExists(const std::string& name) {
  if (!name.starts_with(kPipeRoot)) return false;
  const std::string leaf = name.substr(kPipeRoot.size());
  for (const auto& live : ListPipes(leaf)) {
    if (live == leaf) return true;
  }
  return false;
}

}  // namespace tb::windows
