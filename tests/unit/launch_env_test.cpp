// What a launched browser is given where it would not start as is: no
// sandbox as root or where user namespaces are blocked, headless without a
// display; the user's TABBRIDGE_BROWSER_ARGS decide first. The browser's own
// words on why it stopped, read from its log.
#include "mcp_shim/launch_env.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "mcp_shim/launcher.h"

namespace tb {
namespace {

using Args = std::vector<std::string>;

LaunchEnv Desktop() { return {.root = false, .user_namespaces = true, .setuid_sandbox = false, .display = true}; }

TEST(ChooseLaunchArgs, ADesktopUserGetsNothingAdded) {
  const auto choice = ChooseLaunchArgs(Desktop(), {});
  EXPECT_TRUE(choice.args.empty());
  EXPECT_TRUE(choice.notes.empty());
  EXPECT_FALSE(choice.no_sandbox);
  EXPECT_FALSE(choice.headless);
}

TEST(ChooseLaunchArgs, RootGetsNoSandboxAndASecurityNote) {
  LaunchEnv env = Desktop();
  env.root = true;
  const auto choice = ChooseLaunchArgs(env, {});
  EXPECT_EQ(choice.args, (Args{"--no-sandbox"}));
  ASSERT_EQ(choice.notes.size(), 1u);
  EXPECT_NE(choice.notes[0].find("security"), std::string::npos);
  EXPECT_NE(choice.notes[0].find("root"), std::string::npos);
  EXPECT_TRUE(choice.no_sandbox);
}

TEST(ChooseLaunchArgs, BlockedUserNamespacesWithoutASetuidHelperGetNoSandbox) {
  LaunchEnv env = Desktop();
  env.user_namespaces = false;
  EXPECT_EQ(ChooseLaunchArgs(env, {}).args, (Args{"--no-sandbox"}));
  env.setuid_sandbox = true;  // Chrome's setuid chrome-sandbox still sandboxes it
  EXPECT_TRUE(ChooseLaunchArgs(env, {}).args.empty());
}

TEST(ChooseLaunchArgs, NoDisplayMeansHeadlessWithANote) {
  LaunchEnv env = Desktop();
  env.display = false;
  const auto choice = ChooseLaunchArgs(env, {});
  EXPECT_EQ(choice.args, (Args{"--headless=new"}));
  ASSERT_EQ(choice.notes.size(), 1u);
  EXPECT_NE(choice.notes[0].find("no display"), std::string::npos);
  EXPECT_TRUE(choice.headless);
}

TEST(ChooseLaunchArgs, RootWithoutADisplayGetsBoth) {
  LaunchEnv env = Desktop();
  env.root = true;
  env.display = false;
  const auto choice = ChooseLaunchArgs(env, {});
  EXPECT_EQ(choice.args, (Args{"--no-sandbox", "--headless=new"}));
  EXPECT_EQ(choice.notes.size(), 2u);
}

TEST(ChooseLaunchArgs, TheUsersArgumentsDecideFirst) {
  LaunchEnv env = Desktop();
  env.root = true;
  env.display = false;
  // Theirs already: nothing added, nothing said.
  auto choice = ChooseLaunchArgs(env, {"--no-sandbox", "--headless"});
  EXPECT_TRUE(choice.args.empty());
  EXPECT_TRUE(choice.notes.empty());
  EXPECT_TRUE(choice.no_sandbox);
  EXPECT_TRUE(choice.headless);
  // A display of their choosing (Ozone's platform) is not overridden with headless.
  choice = ChooseLaunchArgs(env, {"--ozone-platform=wayland"});
  EXPECT_EQ(choice.args, (Args{"--no-sandbox"}));
  EXPECT_FALSE(choice.headless);
}

TEST(ChooseLaunchArgs, MacOSHasItsOwnSandboxAndAlwaysADisplay) {
  LaunchEnv env = Desktop();
  env.platform = Platform::kMacOS;
  env.display = false;
  env.user_namespaces = false;
  EXPECT_TRUE(ChooseLaunchArgs(env, {}).args.empty());
}

TEST(ReadLaunchEnv, ReadsThisProcess) {
  const LaunchEnv env = ReadLaunchEnv("/usr/bin/chromium");
  EXPECT_EQ(env.root, ::geteuid() == 0);
}

TEST(BrowserInstallCommand, NamesThePackageManagerOfTheSystem) {
  EXPECT_EQ(BrowserInstallCommand(Platform::kLinux, "debian ", false), "sudo apt-get install -y chromium");
  EXPECT_EQ(BrowserInstallCommand(Platform::kLinux, "debian ", true), "apt-get install -y chromium");
  EXPECT_EQ(BrowserInstallCommand(Platform::kLinux, "ubuntu debian", false),
            "sudo apt-get install -y chromium-browser");
  EXPECT_EQ(BrowserInstallCommand(Platform::kLinux, "rocky rhel centos fedora", false), "sudo dnf install -y chromium");
  EXPECT_EQ(BrowserInstallCommand(Platform::kMacOS, "", false), "brew install --cask google-chrome");
  EXPECT_EQ(BrowserInstallCommand(Platform::kLinux, "gentoo", false), "");
}

class BrowserLog : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() / ("tb-browser-log-" + std::to_string(::getpid()));
  }
  void TearDown() override { std::filesystem::remove(path_); }
  void Write(const std::string& text) { std::ofstream(path_, std::ios::app) << text; }
  std::uint64_t Size() { return std::filesystem::exists(path_) ? std::filesystem::file_size(path_) : 0; }
  std::filesystem::path path_;
};

TEST_F(BrowserLog, GivesTheErrorLinesWithoutChromiumsPrefix) {
  Write(
      "[1:1:1125/101010.1:INFO:chrome_main.cc(1)] starting\n"
      "[1:1:1125/101010.2:ERROR:zygote_host_impl_linux.cc(101)] Running as root without --no-sandbox is not "
      "supported. See https://crbug.com/638180.\n");
  EXPECT_EQ(BrowserLogErrors(path_, 0),
            "Running as root without --no-sandbox is not supported. See https://crbug.com/638180.");
}

TEST_F(BrowserLog, ReadsOnlyWhatThisLaunchWrote) {
  Write("[1:1:1125/1.1:ERROR:a.cc(1)] an old launch's error\n");
  const auto offset = Size();
  Write("[2:2:1125/1.1:FATAL:b.cc(2)] Missing X server or $DISPLAY\n");
  EXPECT_EQ(BrowserLogErrors(path_, offset), "Missing X server or $DISPLAY");
}

TEST_F(BrowserLog, KeepsTheLastFewAndAWrappersOwnError) {
  Write("/usr/bin/chromium: error: cannot find the browser binary\n");
  for (int i = 0; i < 5; ++i) Write("[1:1:1125/1.1:ERROR:c.cc(1)] error " + std::to_string(i) + "\n");
  EXPECT_EQ(BrowserLogErrors(path_, 0, 2), "error 3\nerror 4");
  EXPECT_EQ(BrowserLogErrors(path_, 0, 10).substr(0, 25), "/usr/bin/chromium: error:");
  EXPECT_EQ(BrowserLogErrors(path_ / "missing", 0), "");
}

TEST(AdviceForBrowserErrors, SaysWhatToDoAboutTheCommonOnes) {
  EXPECT_NE(AdviceForBrowserErrors("Running as root without --no-sandbox is not supported.", "/p/log")
                .find("--no-sandbox in TABBRIDGE_BROWSER_ARGS"),
            std::string::npos);
  EXPECT_NE(AdviceForBrowserErrors("Missing X server or $DISPLAY", "/p/log").find("--headless=new"), std::string::npos);
  EXPECT_NE(AdviceForBrowserErrors("", "/p/log").find("/p/log"), std::string::npos);
}

TEST(DescribeExit, StatusOrSignal) {
  EXPECT_EQ(DescribeExit({.status = 1, .signal = 0}), "exited with status 1");
  EXPECT_EQ(DescribeExit({.status = 0, .signal = 9}), "was killed by signal 9");
}

}  // namespace
}  // namespace tb
