#include "common/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace tb {

std::expected<void, std::string> ReplaceFile(const std::string& path, std::string_view text) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::path file = path;
  if (fs::is_symlink(fs::symlink_status(file, error))) file = fs::weakly_canonical(file, error);
  fs::create_directories(file.parent_path(), error);
  std::string temporary = (file.parent_path() / ("." + file.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(temporary.data());  // O_EXCL, mode 0600
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
  if (::rename(temporary.c_str(), file.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    return std::unexpected("cannot replace " + file.string() + ": " + reason);
  }
  return {};
}

}  // namespace tb
