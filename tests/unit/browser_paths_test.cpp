// Which browser a launch starts and how it is started, decided from injected
// environments: the Windows choices (install paths, command line quoting,
// the DevTools pipe's handles, exit codes) checked on Linux and under Wine.
#include "mcp_shim/browser_paths.h"

#include <map>
#include <set>

#include <gtest/gtest.h>

#include "mcp_shim/browser_process.h"
#include "mcp_shim/launch_env.h"
#include "mcp_shim/launcher.h"
#include "mcp_shim/paths.h"
#include "mcp_shim/session_tabs.h"

namespace tb {
namespace {

using Env = std::map<std::string, std::string>;

EnvLookup Lookup(Env env) {
  return [env = std::move(env)](const char* name) {
    const auto found = env.find(name);
    return found == env.end() ? std::string() : found->second;
  };
}

const Env kWindowsEnv = {{"ProgramFiles", "C:\\Program Files"},
                         {"ProgramFiles(x86)", "C:\\Program Files (x86)\\"},
                         {"LOCALAPPDATA", "C:\\Users\\ann\\AppData\\Local"}};

TEST(BrowserCandidates, WindowsLooksInProgramFilesAndLocalAppData) {
  const auto candidates = BrowserCandidates(Platform::kWindows, Lookup(kWindowsEnv));
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates[0], "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe");
  EXPECT_EQ(candidates[1], "C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe");
  EXPECT_EQ(candidates[2], "C:\\Users\\ann\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe");
  const std::set<std::string> all(candidates.begin(), candidates.end());
  EXPECT_TRUE(all.contains("C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe"));
  EXPECT_TRUE(all.contains("C:\\Users\\ann\\AppData\\Local\\Chromium\\Application\\chrome.exe"));
  EXPECT_TRUE(all.contains("C:\\Program Files\\BraveSoftware\\Brave-Browser\\Application\\brave.exe"));
  EXPECT_TRUE(all.contains("C:\\Users\\ann\\AppData\\Local\\Vivaldi\\Application\\vivaldi.exe"));
  EXPECT_EQ(all.size(), candidates.size());
}

// A variable that is unset gives no candidate under "\…" (the drive's root).
TEST(BrowserCandidates, WindowsSkipsUnsetRoots) {
  const auto candidates = BrowserCandidates(Platform::kWindows, Lookup({{"LOCALAPPDATA", "D:\\Local"}}));
  for (const auto& path : candidates) EXPECT_TRUE(path.starts_with("D:\\Local\\")) << path;
  EXPECT_EQ(candidates.size(), 5u);
  EXPECT_TRUE(BrowserCandidates(Platform::kWindows, Lookup({})).empty());
}

TEST(BrowserCandidates, LinuxNamesProgramsForPath) {
  const auto candidates = BrowserCandidates(Platform::kLinux, Lookup(kWindowsEnv));
  EXPECT_EQ(candidates.front(), "google-chrome");
  EXPECT_NE(std::ranges::find(candidates, "chromium"), candidates.end());
}

// Chrome wins over Edge (always installed on Windows) when both are there.
TEST(PickBrowser, TakesTheFirstThatExists) {
  const auto candidates = BrowserCandidates(Platform::kWindows, Lookup(kWindowsEnv));
  const std::set<std::string> installed = {"C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe",
                                           "C:\\Users\\ann\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe"};
  const auto exists = [&](const std::string& path) { return installed.contains(path); };
  EXPECT_EQ(PickBrowser(candidates, exists), "C:\\Users\\ann\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe");
  const std::set<std::string> edge_only = {"C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe"};
  EXPECT_EQ(PickBrowser(candidates, [&](const std::string& p) { return edge_only.contains(p); }),
            "C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe");
  EXPECT_EQ(PickBrowser(candidates, [](const std::string&) { return false; }), "");
}

TEST(IsBrandedChrome, WindowsTellsChromeFromChromium) {
  EXPECT_TRUE(IsBrandedChrome("C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe", Platform::kWindows));
  EXPECT_TRUE(
      IsBrandedChrome("c:/users/ann/appdata/local/google/chrome sxs/application/CHROME.EXE", Platform::kWindows));
  EXPECT_FALSE(
      IsBrandedChrome("C:\\Users\\ann\\AppData\\Local\\Chromium\\Application\\chrome.exe", Platform::kWindows));
  EXPECT_FALSE(IsBrandedChrome("C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe", Platform::kWindows));
  EXPECT_TRUE(IsBrandedChrome("/usr/bin/google-chrome-stable", Platform::kLinux));
  EXPECT_FALSE(IsBrandedChrome("/usr/bin/chromium", Platform::kLinux));
}

TEST(IoPipesSwitch, NamesTheBrowsersReadThenWriteHandleInDecimal) {
  EXPECT_EQ(IoPipesSwitch(0x1a4, 0x1b0), "--remote-debugging-io-pipes=420,432");
}

TEST(WithIoPipes, FollowsTheRemoteDebuggingPipeSwitch) {
  using Args = std::vector<std::string>;
  EXPECT_EQ(WithIoPipes({"--user-data-dir=x", "--remote-debugging-pipe", "about:blank"}, "--io"),
            (Args{"--user-data-dir=x", "--remote-debugging-pipe", "--io", "about:blank"}));
  EXPECT_EQ(WithIoPipes({"a"}, "--io"), (Args{"a", "--io"}));
}

// What CommandLineToArgvW gives back for each (checked for real under Wine by launch_pipe_test).
TEST(QuoteWindowsArg, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(QuoteWindowsArg("--no-first-run"), "--no-first-run");
  EXPECT_EQ(QuoteWindowsArg(""), "\"\"");
  EXPECT_EQ(QuoteWindowsArg("--user-data-dir=C:\\Users\\Ann Lee\\p"), "\"--user-data-dir=C:\\Users\\Ann Lee\\p\"");
  EXPECT_EQ(QuoteWindowsArg("C:\\dir with space\\"), "\"C:\\dir with space\\\\\"");
  EXPECT_EQ(QuoteWindowsArg("say \"hi\""), "\"say \\\"hi\\\"\"");
  EXPECT_EQ(QuoteWindowsArg("a\\\"b"), "\"a\\\\\\\"b\"");
  EXPECT_EQ(QuoteWindowsArg("C:\\no\\space\\"), "C:\\no\\space\\");
}

TEST(WindowsCommandLine, QuotesTheProgramWhole) {
  EXPECT_EQ(WindowsCommandLine("C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe", {"--a", "b c"}),
            "\"C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe\" --a \"b c\"");
}

TEST(DescribeExit, AWindowsExceptionIsACrash) {
  EXPECT_EQ(DescribeExit({.status = 0xC0000005, .signal = 0}), "crashed (exception 0xC0000005)");
  EXPECT_EQ(DescribeExit({.status = 1, .signal = 0}), "exited with status 1");
  EXPECT_EQ(HowItEnded({0xC0000409, 0}), "had crashed (exception 0xC0000409)");
  EXPECT_TRUE(Crashed({0xC0000005, 0}));
  EXPECT_FALSE(IsWindowsException(255));
}

TEST(ChooseLaunchArgs, WindowsNeedsNoSandboxOrDisplayChoice) {
  const LaunchEnv env{.root = true, .user_namespaces = false, .display = false, .platform = Platform::kWindows};
  const LaunchChoice choice = ChooseLaunchArgs(env, {});
  EXPECT_TRUE(choice.args.empty());
  EXPECT_TRUE(choice.notes.empty());
  EXPECT_EQ(BrowserInstallCommand(Platform::kWindows, "", false), "winget install --id Google.Chrome");
}

TEST(ProfileDirFor, WindowsKeepsItInLocalAppData) {
  EXPECT_EQ(ProfileDirFor(Platform::kWindows, Lookup(kWindowsEnv)),
            "C:\\Users\\ann\\AppData\\Local\\tabbridge\\profile");
  EXPECT_EQ(ProfileDirFor(Platform::kWindows, Lookup({{"TABBRIDGE_PROFILE_DIR", "D:\\p"}})), "D:\\p");
}

}  // namespace
}  // namespace tb
