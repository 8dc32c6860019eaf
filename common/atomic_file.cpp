#include "common/atomic_file.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace tb {

namespace {

namespace fs = std::filesystem;

// The file a link at `path` points to (the user's choice of where it lives).
fs::path Target(const std::string& path) {
  std::error_code error;
  fs::path file = path;
  if (fs::is_symlink(fs::symlink_status(file, error))) file = fs::weakly_canonical(file, error);
  return file;
}

FileStamp Stamp(const struct stat& st) {
  return {.exists = true,
          .device = static_cast<std::uint64_t>(st.st_dev),
          .inode = static_cast<std::uint64_t>(st.st_ino),
          .size = static_cast<std::uint64_t>(st.st_size),
#ifdef __APPLE__
          .mtime_ns = static_cast<std::int64_t>(st.st_mtimespec.tv_sec) * 1'000'000'000 + st.st_mtimespec.tv_nsec};
#else
          .mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
#endif
}

FileStamp StampAt(const fs::path& file) {
  struct stat st {};
  return ::stat(file.c_str(), &st) == 0 ? Stamp(st) : FileStamp{};
}

// `text` in a new file beside `file` (mkstemp: O_EXCL, 0600), synced: its path.
std::expected<std::string, std::string> WriteBeside(const fs::path& file, std::string_view text) {
  std::error_code error;
  fs::create_directories(file.parent_path(), error);
  std::string temporary = (file.parent_path() / ("." + file.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) return std::unexpected("cannot write beside " + file.string() + ": " + std::strerror(errno));
  const auto fail = [&](const std::string& what) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    ::unlink(temporary.c_str());
    return std::unexpected(what + ": " + reason);
  };
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail("cannot write " + temporary);
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) return fail("cannot write " + temporary);
  ::close(fd);
  return temporary;
}

std::expected<void, std::string> RenameOver(const std::string& temporary, const fs::path& file) {
  if (::rename(temporary.c_str(), file.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    return std::unexpected("cannot replace " + file.string() + ": " + reason);
  }
  return {};
}

// A rename's outcome as ReplaceFileIf answers it.
std::expected<bool, std::string> Replaced(const std::expected<void, std::string>& renamed) {
  if (!renamed) return std::unexpected(renamed.error());
  return true;
}

}  // namespace

FileStamp StampOf(const std::string& path) { return StampAt(Target(path)); }

std::expected<void, std::string> ReplaceFile(const std::string& path, std::string_view text) {
  const fs::path file = Target(path);
  auto temporary = WriteBeside(file, text);
  if (!temporary) return std::unexpected(temporary.error());
  return RenameOver(*temporary, file);
}

std::expected<bool, std::string> ReplaceFileIf(const std::string& path, std::string_view text, const FileStamp& read) {
  const fs::path file = Target(path);
  auto temporary = WriteBeside(file, text);
  if (!temporary) return std::unexpected(temporary.error());
  const auto changed = [&] {
    ::unlink(temporary->c_str());
    return false;
  };
  if (StampAt(file) != read) return changed();
  if (!read.exists) {
    // No file to exchange with: made only if still none (a link fails: it is another's doing).
    if (::linkat(AT_FDCWD, temporary->c_str(), AT_FDCWD, file.c_str(), 0) != 0) {
      if (errno == EEXIST) return changed();
      return Replaced(RenameOver(*temporary, file));
    }
    ::unlink(temporary->c_str());
    return true;
  }
#ifdef RENAME_EXCHANGE
  if (::renameat2(AT_FDCWD, temporary->c_str(), AT_FDCWD, file.c_str(), RENAME_EXCHANGE) == 0) {
    // The file taken out is at `temporary` now: the one read, or another saved meanwhile.
    if (StampAt(*temporary) == read) {
      ::unlink(temporary->c_str());
      return true;
    }
    // Theirs back. Should that fail, their save stays whole at `temporary` (never unlinked): say where.
    if (::renameat2(AT_FDCWD, temporary->c_str(), AT_FDCWD, file.c_str(), RENAME_EXCHANGE) != 0) {
      return std::unexpected("the file changed while it was written, and putting the other save back failed (" +
                             std::string(std::strerror(errno)) + "): it is at " + *temporary + "; move it over " +
                             file.string());
    }
    return changed();
  }
  // A file system without the exchange (EINVAL): the compare just before the rename.
#endif
  if (StampAt(file) != read) return changed();
  return Replaced(RenameOver(*temporary, file));
}

}  // namespace tb
