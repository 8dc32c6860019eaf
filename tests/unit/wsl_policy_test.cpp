// `tabbridge allow` and `policy` typed inside WSL (mcp_shim/wsl_policy.h):
// which tabbridge runs them, and what is said when the Windows one cannot.
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

}  // namespace
}  // namespace tb::wsl
