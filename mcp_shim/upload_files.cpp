#include "mcp_shim/upload_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/base64.h"
#include "common/protocol.h"
#include "common/user_dirs.h"

namespace tb {
namespace {

namespace fs = std::filesystem;

std::string MiB(std::uint64_t bytes) { return std::to_string((bytes + 1024 * 1024 - 1) / (1024 * 1024)) + " MiB"; }

fs::path Resolve(const std::string& given) {
  if (given == "~") return HomeDir();
  if (given.starts_with("~/")) return fs::path(HomeDir()) / given.substr(2);
  std::error_code ec;
  return fs::absolute(given, ec).lexically_normal();
}

// Closes the descriptor on every way out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::expected<Json, std::string> ReadUploadFiles(const Json& paths) {
  if (!paths.is_array() || paths.empty()) return std::unexpected("paths must name at least one file");
  Json files = Json::array();
  std::uint64_t total = 0;
  for (const Json& item : paths) {
    if (!item.is_string() || item.get<std::string>().empty()) return std::unexpected("each path must be a file's path");
    const std::string given = item.get<std::string>();
    const fs::path path = Resolve(given);
    const std::string shown = path.string() == given ? given : given + " (" + path.string() + ")";
    const auto failed = [&](int error) -> std::unexpected<std::string> {
      if (error == ENOENT || error == ENOTDIR) return std::unexpected("no such file: " + shown);
      return std::unexpected("cannot read " + shown + ": " + std::strerror(error));
    };
    // The type by name before anything is opened: opening a device or a
    // terminal can do something by itself.
    struct stat named {};
    if (::stat(path.c_str(), &named) != 0) return failed(errno);
    if (S_ISDIR(named.st_mode)) return std::unexpected(shown + " is a directory — name the files in it");
    if (!S_ISREG(named.st_mode)) return std::unexpected(shown + " is not a regular file");
    Fd file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
    if (file.fd < 0) return failed(errno);
    // And again on the open file: the name may point elsewhere by now.
    struct stat info {};
    if (::fstat(file.fd, &info) != 0) return failed(errno);
    if (!S_ISREG(info.st_mode) || info.st_ino != named.st_ino || info.st_dev != named.st_dev) {
      return std::unexpected(shown + " changed while it was opened — try again");
    }
    const auto too_big = [&](std::uint64_t size) {
      return std::unexpected("the files come to more than " + MiB(kMaxUploadBytes) + " (" + shown + " is " +
                             (size > kMaxUploadBytes ? "more than that" : MiB(size)) + "); upload_file takes at most " +
                             MiB(kMaxUploadBytes) + " in one call");
    };
    if (total + static_cast<std::uint64_t>(info.st_size) > kMaxUploadBytes) return too_big(info.st_size);
    // Read to the end, not to st_size: some files (/proc) say 0 and hold
    // more; one that grows past the limit is refused.
    std::string bytes;
    char chunk[64 * 1024];
    for (;;) {
      const ssize_t n = ::read(file.fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return failed(errno);
      if (n == 0) break;
      bytes.append(chunk, static_cast<std::size_t>(n));
      if (total + bytes.size() > kMaxUploadBytes) return too_big(bytes.size());
    }
    const std::size_t got = bytes.size();
    total += got;
    const auto modified_ms = static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000 + info.st_mtim.tv_nsec / 1'000'000;
    files.push_back({{"name", path.filename().string()},
                     {"size", got},
                     {"lastModified", modified_ms},
                     {"data", base64::Encode(bytes)}});
  }
  return files;
}

}  // namespace tb
