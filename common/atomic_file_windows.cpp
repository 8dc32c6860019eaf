// ReplaceFile on Windows: the profile's own directory is the user's alone
// (its ACL), so a fixed temporary name beside the file is enough there.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "common/atomic_file.h"
#include "common/utf8_path.h"

namespace tb {

std::expected<void, std::string> ReplaceFile(const std::string& path, std::string_view text) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::path file = Utf8Path(path);
  if (fs::is_symlink(fs::symlink_status(file, error))) file = fs::weakly_canonical(file, error);
  fs::create_directories(file.parent_path(), error);
  fs::path temporary = file;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out || !(out << text) || !out.flush()) return std::unexpected("cannot write " + Utf8String(temporary));
  }
  fs::rename(temporary, file, error);
  if (error) {
    fs::remove(temporary, error);
    return std::unexpected("cannot replace " + Utf8String(file) + ": " + error.message());
  }
  return {};
}

FileStamp StampOf(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::path file = Utf8Path(path);
  if (fs::is_symlink(fs::symlink_status(file, error))) file = fs::weakly_canonical(file, error);
  const auto size = fs::file_size(file, error);
  if (error) return {};
  const auto time = fs::last_write_time(file, error);
  if (error) return {};
  return {.exists = true,
          .size = static_cast<std::uint64_t>(size),
          .mtime_ns = static_cast<std::int64_t>(
              std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count())};
}

// No exchange on Windows: the compare runs just before the rename.
std::expected<bool, std::string> ReplaceFileIf(const std::string& path, std::string_view text, const FileStamp& read) {
  if (StampOf(path) != read) return false;
  auto ok = ReplaceFile(path, text);
  if (!ok) return std::unexpected(ok.error());
  return true;
}

}  // namespace tb
