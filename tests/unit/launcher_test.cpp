// A launched browser gets native WebMCP and goes without the renderers an agent
// does not use, without overriding the user's choice, and starts even when a
// crashed browser left its profile locked.
#include "mcp_shim/launcher.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

namespace tb {
namespace {

using Args = std::vector<std::string>;

TEST(IsHeadless, KnowsChromesHeadlessSwitches) {
  EXPECT_TRUE(IsHeadless({"--no-sandbox", "--headless"}));
  EXPECT_TRUE(IsHeadless({"--headless=new"}));
  EXPECT_TRUE(IsHeadless({"--headless=old"}));
  EXPECT_FALSE(IsHeadless({"--no-sandbox"}));
  EXPECT_FALSE(IsHeadless({"--headless-mode-ish", "--user-data-dir=/tmp/headless"}));
}

TEST(KeepHeadlessAlive, KeepsAHeadlessBrowserWithoutTabs) {
  Args args = {"--headless=new"};
  KeepHeadlessAlive(args);
  EXPECT_EQ(args, (Args{"--headless=new", "--keep-alive-for-test"}));
}

TEST(KeepHeadlessAlive, LeavesAWindowedBrowserToQuitWithItsWindows) {
  Args args = {"--no-sandbox"};
  KeepHeadlessAlive(args);
  EXPECT_EQ(args, (Args{"--no-sandbox"}));
}

TEST(KeepHeadlessAlive, AddsTheSwitchOnce) {
  Args args = {"--headless", "--keep-alive-for-test"};
  KeepHeadlessAlive(args);
  EXPECT_EQ(args, (Args{"--headless", "--keep-alive-for-test"}));
}

TEST(EnableWebMcp, AddsTheFeatureWhenNothingDecidesIt) {
  Args args = {"--headless=new"};
  EnableWebMcp(args);
  EXPECT_EQ(args, (Args{"--headless=new", "--enable-features=WebMCP"}));
}

// Chrome honours only the last --enable-features: ours must join it.
TEST(EnableWebMcp, JoinsTheLastEnableFeaturesSwitch) {
  Args args = {"--enable-features=A", "--enable-features=B"};
  EnableWebMcp(args);
  EXPECT_EQ(args, (Args{"--enable-features=A", "--enable-features=B,WebMCP"}));
}

TEST(EnableWebMcp, LeavesAnExplicitDisableAlone) {
  Args args = {"--disable-features=WebMCP"};
  EnableWebMcp(args);
  EXPECT_EQ(args, (Args{"--disable-features=WebMCP"}));
}

// A feature of the same name as the start of another is not that feature.
TEST(EnableWebMcp, AFeatureNamedLikeItDoesNotDecideIt) {
  Args args = {"--disable-features=WebMCPDevtools"};
  EnableWebMcp(args);
  EXPECT_EQ(args, (Args{"--disable-features=WebMCPDevtools", "--enable-features=WebMCP"}));
}

TEST(DisableIdleRenderers, DisablesTheOmniboxWebUiAndTheSpareRenderer) {
  Args args = {"--headless=new"};
  DisableIdleRenderers(args);
  EXPECT_EQ(args, (Args{"--headless=new",
                        "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess"}));
}

// The user's own --disable-features stays in force (Chrome reads only the last one).
TEST(DisableIdleRenderers, JoinsTheUsersDisableFeatures) {
  Args args = {"--disable-features=Translate"};
  DisableIdleRenderers(args);
  EXPECT_EQ(
      args,
      (Args{"--disable-features=Translate,WebUIOmniboxPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess"}));
}

TEST(DisableIdleRenderers, LeavesWhatTheUserEnabledAlone) {
  Args args = {"--enable-features=SpareRendererForSitePerProcess"};
  DisableIdleRenderers(args);
  EXPECT_EQ(args, (Args{"--enable-features=SpareRendererForSitePerProcess",
                        "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"}));
}

namespace fs = std::filesystem;

class ProfileLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tb-profile-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    char host[256] = {};
    ::gethostname(host, sizeof(host) - 1);
    host_ = host;
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Lock(const std::string& owner) {
    fs::create_symlink(owner, fs::path(dir_) / "SingletonLock");
    fs::create_symlink("/tmp/nowhere/SingletonSocket", fs::path(dir_) / "SingletonSocket");
  }
  // A pid that surely belongs to no process: a child we started and reaped.
  static long DeadPid() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ::waitpid(child, nullptr, 0);
    return child;
  }
  bool Locked() const { return fs::is_symlink(fs::path(dir_) / "SingletonLock"); }

  std::string dir_;
  std::string host_;
};

TEST_F(ProfileLockTest, ALockOfADeadBrowserIsRemovedWithItsSocket) {
  const std::string owner = host_ + "-" + std::to_string(DeadPid());
  Lock(owner);
  EXPECT_EQ(ClearStaleProfileLock(dir_), owner);
  EXPECT_FALSE(Locked());
  EXPECT_FALSE(fs::is_symlink(fs::path(dir_) / "SingletonSocket"));
}

// What Chromium will not take over by itself: the container got a new name.
TEST_F(ProfileLockTest, ALockOfAnotherHostNameWithNoBrowserIsRemoved) {
  Lock("old-container-name-" + std::to_string(DeadPid()));
  EXPECT_TRUE(ClearStaleProfileLock(dir_));
  EXPECT_FALSE(Locked());
}

// Nor this: the pid now belongs to another program (here, this test).
TEST_F(ProfileLockTest, ALockWhosePidWentToAnotherProgramIsRemoved) {
  Lock(host_ + "-" + std::to_string(::getpid()));
  EXPECT_TRUE(ClearStaleProfileLock(dir_));
  EXPECT_FALSE(Locked());
}

TEST_F(ProfileLockTest, ALockWhoseBrowserAnswersOnItsSocketStays) {
  const std::string path = dir_ + "/listening.sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  path.copy(addr.sun_path, sizeof(addr.sun_path) - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  fs::create_symlink("old-container-name-1", fs::path(dir_) / "SingletonLock");
  fs::create_symlink(path, fs::path(dir_) / "SingletonSocket");
  EXPECT_EQ(ClearStaleProfileLock(dir_), std::nullopt);
  EXPECT_TRUE(Locked());
  ::close(fd);
}

TEST_F(ProfileLockTest, ALockOfABrowserStillStartingOnTheProfileStays) {
  const std::string flag = "--user-data-dir=" + dir_;
  const pid_t child = ::fork();
  if (child == 0) {
    // Its own process group, killed whole below: sh's sleep must not outlive
    // the test holding ctest's output pipe open (ctest waited 30 s for it).
    ::setpgid(0, 0);
    ::execl("/bin/sh", "sh", "-c", "sleep 30", flag.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::setpgid(child, child);  // also here, so the group exists whichever runs first
  // Until the exec happened, /proc shows the test's command line.
  for (int i = 0; i < 1000; ++i) {
    std::ifstream in("/proc/" + std::to_string(child) + "/cmdline", std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (all.find(flag) != std::string::npos) break;
    ::usleep(1000);
  }
  Lock(host_ + "-" + std::to_string(child));
  EXPECT_EQ(ClearStaleProfileLock(dir_), std::nullopt);
  EXPECT_TRUE(Locked());
  ::kill(-child, SIGKILL);
  ::waitpid(child, nullptr, 0);
}

TEST_F(ProfileLockTest, NoLockIsNothingToDo) { EXPECT_EQ(ClearStaleProfileLock(dir_), std::nullopt); }

}  // namespace
}  // namespace tb

namespace tb {
namespace {

mode_t ModeOfPath(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 0777) : 0;
}

// The launch profile holds the launched browser's logins: the user's alone.
TEST(PrepareProfileDir, CreatesItPrivate) {
  char tmpl[] = "/tmp/tb-profile-XXXXXX";
  const std::string root = ::mkdtemp(tmpl);
  ASSERT_TRUE(PrepareProfileDir(root + "/share/tabbridge/profile"));
  EXPECT_EQ(ModeOfPath(root + "/share/tabbridge/profile"), 0700u);
  std::filesystem::remove_all(root);
}

TEST(PrepareProfileDir, MakesAnOpenOnePrivate) {
  char tmpl[] = "/tmp/tb-profile-XXXXXX";
  const std::string root = ::mkdtemp(tmpl);
  ASSERT_EQ(::chmod(root.c_str(), 0755), 0);
  ASSERT_TRUE(PrepareProfileDir(root));
  EXPECT_EQ(ModeOfPath(root), 0700u);
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace tb
