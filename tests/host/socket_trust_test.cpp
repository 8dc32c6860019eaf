// Another local user must not stand in for the host (issue 17, finding 3):
// where XDG_RUNTIME_DIR is unset the socket directory is /tmp/tabbridge-<uid>,
// which anyone can create first with a fake host in it. The shim uses a
// directory only when it is ours and 0700, and checks the listening
// process's uid before it sends the hello; the host does not serve from a
// directory someone else made. The fake host here is a real process of uid
// 65534 (nobody) that answers the hello as a host would — the exploit that
// made connect_browser report "connected" to it before. Needs root (to be
// another user); skipped otherwise.
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "tests/host/harness.h"

namespace tb::test {
namespace {

constexpr uid_t kOtherUid = 65534;  // nobody
constexpr char kSentinel[] = "SENTINEL\n";

sockaddr_un AddressOf(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  return addr;
}

bool BecomeOtherUser() {
  return ::setgroups(0, nullptr) == 0 && ::setresgid(kOtherUid, kOtherUid, kOtherUid) == 0 &&
         ::setresuid(kOtherUid, kOtherUid, kOtherUid) == 0;
}

// The id of a JSON-RPC request line, as text ("1"), or "" — without a JSON
// library: this runs in a forked child.
std::string RequestId(const std::string& line) {
  const auto at = line.find("\"id\":");
  if (at == std::string::npos) return "";
  std::string id;
  for (std::size_t i = at + 5; i < line.size() && (std::isdigit(static_cast<unsigned char>(line[i])) != 0); ++i)
    id += line[i];
  return id;
}

// A fake host of another uid listening on `dir`/browser-0.sock. It answers
// every hello as a host would and counts the bytes it was sent; a connection
// that says SENTINEL makes it report the count on a pipe and exit (so the
// count covers every connection made before, in accept order).
class FakeHostOfAnotherUser {
 public:
  // `plant_dir`: it creates `dir` itself (mode 0755), as an attacker in /tmp
  // would; else `dir` is ours and it binds there as root, then drops to
  // nobody before listen() — the uid a client sees is the listener's.
  FakeHostOfAnotherUser(std::string dir, bool plant_dir) : path_(dir + "/browser-0.sock") {
    int ready[2];
    int report[2];
    if (::pipe(ready) != 0 || ::pipe(report) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(ready[0]);
      ::close(report[0]);
      ::_exit(Serve(dir, plant_dir, ready[1], report[1]));
    }
    ::close(ready[1]);
    ::close(report[1]);
    report_fd_ = report[0];
    char byte = 0;
    ready_ = ::read(ready[0], &byte, 1) == 1 && byte == 'R';
    ::close(ready[0]);
  }
  ~FakeHostOfAnotherUser() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (report_fd_ >= 0) ::close(report_fd_);
  }

  bool ready() const { return ready_; }

  // The bytes every connection before this call sent it; nullopt when it did
  // not answer within the test's wait.
  std::optional<long> BytesReceived() {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    const sockaddr_un addr = AddressOf(path_);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0 ||
        ::write(fd, kSentinel, sizeof(kSentinel) - 1) < 0) {
      ::close(fd);
      return std::nullopt;
    }
    pollfd p{report_fd_, POLLIN, 0};
    std::optional<long> result;
    if (::poll(&p, 1, static_cast<int>(kWait.count())) == 1) {
      long count = -1;
      if (::read(report_fd_, &count, sizeof(count)) == sizeof(count)) result = count;
    }
    ::close(fd);
    return result;
  }

 private:
  static int Serve(const std::string& dir, bool plant_dir, int ready_fd, int report_fd) {
    if (plant_dir && (!BecomeOtherUser() || ::mkdir(dir.c_str(), 0755) != 0 || ::chmod(dir.c_str(), 0755) != 0))
      return 2;
    const std::string path = dir + "/browser-0.sock";
    const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
    const sockaddr_un addr = AddressOf(path);
    if (::bind(listener, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) return 3;
    ::chmod(path.c_str(), 0777);
    if (!plant_dir && !BecomeOtherUser()) return 4;
    if (::listen(listener, 8) != 0) return 5;
    if (::write(ready_fd, "R", 1) != 1) return 6;
    long received = 0;
    for (;;) {
      const int c = ::accept(listener, nullptr, nullptr);
      if (c < 0) return 7;
      std::string pending;
      char buffer[4096];
      for (ssize_t n; (n = ::read(c, buffer, sizeof(buffer))) > 0;) {
        pending.append(buffer, static_cast<std::size_t>(n));
        if (pending.starts_with(kSentinel)) {
          (void)!::write(report_fd, &received, sizeof(received));
          return 0;
        }
        received += n;
        for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
          const std::string line = pending.substr(0, nl);
          pending.erase(0, nl + 1);
          if (line.find("tabbridge/hello") == std::string::npos) continue;
          // What a host answers: the victim's shim would now say "connected".
          const std::string answer =
              R"({"jsonrpc":"2.0","id":)" + RequestId(line) +
              R"(,"result":{"browser":{"name":"Chromium","version":"156"},"tabCount":1,"hostPid":1}})"
              "\n";
          (void)!::write(c, answer.data(), answer.size());
        }
      }
      ::close(c);
    }
  }

  std::string path_;
  pid_t pid_ = -1;
  int report_fd_ = -1;
  bool ready_ = false;
};

class SocketTrustTest : public HostTest {
 protected:
  void SetUp() override {
    if (::getuid() != 0) GTEST_SKIP() << "needs root to run a fake host as another user";
    // Like /tmp: anyone may create a directory here (and reach it).
    ASSERT_EQ(::chmod(work_.path().c_str(), 0711), 0);
    shared_ = work_.Join("shared-tmp");
    ASSERT_EQ(::mkdir(shared_.c_str(), 01777), 0);
    ASSERT_EQ(::chmod(shared_.c_str(), 01777), 0);
  }

  // connect_browser {} from a shim on `dir`: the tool result.
  Json ConnectFrom(const std::string& dir) {
    socket_dir_ = dir;
    auto& shim = StartShim();
    const auto response = shim.CallTool("connect_browser", Json::object(), kWait);
    EXPECT_TRUE(response.has_value()) << "connect_browser did not answer";
    return response.value_or(Json::object());
  }

  std::string shared_;
};

TEST_F(SocketTrustTest, ShimRefusesADirectoryAnotherUserPlanted) {
  const std::string dir = shared_ + "/tabbridge-0";
  FakeHostOfAnotherUser fake(dir, /*plant_dir=*/true);
  ASSERT_TRUE(fake.ready());
  const Json response = ConnectFrom(dir);
  ASSERT_TRUE(fake::IsToolError(response)) << response.dump();
  const std::string error = fake::Structured(response).value("error", "");
  EXPECT_THAT(error, ::testing::HasSubstr("belongs to uid 65534, not to you"));
  EXPECT_THAT(error, ::testing::HasSubstr("refusing to use it"));
  EXPECT_EQ(fake.BytesReceived(), 0) << "the fake host heard from the shim";
}

TEST_F(SocketTrustTest, ShimRefusesADirectoryOfOursOpenToOthers) {
  const std::string dir = work_.Join("open");
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 0755), 0);
  const Json response = ConnectFrom(dir);
  ASSERT_TRUE(fake::IsToolError(response)) << response.dump();
  EXPECT_THAT(fake::Structured(response).value("error", ""), ::testing::HasSubstr("has mode 0755; it must be 0700"));
}

TEST_F(SocketTrustTest, ShimRefusesAListenerOfAnotherUidBeforeTheHello) {
  const std::string dir = work_.Join("ours");
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  FakeHostOfAnotherUser fake(dir, /*plant_dir=*/false);
  ASSERT_TRUE(fake.ready());
  const Json response = ConnectFrom(dir);
  ASSERT_TRUE(fake::IsToolError(response)) << response.dump();
  EXPECT_THAT(fake::Structured(response).value("error", ""),
              ::testing::HasSubstr("the process listening there runs as uid 65534, not as you"));
  EXPECT_EQ(fake.BytesReceived(), 0) << "the hello reached another user's process";
}

TEST_F(SocketTrustTest, HostDoesNotServeFromADirectoryAnotherUserPlanted) {
  const std::string dir = shared_ + "/tabbridge-0";
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  ASSERT_EQ(::chown(dir.c_str(), kOtherUid, kOtherUid), 0);
  auto& extension = StartExtension(WithSocketDir(dir));
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status.has_value()) << "the host kept running in a planted directory";
  struct stat st {};
  EXPECT_NE(::lstat((dir + "/browser-0.sock").c_str(), &st), 0) << "the host made its socket there";
}

}  // namespace
}  // namespace tb::test
