// The Windows named pipe's security, apart from libuv: the protected DACL a
// host puts on its pipe, reading a pipe's descriptor back, a client's open
// that checks who serves the pipe before any byte goes out, and the list of
// live pipe names. Windows only (windows_pipe.cpp; docs/windows.md).
#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "common/windows_sid.h"

namespace tb::windows {

// Replaces the DACL of the pipe `handle` (needs WRITE_DAC, which libuv's
// server instances have) by PipeSecurityDescriptor(sid)'s: protected (no
// inherited entries), network logons denied, `sid` granted everything.
std::expected<void, std::string> ProtectPipe(void* handle, std::string_view sid);

// The owner and DACL of `handle` as SDDL ("O:…D:P(A;;…;;;S-…)").
std::expected<std::string, std::string> SecurityDescriptorOf(void* handle);

struct PipeOpenError {
  std::string message;
  bool refused = false;  // it opened, but another user's process serves it: nothing was sent
};

// Opens the pipe `name` as a client: overlapped (for libuv), with
// SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION (the server may learn who
// we are, never act as us). While every instance is busy, waits for one up to
// `busy_wait_ms` (WaitNamedPipeW). Then `server_sid` names who serves it, and
// unless PipePeerAllowed(that, our_sid) the handle is closed and the error
// says so — before we write anything. The caller owns the handle returned.
// `overlapped` false: for blocking readers (the test tools), not libuv.
std::expected<void*, PipeOpenError> OpenOwnPipe(const std::string& name, unsigned busy_wait_ms,
                                                std::string_view our_sid,
                                                const PipeSidLookup& server_sid = PipeServerSid,
                                                bool overlapped = true);

// The same as a C runtime descriptor owning the handle (_open_osfhandle), for
// uv_pipe_open, which then owns it.
std::expected<int, PipeOpenError> OpenOwnPipeFd(const std::string& name, unsigned busy_wait_ms,
                                                std::string_view our_sid,
                                                const PipeSidLookup& server_sid = PipeServerSid);

// The user's private pipe prefix (windows::PrivatePipePrefix) kept in
// `dir`\pipe-prefix: read when the file holds one, else made from the
// system's random generator and written (socket_dir_windows.cpp).
std::expected<std::string, std::string> LoadPrivatePipePrefix(const std::string& dir, std::string_view user);
// A fresh one written over it: once the names are public (any user can list
// \\.\pipe\ while a host listens) another user can take them all later.
std::expected<std::string, std::string> RenewPrivatePipePrefix(const std::string& dir, std::string_view user);
// RenewPrivatePipePrefix in %LOCALAPPDATA%\tabbridge when `dir` is this user's
// private prefix (not one TABBRIDGE_SOCKET_DIR names): the new SocketDir().
std::expected<std::string, std::string> RenewSocketDir(const std::string& dir);

// Whether a pipe of exactly this full name (\\.\pipe\…) exists now
// (WaitNamedPipeW with a 1 ms wait: it connects to nothing).
bool PipeExists(const std::string& name);

}  // namespace tb::windows
