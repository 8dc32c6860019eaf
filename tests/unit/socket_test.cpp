// The socket directory and the host's door: permissions, stale sockets, and
// refusal of peers of another uid.
#ifdef __linux__
#include <sys/inotify.h>
#endif
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <vector>

#include <gtest/gtest.h>
#include <uv.h>

#include "common/peer_cred.h"
#include "common/socket_dir.h"
#include "common/uv_util.h"
#include "host/socket_server.h"
#include "tests/unit/loop_pump.h"

namespace tb {
namespace {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/tb-sock-XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

mode_t Mode(const std::string& path) {
  struct stat st {};
  ::lstat(path.c_str(), &st);
  return st.st_mode & 0777;
}

int ConnectTo(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

TEST(SocketDir, CreatesAPrivateDirectory) {
  TempDir tmp;
  const std::string dir = tmp.path() + "/a/b";
  ASSERT_TRUE(EnsurePrivateDir(dir));
  EXPECT_EQ(Mode(dir), 0700u);
}

TEST(SocketDir, TightensItsOwnOpenDirectory) {
  TempDir tmp;
  ::chmod(tmp.path().c_str(), 0755);
  ASSERT_TRUE(EnsurePrivateDir(tmp.path()));
  EXPECT_EQ(Mode(tmp.path()), 0700u);
}

TEST(SocketDir, CheckReportsAnOpenDirectoryWithoutChangingIt) {
  TempDir tmp;
  ::chmod(tmp.path().c_str(), 0755);
  auto ok = CheckPrivateDir(tmp.path());
  ASSERT_FALSE(ok);
  EXPECT_NE(ok.error().find("must be 0700"), std::string::npos);
  EXPECT_EQ(Mode(tmp.path()), 0755u);
}

TEST(SocketDir, RefusesADirectoryOfAnotherUser) {
  if (getuid() != 0) GTEST_SKIP() << "needs root to give a directory away";
  TempDir tmp;
  ASSERT_EQ(::chown(tmp.path().c_str(), 65534, 65534), 0);
  auto ok = EnsurePrivateDir(tmp.path());
  ASSERT_FALSE(ok);
  EXPECT_NE(ok.error().find("not to you"), std::string::npos);
}

TEST(SocketDir, HonoursTheEnvironmentOverride) {
  ::setenv("TABBRIDGE_SOCKET_DIR", "/tmp/somewhere", 1);
  EXPECT_EQ(SocketDir(), "/tmp/somewhere");
  ::unsetenv("TABBRIDGE_SOCKET_DIR");
}

TEST(SocketDir, LinuxUsesTheRuntimeDirectory) {
  EXPECT_EQ(SocketDirFor(Platform::kLinux, {"", "/run/user/1000", "/tmp/x/"}, 1000), "/run/user/1000/tabbridge");
  EXPECT_EQ(SocketDirFor(Platform::kLinux, {"", "", "/tmp/x/"}, 1000), "/tmp/tabbridge-1000");
  EXPECT_EQ(SocketDirFor(Platform::kLinux, {"", "relative", ""}, 7), "/tmp/tabbridge-7");
}

TEST(SocketDir, MacOsUsesItsPerUserTmpdir) {
  // launchd's $TMPDIR is per user and ends in '/'; macOS has no XDG_RUNTIME_DIR.
  EXPECT_EQ(SocketDirFor(Platform::kMacOS, {"", "", "/var/folders/zz/abc/T/"}, 501), "/var/folders/zz/abc/T/tabbridge");
  EXPECT_EQ(SocketDirFor(Platform::kMacOS, {"", "/run/user/501", ""}, 501), "/tmp/tabbridge-501");
  EXPECT_EQ(SocketDirFor(Platform::kMacOS, {"", "", "/"}, 501), "/tmp/tabbridge-501");
  // The deepest default still fits macOS's 104-byte sun_path with the last slot's name.
  const std::string deepest =
      SocketPath(SocketDirFor(Platform::kMacOS, {"", "", "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/"}, 501),
                 kMaxSlots - 1);
  EXPECT_LT(deepest.size(), 104u) << deepest;
}

TEST(SocketDir, TheOverrideWinsOnEveryPlatform) {
  for (const Platform platform : {Platform::kLinux, Platform::kMacOS}) {
    EXPECT_EQ(SocketDirFor(platform, {"/srv/tb", "/run/user/1", "/var/folders/T/"}, 1), "/srv/tb");
  }
}

TEST(PeerCheck, OnlyAKnownUidEqualToOursPasses) {
  EXPECT_TRUE(PeerAllowed(1000, 1000));
  EXPECT_FALSE(PeerAllowed(1001, 1000));
  EXPECT_FALSE(PeerAllowed(0, 1000)) << "not even root";
  EXPECT_FALSE(PeerAllowed(-1, -1)) << "an unknown peer never passes, whatever we were given";
}

TEST(PeerCheck, ReadsTheUidOfASocketPeer) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  EXPECT_EQ(PeerUid(fds[0]), static_cast<long>(getuid()));
  ::close(fds[0]);
  ::close(fds[1]);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  EXPECT_EQ(PeerUid(pipe_fds[0]), -1) << "not a socket: no peer";
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

TEST(PeerCheck, ReadsTheUidOfAPeerOfAnotherUser) {
  if (getuid() != 0) GTEST_SKIP() << "needs root to connect as another user";
  TempDir tmp;
  ::chmod(tmp.path().c_str(), 0755);
  const std::string path = tmp.path() + "/peer.sock";
  const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ::chmod(path.c_str(), 0777);
  ASSERT_EQ(::listen(listener, 1), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // nobody connects and waits for us to hang up
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) ::_exit(3);
    char byte;
    while (::read(fd, &byte, 1) > 0) {
    }
    ::_exit(0);
  }
  const int peer = ::accept(listener, nullptr, nullptr);
  ASSERT_GE(peer, 0);
  EXPECT_EQ(PeerUid(peer), 65534);
  EXPECT_FALSE(PeerAllowed(PeerUid(peer), 0));
  ::close(peer);
  ::close(listener);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

class SocketServerTest : public ::testing::Test {
 protected:
  void SetUp() override { uv_loop_init(&loop_); }
  void TearDown() override {
    uv_run(&loop_, UV_RUN_DEFAULT);
    uv_loop_close(&loop_);
  }
  bool PumpUntil(const std::function<bool()>& done) { return test_loop::PumpLoopUntil(&loop_, done); }
  uv_loop_t loop_{};
};

TEST_F(SocketServerTest, ListensOnAPrivateSocketInSlotZero) {
  TempDir tmp;
  SocketServer server(&loop_, getuid());
  ASSERT_TRUE(server.Listen(tmp.path(), [](uv_pipe_t*) {}));
  EXPECT_EQ(server.path(), SocketPath(tmp.path(), 0));
  EXPECT_EQ(Mode(server.path()), 0600u);
  server.Close();
  EXPECT_FALSE(std::filesystem::exists(SocketPath(tmp.path(), 0))) << "a clean exit leaves no socket behind";
}

#ifdef __linux__
// A shim watching the directory connects the moment the socket's name
// appears: the name comes by a rename once the socket listens, never with
// the bind (a socket bound but not listening refuses the connection).
TEST_F(SocketServerTest, TheSocketsNameAppearsOnlyOnceItListens) {
  TempDir tmp;
  const int watch = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  ASSERT_GE(watch, 0);
  ASSERT_GE(::inotify_add_watch(watch, tmp.path().c_str(), IN_CREATE | IN_MOVED_TO), 0);
  SocketServer server(&loop_, getuid());
  ASSERT_TRUE(server.Listen(tmp.path(), [](uv_pipe_t*) {}));
  const std::string name = std::filesystem::path(server.path()).filename().string();
  alignas(inotify_event) char buffer[4096];
  const ssize_t n = ::read(watch, buffer, sizeof buffer);
  ASSERT_GT(n, 0);
  std::vector<std::pair<std::string, std::uint32_t>> events;
  for (char* p = buffer; p < buffer + n;) {
    const auto* e = reinterpret_cast<const inotify_event*>(p);
    events.emplace_back(e->len > 0 ? e->name : "", e->mask & (IN_CREATE | IN_MOVED_TO));
    p += sizeof(inotify_event) + e->len;
  }
  ::close(watch);
  const auto named = std::find_if(events.begin(), events.end(), [&](const auto& e) { return e.first == name; });
  ASSERT_NE(named, events.end()) << "the socket never appeared";
  EXPECT_EQ(named->second, static_cast<std::uint32_t>(IN_MOVED_TO)) << "the socket's name came with its bind";
  EXPECT_EQ(Mode(server.path()), 0600u);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(tmp.path()), std::filesystem::directory_iterator()), 2)
      << "the socket and its slot's lock, and no other name it was bound to";
  const int fd = ConnectTo(server.path());
  EXPECT_GE(fd, 0);
  ::close(fd);
}
#endif

TEST_F(SocketServerTest, ReplacesAStaleSocketInAFreeSlot) {
  TempDir tmp;
  {  // a crashed host: its socket file stays, its lock does not
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, SocketPath(tmp.path(), 0).c_str(), sizeof(addr.sun_path) - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    ::close(fd);
  }
  ASSERT_EQ(ConnectTo(SocketPath(tmp.path(), 0)), -1) << "the stale socket refuses connections";
  SocketServer server(&loop_, getuid());
  ASSERT_TRUE(server.Listen(tmp.path(), [](uv_pipe_t*) {}));
  EXPECT_EQ(server.slot(), 0);
  const int fd = ConnectTo(server.path());
  EXPECT_GE(fd, 0);
  ::close(fd);
}

TEST_F(SocketServerTest, ClosesAPeerOfAnotherUid) {
  TempDir tmp;
  int accepted = 0;
  SocketServer server(&loop_, static_cast<long>(getuid()) + 1);  // as if we were someone else
  ASSERT_TRUE(server.Listen(tmp.path(), [&](uv_pipe_t* c) {
    ++accepted;
    CloseHandle(reinterpret_cast<uv_handle_t*>(c));
  }));
  const int fd = ConnectTo(server.path());
  ASSERT_GE(fd, 0);
  char byte;
  ssize_t n = -1;
  ASSERT_TRUE(PumpUntil([&] {
    n = ::recv(fd, &byte, 1, MSG_DONTWAIT);
    return n == 0;  // closed by the host
  }));
  EXPECT_EQ(accepted, 0);
  ::close(fd);
}

TEST_F(SocketServerTest, AcceptsAPeerOfOurUid) {
  TempDir tmp;
  int accepted = 0;
  SocketServer server(&loop_, getuid());
  ASSERT_TRUE(server.Listen(tmp.path(), [&](uv_pipe_t* c) {
    ++accepted;
    CloseHandle(reinterpret_cast<uv_handle_t*>(c));
  }));
  const int fd = ConnectTo(server.path());
  ASSERT_TRUE(PumpUntil([&] { return accepted == 1; }));
  ::close(fd);
}

}  // namespace
}  // namespace tb
