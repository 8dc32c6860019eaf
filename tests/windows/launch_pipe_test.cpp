// connect_browser {launch: true}'s process plumbing on Windows, under Wine:
// tb::StartBrowser starts tabbridge_cdp_stand_in.exe (a stand-in for Chrome)
// through CreateProcessW with the DevTools pipe's handles in
// --remote-debugging-io-pipes, sends Extensions.loadUnpacked and hears the
// answer; a browser that never answers is stopped; one that crashes is said
// to have crashed with its exception code. The arguments arrive unchanged
// (the command line's quoting).
#include <winsock2.h>

#include <windows.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <gtest/gtest.h>

#include "mcp_shim/launcher.h"
#include "mcp_shim/paths.h"

namespace tb {
namespace {

namespace fs = std::filesystem;
using Outcome = std::expected<std::unique_ptr<LaunchedBrowser>, std::string>;

class LaunchPipeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    profile_ =
        fs::temp_directory_path() / ("tb-launch-" + std::to_string(::GetCurrentProcessId()) + "-" +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + " with space");
    fs::create_directories(profile_);
    uv_loop_init(&loop_);
  }
  void TearDown() override {
    uv_run(&loop_, UV_RUN_DEFAULT);
    uv_loop_close(&loop_);
    std::error_code ec;
    fs::remove_all(profile_, ec);
  }

  LaunchPlan Plan(const std::string& mode) {
    LaunchPlan plan;
    plan.executable = ExecutableDir() + "\\tabbridge_cdp_stand_in.exe";
    plan.profile_dir = profile_.string();
    plan.extension_dir = "C:\\tab bridge\\extension";
    plan.load_over_pipe = true;
    plan.args = {"--user-data-dir=" + plan.profile_dir,
                 "--remote-debugging-pipe",
                 "--stand-in=" + mode,
                 "say \"hi\"",
                 "C:\\trailing\\",
                 "",
                 "about:blank"};
    return plan;
  }

  Outcome Run(const LaunchPlan& plan, std::uint64_t answer_within_ms) {
    std::optional<Outcome> outcome;
    StartBrowser(&loop_, plan, answer_within_ms, [&](Outcome o) { outcome = std::move(o); });
    uv_run(&loop_, UV_RUN_DEFAULT);
    EXPECT_TRUE(outcome.has_value());
    return outcome ? std::move(*outcome) : std::unexpected("no outcome");
  }

  std::string Log() {
    std::ifstream in(profile_ / "tabbridge-browser.log", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  // Polls the launched process's end (it writes its log before it exits).
  std::optional<BrowserExit> WaitExit(const LaunchedBrowser& browser) {
    for (int i = 0; i < 400; ++i) {
      if (auto exit = browser.exited()) return exit;
      ::Sleep(25);
    }
    return std::nullopt;
  }

  fs::path profile_;
  uv_loop_t loop_{};
};

TEST_F(LaunchPipeTest, LoadsTheExtensionOverTheInheritedHandles) {
  Outcome outcome = Run(Plan("answer"), 20'000);
  ASSERT_TRUE(outcome.has_value()) << outcome.error();
  const auto exit = WaitExit(**outcome);
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(exit->status, 0);
  const std::string log = Log();
  EXPECT_NE(log.find("got: {\"id\":1,\"method\":\"Extensions.loadUnpacked\",\"params\":{\"path\":\"C:\\\\tab "
                     "bridge\\\\extension\"}}"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("arg: --remote-debugging-io-pipes="), std::string::npos) << log;
  // Every argument as given: quotes, a trailing backslash, an empty one, spaces.
  EXPECT_NE(log.find("arg: say \"hi\"\n"), std::string::npos) << log;
  EXPECT_NE(log.find("arg: C:\\trailing\\\n"), std::string::npos) << log;
  EXPECT_NE(log.find("arg: \narg: about:blank\n"), std::string::npos) << log;
  EXPECT_NE(log.find("arg: --user-data-dir=" + profile_.string() + "\n"), std::string::npos) << log;
}

TEST_F(LaunchPipeTest, StopsABrowserThatNeverAnswers) {
  Outcome outcome = Run(Plan("silent"), 1'500);
  ASSERT_FALSE(outcome.has_value());
  EXPECT_NE(outcome.error().find("did not answer on its DevTools pipe"), std::string::npos) << outcome.error();
}

TEST_F(LaunchPipeTest, SaysHowACrashedBrowserEnded) {
  Outcome outcome = Run(Plan("crash"), 20'000);
  ASSERT_FALSE(outcome.has_value());
  EXPECT_NE(outcome.error().find("crashed (exception 0xC0000005), closing its DevTools pipe"), std::string::npos)
      << outcome.error();
}

TEST_F(LaunchPipeTest, SaysWhatCannotBeStarted) {
  LaunchPlan plan = Plan("answer");
  plan.executable = ExecutableDir() + "\\no-such-browser.exe";
  Outcome outcome = Run(plan, 1'000);
  ASSERT_FALSE(outcome.has_value());
  EXPECT_NE(outcome.error().find("cannot start"), std::string::npos) << outcome.error();
}

}  // namespace
}  // namespace tb
