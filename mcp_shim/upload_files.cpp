#include "mcp_shim/upload_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <optional>

#include <spdlog/spdlog.h>

#include "common/audit_log.h"
#include "common/base64.h"
#include "common/platform.h"
#include "common/policy.h"
#include "common/protocol.h"
#include "common/socket_dir.h"
#include "common/user_dirs.h"
#include "mcp_shim/native_manifest.h"
#include "mcp_shim/paths.h"

namespace tb {
namespace {

namespace fs = std::filesystem;

std::string MiB(std::uint64_t bytes) { return std::to_string((bytes + 1024 * 1024 - 1) / (1024 * 1024)) + " MiB"; }

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

fs::path Absolute(const std::string& given) {
  if (given == "~") return HomeDir().empty() ? fs::path("/") : fs::path(HomeDir());
  if (given.starts_with("~/")) return fs::path(HomeDir() + "/") / given.substr(2);
  std::error_code ec;
  return fs::absolute(given, ec).lexically_normal();
}

// Without a trailing "/" (but "/" itself).
std::string Trimmed(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// `path` is `dir` or inside it.
bool Under(const std::string& path, const std::string& dir) {
  if (dir.empty()) return false;
  if (dir == "/") return true;
  return path == dir || (path.size() > dir.size() && path.starts_with(dir) && path[dir.size()] == '/');
}

std::string Canonical(const std::string& path) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  return Trimmed(ec ? fs::path(path).lexically_normal().string() : canonical.string());
}

// Closes the descriptor on every way out.
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd(other.fd) { other.fd = -1; }
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      if (fd >= 0) ::close(fd);
      fd = other.fd;
      other.fd = -1;
    }
    return *this;
  }
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// A place never read from, and why, in words for the model and the user.
struct Refused {
  std::string dir;
  std::string why;
};

std::vector<Refused> RefusedPlaces() {
  std::vector<Refused> out;
  const auto add = [&](const std::string& dir, const std::string& why) {
    if (dir.empty() || !dir.starts_with('/')) return;
    out.push_back({Trimmed(dir), why});
    if (const std::string canonical = Canonical(dir); canonical != Trimmed(dir)) out.push_back({canonical, why});
  };
  for (const char* dir : {"/proc", "/sys", "/dev"}) {
    add(dir, std::string("it is in ") + dir +
                 ", the kernel's view of processes and devices (a process's environment holds its API keys)");
  }
  const std::string home = HomeDir();
  for (const auto& browser : BrowserManifestTable(kThisPlatform, home, Env("XDG_CONFIG_HOME"))) {
    add(browser.config_root,
        "it is in " + browser.name + "'s profile " + browser.config_root + " (cookies, saved passwords, history)");
  }
  if (kThisPlatform == Platform::kMacOS && !home.empty()) {
    add(home + "/Library", "it is in " + home + "/Library (browser profiles, keychains, app data)");
  }
  if (kThisPlatform == Platform::kLinux && !home.empty()) {
    for (const char* snap : {"chromium", "brave", "google-chrome", "vivaldi", "firefox"}) {
      add(home + "/snap/" + snap, "it is in the browser profile " + home + "/snap/" + snap);
    }
  }
  const std::string launch = " (cookies, saved passwords, history)";
  add(ProfileDir(), "it is in the browser profile tabbridge launches, " + ProfileDir() + launch);
  add(XdgDir("XDG_DATA_HOME", ".local/share") + "/tabbridge",
      "it is in tabbridge's data " + XdgDir("XDG_DATA_HOME", ".local/share") + "/tabbridge (its browser profile)");
  const std::string config = Trimmed(XdgDir("XDG_CONFIG_HOME", ".config")) + "/tabbridge";
  add(config, "it is in tabbridge's configuration " + config + " (the policy)");
  add(policy::DefaultPath(), "it is tabbridge's policy file");
  const std::string state = Trimmed(XdgDir("XDG_STATE_HOME", ".local/state")) + "/tabbridge";
  add(state, "it is in tabbridge's state " + state + " (the audit log)");
  add(fs::path(audit::DefaultPath()).parent_path().string(), "it is in tabbridge's state (the audit log)");
  add(Env("TABBRIDGE_LOG_FILE"), "it is tabbridge's log file");
  add(SocketDir(), "it is tabbridge's socket directory");
  return out;
}

// Why `path` (absolute, normal) may never be read, or nullopt.
std::optional<std::string> RefusalOf(const std::string& path) {
  for (const Refused& place : RefusedPlaces()) {
    if (Under(path, place.dir)) return place.why;
  }
  // A hidden file or directory under $HOME: ~/.ssh, ~/.aws, ~/.netrc, ~/.config, a project's .env.
  const std::string home = HomeDir();
  if (!home.empty()) {
    for (const std::string& base : {home, Canonical(home)}) {
      if (!Under(path, base) || path == base) continue;
      std::string walked = base;
      for (const auto& part : fs::path(path.substr(base.size() + 1))) {
        walked += "/" + part.string();
        if (part.string().starts_with('.')) {
          return "it is hidden under your home directory (" + walked +
                 "): keys, tokens and settings live in dot-files and dot-directories";
        }
      }
    }
  }
  // A Chromium-family profile wherever it is: its user-data directory holds "Local State".
  for (fs::path dir = fs::path(path).parent_path(); !dir.empty(); dir = dir.parent_path()) {
    struct stat st {};
    if (::lstat((dir / "Local State").c_str(), &st) == 0) {
      return "it is in the browser profile " + dir.string() + " (cookies, saved passwords, history)";
    }
    if (dir == dir.root_path()) break;
  }
  return std::nullopt;
}

std::string OwnerWord(uid_t uid) { return "uid " + std::to_string(uid); }

// What came of resolving a path: where it really is and its lstat there.
struct Resolved {
  std::string path;
  struct stat st {};
};

struct ResolveError {
  int error = 0;        // errno for a path that cannot be followed
  std::string message;  // or a refusal (a symlink of another user)
};

// Follows `path` one component at a time, as the kernel would, looking at
// each symlink on the way: one owned by another user (not root) is refused
// — in a sticky /tmp anyone may plant one.
std::expected<Resolved, ResolveError> Resolve(const fs::path& path) {
  const uid_t me = ::getuid();
  std::deque<std::string> todo;
  for (const auto& part : path.relative_path()) todo.push_back(part.string());
  std::string at;  // "" is "/"
  int links = 0;
  while (!todo.empty()) {
    const std::string part = todo.front();
    todo.pop_front();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      at = at.substr(0, at.rfind('/') == std::string::npos ? 0 : at.rfind('/'));
      continue;
    }
    const std::string next = at + "/" + part;
    struct stat st {};
    if (::lstat(next.c_str(), &st) != 0) return std::unexpected(ResolveError{errno, ""});
    if (S_ISLNK(st.st_mode)) {
      if (st.st_uid != me && st.st_uid != 0) {
        return std::unexpected(ResolveError{0, "the symlink " + next + " on its way belongs to another user (" +
                                                   OwnerWord(st.st_uid) + "), who could point it at any file"});
      }
      if (++links > 40) return std::unexpected(ResolveError{ELOOP, ""});
      std::error_code ec;
      const fs::path target = fs::read_symlink(next, ec);
      if (ec) return std::unexpected(ResolveError{ec.value(), ""});
      if (target.is_absolute()) at.clear();
      std::vector<std::string> parts;
      for (const auto& p : target.relative_path()) parts.push_back(p.string());
      todo.insert(todo.begin(), parts.begin(), parts.end());
      continue;
    }
    if (!S_ISDIR(st.st_mode) &&
        std::ranges::any_of(todo, [](const std::string& p) { return !p.empty() && p != "."; })) {
      return std::unexpected(ResolveError{ENOTDIR, ""});
    }
    at = next;
  }
  Resolved out{.path = at.empty() ? "/" : at};
  if (::lstat(out.path.c_str(), &out.st) != 0) return std::unexpected(ResolveError{errno, ""});
  return out;
}

// The directory of the file, opened without following a symlink anywhere on
// the way (each component must still be what Resolve found), then the file.
std::expected<Fd, int> OpenUnfollowed(const std::string& path) {
#if defined(O_PATH)
  constexpr int kDirFlags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
#elif defined(O_SEARCH)
  constexpr int kDirFlags = O_SEARCH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
#else
  constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
#endif
  Fd dir(::open("/", kDirFlags));
  if (dir.fd < 0) return std::unexpected(errno);
  const fs::path p(path);
  const fs::path parent = p.parent_path();
  for (const auto& part : parent.relative_path()) {
    Fd next(::openat(dir.fd, part.c_str(), kDirFlags));
    if (next.fd < 0) return std::unexpected(errno);
    dir = std::move(next);
  }
  Fd file(::openat(dir.fd, p.filename().c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (file.fd < 0) return std::unexpected(errno);
  return file;
}

}  // namespace

UploadScope MakeUploadScope(const std::vector<std::string>& client_roots, bool client_has_roots,
                            const std::vector<std::string>& flag_roots, const std::string& working_dir) {
  UploadScope scope;
  const auto add = [&](const std::string& dir, UploadRoot::Source source) {
    if (dir.empty() || !dir.starts_with('/')) return;
    const auto resolved = Resolve(fs::path(dir).lexically_normal());
    if (!resolved || !S_ISDIR(resolved->st.st_mode)) {
      spdlog::warn("upload root {} left out: {}", dir,
                   !resolved ? (resolved.error().message.empty() ? std::strerror(resolved.error().error)
                                                                 : resolved.error().message)
                             : "not a directory");
      return;
    }
    for (const UploadRoot& root : scope.roots) {
      if (root.dir == resolved->path) return;
    }
    scope.roots.push_back({resolved->path, source});
  };
  if (client_has_roots) {
    for (const std::string& dir : client_roots) add(dir, UploadRoot::Source::kClient);
    if (client_roots.empty()) scope.note = "your MCP client declares no roots";
  } else if (Trimmed(working_dir) != "/") {
    add(working_dir, UploadRoot::Source::kWorkingDirectory);
  } else {
    scope.note = "the working directory is / and is not taken as one";
  }
  for (const std::string& dir : flag_roots) add(Absolute(dir).string(), UploadRoot::Source::kFlag);
  return scope;
}

std::expected<Json, std::string> ReadUploadFiles(const Json& paths, const UploadScope& scope) {
  if (!paths.is_array() || paths.empty()) return std::unexpected("paths must name at least one file");
  Json files = Json::array();
  std::uint64_t total = 0;
  const uid_t me = ::getuid();
  for (const Json& item : paths) {
    if (!item.is_string() || item.get<std::string>().empty()) return std::unexpected("each path must be a file's path");
    const std::string given = item.get<std::string>();
    const std::string absolute = Trimmed(Absolute(given).string());
    std::string shown = absolute == given ? given : given + " (" + absolute + ")";
    const auto refused = [&](const std::string& why) {
      return std::unexpected(shown + " is refused: " + why +
                             " — tabbridge never uploads from there, whatever the roots");
    };
    const auto failed = [&](int error) -> std::unexpected<std::string> {
      if (error == ENOENT || error == ENOTDIR) return std::unexpected("no such file: " + shown);
      return std::unexpected("cannot read " + shown + ": " + std::strerror(error));
    };
    const auto in_roots = [&](const std::string& path) {
      return std::ranges::any_of(scope.roots, [&](const UploadRoot& root) { return Under(path, root.dir); });
    };
    // By name first, before anything is looked at (/dev, /proc/self/…).
    if (auto why = RefusalOf(absolute)) return refused(*why);
    const auto resolved = Resolve(absolute);
    if (!resolved) {
      if (!resolved.error().message.empty()) return std::unexpected(shown + " is refused: " + resolved.error().message);
      if (!in_roots(absolute)) return std::unexpected(OutsideRoots(shown, scope));
      return failed(resolved.error().error);
    }
    const std::string& real = resolved->path;
    if (real != absolute) shown = given + " (" + real + ")";
    if (auto why = RefusalOf(real)) return refused(*why);
    if (!in_roots(real)) return std::unexpected(OutsideRoots(shown, scope));
    // The type by lstat before anything is opened: opening a device or a
    // terminal can do something by itself.
    const struct stat& named = resolved->st;
    if (S_ISDIR(named.st_mode)) return std::unexpected(shown + " is a directory — name the files in it");
    if (!S_ISREG(named.st_mode)) return std::unexpected(shown + " is not a regular file");
    if (named.st_uid != me) {
      return std::unexpected(shown + " is refused: it belongs to another user (" + OwnerWord(named.st_uid) +
                             ") — tabbridge uploads only your own files");
    }
    auto opened = OpenUnfollowed(real);
    if (!opened) {
      if (opened.error() == ELOOP || opened.error() == ENOTDIR || opened.error() == ENOENT) {
        return std::unexpected(shown + " changed while it was opened — try again");
      }
      return failed(opened.error());
    }
    const Fd file = std::move(*opened);
    // And again on the open file: it must be the one checked.
    struct stat info {};
    if (::fstat(file.fd, &info) != 0) return failed(errno);
    if (!S_ISREG(info.st_mode) || info.st_ino != named.st_ino || info.st_dev != named.st_dev || info.st_uid != me) {
      return std::unexpected(shown + " changed while it was opened — try again");
    }
    const auto too_big = [&](std::uint64_t size) {
      return std::unexpected("the files come to more than " + MiB(kMaxUploadBytes) + " (" + shown + " is " +
                             (size > kMaxUploadBytes ? "more than that" : MiB(size)) + "); upload_file takes at most " +
                             MiB(kMaxUploadBytes) + " in one call");
    };
    if (total + static_cast<std::uint64_t>(info.st_size) > kMaxUploadBytes) return too_big(info.st_size);
    // Read to the end, not to st_size: a file may say less than it holds;
    // one that grows past the limit is refused.
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
    files.push_back({{"name", fs::path(absolute).filename().string()},  // the name the model gave, not a link's target
                     {"path", real},
                     {"size", got},
                     {"lastModified", modified_ms},
                     {"data", base64::Encode(bytes)}});
  }
  return files;
}

}  // namespace tb
