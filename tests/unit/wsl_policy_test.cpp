// `tabbridge allow` and `policy` typed inside WSL (mcp_shim/wsl_policy.h):
// which tabbridge runs them, and what is said when the Windows one cannot.
#ifndef _WIN32
#include <unistd.h>
#endif

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "mcp_shim/wsl_policy.h"

namespace tb::wsl {
namespace {

constexpr const char* kExe = "/mnt/c/Users/Zo\xC3\xAB/AppData/Local/tabbridge/tabbridge.exe";

TEST(WslPolicyRoute, OutsideWslOrWithLinuxItRunsHere) {
  EXPECT_EQ(RoutePolicyCommand(false, false, Interop::kMissing, false), PolicyRoute::kHere);
  EXPECT_EQ(RoutePolicyCommand(false, false, Interop::kEnabled, true), PolicyRoute::kHere);
  EXPECT_EQ(RoutePolicyCommand(true, true, Interop::kEnabled, true), PolicyRoute::kHere);
  EXPECT_EQ(RoutePolicyCommand(true, true, Interop::kDisabled, false), PolicyRoute::kHere);
}

TEST(WslPolicyRoute, InWslTheWindowsExeRunsItWhenItCan) {
  EXPECT_EQ(RoutePolicyCommand(true, false, Interop::kEnabled, true), PolicyRoute::kForward);
  EXPECT_EQ(RoutePolicyCommand(true, false, Interop::kEnabled, false), PolicyRoute::kExplain);
  EXPECT_EQ(RoutePolicyCommand(true, false, Interop::kDisabled, true), PolicyRoute::kExplain);
  EXPECT_EQ(RoutePolicyCommand(true, false, Interop::kMissing, true), PolicyRoute::kExplain);
}

TEST(WslPolicyFile, BesideTheInstallInRoaming) {
  EXPECT_EQ(WindowsPolicyFile(kExe).value(), "/mnt/c/Users/Zo\xC3\xAB/AppData/Roaming/tabbridge/policy.json");
  EXPECT_FALSE(WindowsPolicyFile("/mnt/d/tools/tabbridge.exe"));
}

TEST(WslPolicyExplanation, NamesBothFilesTheProblemAndLinux) {
  const std::string text =
      WindowsPolicyExplanation("allow", {kExe}, Interop::kDisabled, "~/.config/tabbridge/policy.json");
  EXPECT_NE(text.find("%APPDATA%\\tabbridge\\policy.json (here /mnt/c/Users/Zo\xC3\xAB/AppData/Roaming/tabbridge/"
                      "policy.json)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("not ~/.config/tabbridge/policy.json"), std::string::npos) << text;
  EXPECT_NE(text.find("Windows programs cannot run from this WSL"), std::string::npos) << text;
  EXPECT_NE(text.find("`tabbridge allow --linux ...`"), std::string::npos) << text;
  EXPECT_NE(text.find("`tabbridge.exe allow ...` on Windows"), std::string::npos) << text;

  const std::string none = WindowsPolicyExplanation("policy", {}, Interop::kEnabled, "/x/policy.json");
  EXPECT_NE(none.find("No Windows tabbridge.exe is installed"), std::string::npos) << none;
  EXPECT_EQ(none.find("(here "), std::string::npos) << none;
  EXPECT_EQ(none.find("cannot run"), std::string::npos) << none;
}

// A machine that records what RouteInWsl asked of it.
struct FakeMachine {
  PolicyMachine machine;
  int interop_asked = 0;
  std::vector<std::vector<std::string>> runs;  // exe, then its arguments
  std::string said;

  FakeMachine(bool is_wsl, Interop interop, std::vector<std::string> installed) {
    machine.is_wsl = is_wsl;
    machine.interop = [this, interop] {
      ++interop_asked;
      return interop;
    };
    machine.installed = [installed](Interop) { return installed; };
    machine.run = [this](const std::string& exe, const std::vector<std::string>& args) {
      runs.push_back({exe});
      runs.back().insert(runs.back().end(), args.begin(), args.end());
      return 3;  // the Windows tabbridge.exe's own exit status, passed through
    };
    machine.say = [this](const std::string& text) { said += text; };
    machine.linux_file = "~/.config/tabbridge/policy.json";
  }
};

TEST(WslPolicyRouteInWsl, ForwardsTheSameArgumentsAndTheExitStatus) {
  FakeMachine fake(true, Interop::kEnabled, {kExe});
  std::vector<std::string> args{"github.com", "act"};
  EXPECT_EQ(RouteInWsl("allow", args, fake.machine), 3);
  ASSERT_EQ(fake.runs.size(), 1u);
  EXPECT_EQ(fake.runs[0], (std::vector<std::string>{kExe, "allow", "github.com", "act"}));
  EXPECT_NE(fake.said.find("running the Windows"), std::string::npos) << fake.said;
}

// WSL does not escape an inner '"' on the way to a Windows program: refused
// with what to do, never forwarded split or joined.
TEST(WslPolicyRouteInWsl, AnArgumentWithAQuoteIsNotForwarded) {
  FakeMachine fake(true, Interop::kEnabled, {kExe});
  std::vector<std::string> args{"https://x.example/?q=\"a b\""};
  EXPECT_EQ(RouteInWsl("policy", args, fake.machine), 2);
  EXPECT_TRUE(fake.runs.empty());
  EXPECT_NE(fake.said.find("%22"), std::string::npos) << fake.said;
}

TEST(WslPolicyRouteInWsl, LinuxIsTakenOutAndRunsHereWithoutAskingWindows) {
  FakeMachine fake(true, Interop::kEnabled, {kExe});
  std::vector<std::string> args{"--linux", "github.com"};
  EXPECT_EQ(RouteInWsl("allow", args, fake.machine), std::nullopt);
  EXPECT_EQ(args, std::vector<std::string>{"github.com"});
  EXPECT_EQ(fake.interop_asked, 0);
  EXPECT_TRUE(fake.runs.empty());
}

TEST(WslPolicyRouteInWsl, OutsideWslNothingChanges) {
  FakeMachine fake(false, Interop::kMissing, {});
  std::vector<std::string> args{"https://github.com/"};
  EXPECT_EQ(RouteInWsl("policy", args, fake.machine), std::nullopt);
  EXPECT_EQ(args, std::vector<std::string>{"https://github.com/"});
  EXPECT_EQ(fake.interop_asked, 0);
  EXPECT_TRUE(fake.said.empty());
}

TEST(WslPolicyRouteInWsl, WithoutInteropItExplainsAndFails) {
  FakeMachine fake(true, Interop::kDisabled, {kExe});
  std::vector<std::string> args{"github.com"};
  EXPECT_EQ(RouteInWsl("allow", args, fake.machine), 1);
  EXPECT_TRUE(fake.runs.empty());
  EXPECT_NE(fake.said.find("not ~/.config/tabbridge/policy.json"), std::string::npos) << fake.said;
  EXPECT_NE(fake.said.find("/mnt/c/Users/Zo\xC3\xAB/AppData/Roaming/tabbridge/policy.json"), std::string::npos)
      << fake.said;
}

#ifndef _WIN32
// The runner the forward uses: the program's own stdio and exit status (a
// shell script stands in for tabbridge.exe, which binfmt_misc runs in WSL).
TEST(WslPolicyRun, ArgumentsAndExitStatusPassThrough) {
  const auto dir = std::filesystem::temp_directory_path() / ("tb-wsl-run-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string script = (dir / "tabbridge.exe").string();
  const std::string seen = (dir / "seen").string();
  {
    std::ofstream out(script);
    out << "#!/bin/sh\nprintf '%s|' \"$@\" > '" << seen << "'\nexit 7\n";
  }
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  EXPECT_EQ(RunWithOurStdio(script, {"allow", "zo\xC3\xAB.example", "a b"}), 7);
  std::ifstream in(seen);
  std::string args((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(args, "allow|zo\xC3\xAB.example|a b|");
  EXPECT_EQ(RunWithOurStdio((dir / "missing.exe").string(), {}), 1);
  std::filesystem::remove_all(dir);
}
#endif

}  // namespace
}  // namespace tb::wsl
