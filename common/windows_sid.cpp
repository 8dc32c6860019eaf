#include "common/windows_sid.h"
#include "common/utf16_windows.h"

#include <windows.h>

#include <sddl.h>

#include <memory>
#include <vector>

namespace tb::windows {
namespace {

// Closes a HANDLE on every path out.
struct HandleCloser {
  void operator()(HANDLE h) const {
    if (h != nullptr && h != INVALID_HANDLE_VALUE) ::CloseHandle(h);
  }
};
using UniqueHandle = std::unique_ptr<void, HandleCloser>;

SidOrError TokenUserSid(HANDLE token, std::string_view whose) {
  DWORD size = 0;
  ::GetTokenInformation(token, TokenUser, nullptr, 0, &size);
  if (size == 0) return std::unexpected(LastError("GetTokenInformation(" + std::string(whose) + ")"));
  std::vector<unsigned char> buffer(size);
  if (!::GetTokenInformation(token, TokenUser, buffer.data(), size, &size)) {
    return std::unexpected(LastError("GetTokenInformation(" + std::string(whose) + ")"));
  }
  const auto* user = reinterpret_cast<const TOKEN_USER*>(buffer.data());
  LPWSTR text = nullptr;
  if (!::ConvertSidToStringSidW(user->User.Sid, &text)) return std::unexpected(LastError("ConvertSidToStringSidW"));
  std::string sid = Utf8(text);
  ::LocalFree(text);
  return sid;
}

}  // namespace

std::string ErrorText(std::string_view what, unsigned long code) {
  LPWSTR text = nullptr;
  const DWORD n =
      ::FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                       nullptr, code, 0, reinterpret_cast<LPWSTR>(&text), 0, nullptr);
  std::string message = n > 0 ? Utf8(std::wstring_view(text, n)) : std::string("unknown error");
  if (text != nullptr) ::LocalFree(text);
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r' || message.back() == ' ')) {
    message.pop_back();
  }
  return std::string(what) + ": " + message + " (error " + std::to_string(code) + ")";
}

std::string LastError(std::string_view what) { return ErrorText(what, ::GetLastError()); }

SidOrError CurrentUserSid() {
  HANDLE raw = nullptr;
  if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &raw)) {
    return std::unexpected(LastError("OpenProcessToken(self)"));
  }
  UniqueHandle token(raw);
  return TokenUserSid(raw, "self");
}

SidOrError ProcessUserSid(unsigned long pid) {
  UniqueHandle process(::OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid));
  if (!process) return std::unexpected(LastError("OpenProcess(" + std::to_string(pid) + ")"));
  HANDLE raw = nullptr;
  if (!::OpenProcessToken(process.get(), TOKEN_QUERY, &raw)) {
    return std::unexpected(LastError("OpenProcessToken(" + std::to_string(pid) + ")"));
  }
  UniqueHandle token(raw);
  return TokenUserSid(raw, "process " + std::to_string(pid));
}

SidOrError PipeClientSid(void* pipe) {
  ULONG pid = 0;
  if (!::GetNamedPipeClientProcessId(pipe, &pid)) return std::unexpected(LastError("GetNamedPipeClientProcessId"));
  return ProcessUserSid(pid);
}

SidOrError PipeServerSid(void* pipe) {
  ULONG pid = 0;
  if (!::GetNamedPipeServerProcessId(pipe, &pid)) return std::unexpected(LastError("GetNamedPipeServerProcessId"));
  return ProcessUserSid(pid);
}

std::string CurrentUserName() {
  wchar_t name[257];
  DWORD size = 257;
  if (!::GetUserNameW(name, &size) || size <= 1) return "user";
  return Utf8(std::wstring_view(name, size - 1));  // size counts the terminating NUL
}

}  // namespace tb::windows
