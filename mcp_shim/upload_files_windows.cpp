// The Windows side of upload_files.h. The path is judged by name first
// (upload_paths.h: refused places, devices, streams, and inside a root
// before anything is opened, so no UNC server is ever contacted for a path
// outside the roots); then the file is opened, and the path it really is
// (GetFinalPathNameByHandleW: every link and junction followed) is judged
// again and read through the same handle, so the file read is the one checked.
// Not checked on Windows: the file's owner (its ACL decides who may read it).
// winsock2.h before windows.h, as libuv's uv.h (included below) needs.
#include <winsock2.h>

#include <windows.h>

#include <algorithm>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "common/audit_log.h"
#include "common/base64.h"
#include "common/policy.h"
#include "common/protocol.h"
#include "common/user_dirs.h"
#include "common/utf16_windows.h"
#include "common/utf8_path.h"
#include "mcp_shim/paths.h"
#include "mcp_shim/upload_files.h"
#include "mcp_shim/wsl_roots.h"

namespace tb {
namespace {

namespace fs = std::filesystem;

std::string MiB(std::uint64_t bytes) { return std::to_string((bytes + 1024 * 1024 - 1) / (1024 * 1024)) + " MiB"; }

std::string Env(const char* name) { return EnvUtf8(name); }  // UTF-8, not the ANSI code page

std::string Absolute(const std::string& given) {
  const std::string home = HomeDir();
  if (given == "~") return home;
  if (given.starts_with("~/") || given.starts_with("~\\")) return home + "\\" + given.substr(2);
  std::error_code ec;
  return Utf8String(fs::absolute(Utf8Path(given), ec).lexically_normal());
}

std::vector<RefusedDir> Refused() {
  WindowsUserDirs dirs{.profile = HomeDir(),
                       .appdata = Env("APPDATA"),
                       .local_appdata = Env("LOCALAPPDATA"),
                       .launch_profile = ProfileDir(),
                       .tabbridge_files = {policy::DefaultPath(), Env("TABBRIDGE_LOG_FILE")}};
  dirs.tabbridge_files.push_back(Utf8String(Utf8Path(audit::DefaultPath()).parent_path()));
  return WindowsRefusedDirs(dirs);
}

// A Chromium-family profile wherever it is: its user-data directory holds "Local State".
std::optional<std::string> InBrowserProfile(const std::string& path) {
  std::error_code ec;
  for (fs::path dir = Utf8Path(path).parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (fs::exists(dir / "Local State", ec)) {
      return "it is in the browser profile " + Utf8String(dir) + " (cookies, saved passwords, history)";
    }
    if (dir == dir.root_path()) break;
  }
  return std::nullopt;
}

std::optional<std::string> RefusalOf(const std::string& path) {
  if (auto why = WindowsRefusal(path, Refused(), HomeDir())) return why;
  // Inside a WSL distro's share: its Linux homes' dot-files (~/.ssh) as %USERPROFILE%'s.
  if (const auto share = WslShareOf(path)) {
    if (auto why = WindowsRefusal(path, {}, *share)) return why;
    // /proc, /sys, /dev as on Linux; /mnt/<drive> as the drive it is.
    std::optional<std::string> drive;
    if (auto why = WslShareRefusal(path, *share, &drive)) return why;
    if (drive) {
      if (auto why = WindowsRefusal(*drive, Refused(), HomeDir())) return why;
    }
  }
  return InBrowserProfile(path);
}

// A client inside WSL names its files as WSL paths (/home/u/a.png,
// /mnt/c/x): their Windows path (wsl_roots.h), or an error; nullopt when
// `given` is no such path (or one outside /mnt without --wsl-distro: it is
// then taken as Windows takes "\x", on the current drive).
std::optional<std::expected<std::string, std::string>> FromWsl(const std::string& given) {
  if (!given.starts_with('/') || given.starts_with("//")) return std::nullopt;
  const std::string distro = wsl::DistroFromEnvironment();
  auto windows = wsl::WindowsPathOf(given, distro);
  if (!windows && distro.empty()) return std::nullopt;
  return windows;
}

std::string LastError(DWORD error) {
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

struct Handle {
  HANDLE h = INVALID_HANDLE_VALUE;
  explicit Handle(HANDLE handle) : h(handle) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (h != INVALID_HANDLE_VALUE) ::CloseHandle(h);
  }
};

HANDLE Open(const std::string& path, bool directory) {
  return ::CreateFileW(Utf8Path(path).wstring().c_str(), directory ? FILE_READ_ATTRIBUTES : GENERIC_READ,
                       FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                       directory ? FILE_FLAG_BACKUP_SEMANTICS : FILE_ATTRIBUTE_NORMAL, nullptr);
}

// The path the open handle really is, every link followed ("C:\…" or "\\server\share\…").
std::string FinalPath(HANDLE h) {
  std::wstring buffer(1024, L'\0');
  DWORD size = ::GetFinalPathNameByHandleW(h, buffer.data(), static_cast<DWORD>(buffer.size()), FILE_NAME_NORMALIZED);
  if (size >= buffer.size()) {
    buffer.resize(size + 1);
    size = ::GetFinalPathNameByHandleW(h, buffer.data(), static_cast<DWORD>(buffer.size()), FILE_NAME_NORMALIZED);
  }
  if (size == 0 || size >= buffer.size()) return "";
  buffer.resize(size);
  std::string path = Utf8String(fs::path(buffer));
  // Without "\\?\" (and "\\?\UNC\" as "\\"), as people write paths.
  if (path.starts_with("\\\\?\\UNC\\")) return "\\\\" + path.substr(8);
  if (path.starts_with("\\\\?\\")) return path.substr(4);
  return path;
}

}  // namespace

UploadScope MakeUploadScope(const std::vector<std::string>& client_roots, bool client_has_roots,
                            const std::vector<std::string>& flag_roots, const std::string& working_dir) {
  UploadScope scope;
  const auto add = [&](const std::string& dir, UploadRoot::Source source) {
    if (!IsWindowsAbsolute(dir)) return;
    const Handle opened(Open(dir, true));
    BY_HANDLE_FILE_INFORMATION info{};
    if (opened.h == INVALID_HANDLE_VALUE || !::GetFileInformationByHandle(opened.h, &info) ||
        (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) == 0) {
      spdlog::warn("upload root {} left out: not a directory here", dir);
      return;
    }
    const std::string real = FinalPath(opened.h);
    if (real.empty()) return;
    for (const UploadRoot& root : scope.roots) {
      if (WindowsComparable(root.dir) == WindowsComparable(real)) return;
    }
    scope.roots.push_back({real, source});
  };
  if (client_has_roots) {
    for (const std::string& dir : client_roots) add(dir, UploadRoot::Source::kClient);
    if (client_roots.empty()) scope.note = "your MCP client declares no roots";
  } else {
    const std::string cwd = WindowsComparable(working_dir);
    if (cwd.size() <= 3) {  // "c:\": a whole drive would be every file
      scope.note = "the working directory is " + working_dir + " and is not taken as one";
    } else {
      add(working_dir, UploadRoot::Source::kWorkingDirectory);
    }
  }
  for (const std::string& dir : flag_roots) add(Absolute(dir), UploadRoot::Source::kFlag);
  return scope;
}

std::expected<Json, std::string> ReadUploadFiles(const Json& paths, const UploadScope& scope) {
  if (!paths.is_array() || paths.empty()) return std::unexpected("paths must name at least one file");
  Json files = Json::array();
  std::uint64_t total = 0;
  for (const Json& item : paths) {
    if (!item.is_string() || item.get<std::string>().empty()) return std::unexpected("each path must be a file's path");
    const std::string given = item.get<std::string>();
    const auto from_wsl = FromWsl(given);
    if (from_wsl && !from_wsl->has_value()) return std::unexpected(from_wsl->error());
    const std::string absolute = from_wsl ? **from_wsl : Absolute(given);
    std::string shown = absolute == given ? given : given + " (" + absolute + ")";
    const auto refused = [&](const std::string& why) {
      return std::unexpected(shown + " is refused: " + why +
                             " — tabbridge never uploads from there, whatever the roots");
    };
    const auto in_roots = [&](const std::string& path) {
      return std::ranges::any_of(scope.roots, [&](const UploadRoot& root) { return WindowsUnder(path, root.dir); });
    };
    // By name first, before anything is opened (a device, a stream, a server).
    if (auto why = WindowsRefusal(given, {}, "")) return refused(*why);
    if (auto why = RefusalOf(absolute)) return refused(*why);
    if (!in_roots(absolute)) return std::unexpected(OutsideRoots(shown, scope));
    std::error_code ec;
    if (fs::is_directory(Utf8Path(absolute), ec)) {
      return std::unexpected(shown + " is a directory — name the files in it");
    }
    const Handle file(Open(absolute, false));
    if (file.h == INVALID_HANDLE_VALUE) {
      const DWORD error = ::GetLastError();
      if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND) {
        return std::unexpected("no such file: " + shown);
      }
      return std::unexpected("cannot read " + shown + ": " + LastError(error));
    }
    // And again on the open file: what it really is, and a plain file on a disk.
    BY_HANDLE_FILE_INFORMATION info{};
    if (::GetFileType(file.h) != FILE_TYPE_DISK || !::GetFileInformationByHandle(file.h, &info) ||
        (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0) {
      return std::unexpected(shown + " is not a regular file");
    }
    const std::string real = FinalPath(file.h);
    if (real.empty()) return std::unexpected("cannot read " + shown + ": its real path is unknown");
    if (WindowsComparable(real) != WindowsComparable(absolute)) shown = given + " (" + real + ")";
    if (auto why = RefusalOf(real)) return refused(*why);
    if (!in_roots(real)) return std::unexpected(OutsideRoots(shown, scope));
    const std::uint64_t size = (static_cast<std::uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
    const auto too_big = [&](std::uint64_t bytes) {
      return std::unexpected("the files come to more than " + MiB(kMaxUploadBytes) + " (" + shown + " is " +
                             (bytes > kMaxUploadBytes ? "more than that" : MiB(bytes)) +
                             "); upload_file takes at most " + MiB(kMaxUploadBytes) + " in one call");
    };
    if (total + size > kMaxUploadBytes) return too_big(size);
    std::string bytes;
    char chunk[64 * 1024];
    for (;;) {
      DWORD n = 0;
      if (!::ReadFile(file.h, chunk, sizeof chunk, &n, nullptr)) {
        return std::unexpected("cannot read " + shown + ": " + LastError(::GetLastError()));
      }
      if (n == 0) break;
      bytes.append(chunk, n);
      if (total + bytes.size() > kMaxUploadBytes) return too_big(bytes.size());
    }
    total += bytes.size();
    // FILETIME: 100 ns since 1601; the epoch is 11644473600 s later.
    const std::uint64_t ticks =
        (static_cast<std::uint64_t>(info.ftLastWriteTime.dwHighDateTime) << 32) | info.ftLastWriteTime.dwLowDateTime;
    const auto modified_ms = static_cast<std::int64_t>(ticks / 10'000) - 11'644'473'600'000LL;
    files.push_back({{"name", Utf8String(Utf8Path(absolute).filename())},
                     {"path", real},
                     {"size", bytes.size()},
                     {"lastModified", modified_ms},
                     {"data", base64::Encode(bytes)}});
  }
  return files;
}

}  // namespace tb
