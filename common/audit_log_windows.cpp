// The audit log's file on Windows (audit_log.h; the entries are
// audit_entry.cpp). %LOCALAPPDATA%\tabbridge\audit.jsonl unless
// XDG_STATE_HOME names an absolute directory (as on Linux; tests use it).
// No POSIX modes: the file is the user's alone because %LOCALAPPDATA% is in
// the user's profile, whose ACL grants the user (and SYSTEM and the
// administrators) only. Each line is one WriteFile on a handle opened with
// FILE_APPEND_DATA alone, which Windows appends atomically, so hosts writing
// at once never interleave lines. Rotation renames the files; two hosts
// rotating at the same instant may rotate twice (no flock here): the
// older lines then sit one file further back, none is lost in the rename.
#include <windows.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/audit_log.h"
#include "common/user_dirs.h"
#include "common/windows_sid.h"

namespace tb::audit {
namespace {

namespace fs = std::filesystem;

std::string Failed(std::string_view what, const std::string& path) {
  return "audit log " + path + ": " + windows::LastError(what);
}

}  // namespace

// %LOCALAPPDATA%\tabbridge\audit.jsonl unless XDG_STATE_HOME says otherwise
// (common/user_dirs_windows.cpp).
std::string DefaultPath() { return XdgDir("XDG_STATE_HOME", ".local/state") + "\\tabbridge\\audit.jsonl"; }

std::expected<void, std::string> Log::Append(const Entry& entry) try {
  const std::string line = ToLine(entry) + "\n";
  const fs::path path = fs::u8path(path_);
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (ec) return std::unexpected("audit log " + path_ + ": cannot create its directory: " + ec.message());
  const auto size = fs::file_size(path, ec);
  if (!ec && size > 0 && size + line.size() > max_bytes_) {
    for (int i = kKeptFiles - 1; i >= 0; --i) {
      std::error_code rename_error;
      fs::rename(fs::u8path(RotatedPath(path_, i)), fs::u8path(RotatedPath(path_, i + 1)), rename_error);
    }
  }
  // FILE_APPEND_DATA without FILE_WRITE_DATA: every write goes to the end.
  const HANDLE file =
      ::CreateFileW(path.wstring().c_str(), FILE_APPEND_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                    nullptr, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE) return std::unexpected(Failed("open", path_));
  std::expected<void, std::string> result;
  DWORD written = 0;
  if (::GetFileType(file) != FILE_TYPE_DISK) {
    result = std::unexpected("audit log " + path_ + ": not a regular file");
  } else if (!::WriteFile(file, line.data(), static_cast<DWORD>(line.size()), &written, nullptr)) {
    result = std::unexpected(Failed("write", path_));
  } else if (written != line.size()) {
    result = std::unexpected("audit log " + path_ + ": short write (disk full?)");
  }
  ::CloseHandle(file);
  return result;
} catch (const std::exception& e) {  // std::bad_alloc, a path that is not UTF-8
  return std::unexpected("audit log " + path_ + ": " + e.what());
}

std::vector<std::string> TailLines(const std::string& path, std::size_t n) {
  std::vector<std::string> newest_first;
  for (int i = 0; i <= kKeptFiles && newest_first.size() < n; ++i) {
    // Each file stays near kMaxBytes, so it is read whole.
    std::ifstream in(fs::u8path(RotatedPath(path, i)), std::ios::binary);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.size() <= kMaxLineBytes && !line.empty() && line.front() == '{' && Json::accept(line)) {
        lines.push_back(std::move(line));
      }
    }
    for (auto it = lines.rbegin(); it != lines.rend() && newest_first.size() < n; ++it) {
      newest_first.push_back(std::move(*it));
    }
  }
  std::reverse(newest_first.begin(), newest_first.end());
  return newest_first;
}

}  // namespace tb::audit
