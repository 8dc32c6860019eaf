// Finding the Windows tabbridge.exe from WSL, with the machine injected:
// the path mapping, which install is chosen, the `claude mcp add` line, and
// what a Linux shim under WSL that finds no browser says.
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "common/windows_names.h"
#include "mcp_shim/wsl_install.h"

namespace tb::wsl {
namespace {

struct Machine {
  std::optional<std::string> local_app_data;   // what cmd.exe says; nullopt: no interop
  std::map<std::string, std::string> wslpath;  // what wslpath -u says
  std::vector<std::string> profiles;           // /mnt/c/Users
  std::set<std::string> files;
  std::string user = "me";

  Probe probe() const {
    Probe probe;
    probe.local_app_data = [this] { return local_app_data; };
    probe.wsl_path = [this](const std::string& path) -> std::optional<std::string> {
      const auto it = wslpath.find(path);
      if (it == wslpath.end()) return std::nullopt;
      return it->second;
    };
    probe.list_dir = [this](const std::string& dir) {
      return dir == "/mnt/c/Users" ? profiles : std::vector<std::string>{};
    };
    probe.exists = [this](const std::string& path) { return files.contains(path); };
    probe.user = user;
    return probe;
  }
};

TEST(WslMountPath, MapsADriveUnderMnt) {
  EXPECT_EQ(MountPath("C:\\Users\\me\\AppData\\Local").value(), "/mnt/c/Users/me/AppData/Local");
  EXPECT_EQ(MountPath("D:/tools/tabbridge/tabbridge.exe").value(), "/mnt/d/tools/tabbridge/tabbridge.exe");
  EXPECT_EQ(MountPath("C:\\").value(), "/mnt/c/");
  EXPECT_EQ(MountPath("C:\\Users\\me\\").value(), "/mnt/c/Users/me");
  EXPECT_FALSE(MountPath("%LOCALAPPDATA%"));  // cmd.exe's echo when the variable is unset
  EXPECT_FALSE(MountPath("\\\\server\\share"));
  EXPECT_FALSE(MountPath("/home/me"));
  EXPECT_FALSE(MountPath("C:relative"));
}

TEST(WslFind, InteropsLocalAppDataComesFirstThroughWslpath) {
  Machine machine;
  machine.local_app_data = "C:\\Users\\Jane Doe\\AppData\\Local";
  machine.wslpath["C:\\Users\\Jane Doe\\AppData\\Local"] = "/c/Users/Jane Doe/AppData/Local";  // automount root /
  machine.profiles = {"me", "Jane Doe"};
  machine.files = {"/c/Users/Jane Doe/AppData/Local/tabbridge/tabbridge.exe",
                   "/mnt/c/Users/me/AppData/Local/tabbridge/tabbridge.exe"};
  EXPECT_EQ(FindInstalled(machine.probe()),
            (std::vector<std::string>{"/c/Users/Jane Doe/AppData/Local/tabbridge/tabbridge.exe",
                                      "/mnt/c/Users/me/AppData/Local/tabbridge/tabbridge.exe"}));
}

TEST(WslFind, WithoutWslpathTheWindowsPathIsMappedUnderMnt) {
  Machine machine;
  machine.local_app_data = "C:\\Users\\Jane\\AppData\\Local";
  machine.profiles = {"Jane"};
  machine.files = {"/mnt/c/Users/Jane/AppData/Local/tabbridge/tabbridge.exe"};
  EXPECT_EQ(FindInstalled(machine.probe()),
            std::vector<std::string>{"/mnt/c/Users/Jane/AppData/Local/tabbridge/tabbridge.exe"});  // once
}

TEST(WslFind, WithoutInteropTheProfileNamedLikeTheUserComesFirst) {
  Machine machine;
  machine.user = "Zed";
  machine.profiles = {"Public", "Default", "alice", "zed", "bob", "desktop.ini"};
  machine.files = {"/mnt/c/Users/alice/AppData/Local/tabbridge/tabbridge.exe",
                   "/mnt/c/Users/zed/AppData/Local/tabbridge/tabbridge.exe",
                   "/mnt/c/Users/Public/AppData/Local/tabbridge/tabbridge.exe"};
  EXPECT_EQ(FindInstalled(machine.probe()),
            (std::vector<std::string>{"/mnt/c/Users/zed/AppData/Local/tabbridge/tabbridge.exe",
                                      "/mnt/c/Users/alice/AppData/Local/tabbridge/tabbridge.exe"}));
}

TEST(WslFind, NothingInstalledIsEmpty) {
  Machine machine;
  machine.local_app_data = "C:\\Users\\me\\AppData\\Local";
  machine.profiles = {"me"};
  EXPECT_TRUE(FindInstalled(machine.probe()).empty());
}

TEST(WslLine, PassesTheDistroAfterTheExe) {
  EXPECT_EQ(McpAddLine("/mnt/c/Users/me/AppData/Local/tabbridge/tabbridge.exe", ShellWord("Ubuntu-22.04")),
            "claude mcp add tabbridge -- /mnt/c/Users/me/AppData/Local/tabbridge/tabbridge.exe --wsl-distro "
            "Ubuntu-22.04");
  // Printed on Windows: the WSL shell it is pasted into expands it.
  EXPECT_EQ(McpAddLine("/mnt/c/Users/Zoë/AppData/Local/tabbridge/tabbridge.exe", kDistroFromShell),
            "claude mcp add tabbridge -- '/mnt/c/Users/Zoë/AppData/Local/tabbridge/tabbridge.exe' --wsl-distro "
            "\"$WSL_DISTRO_NAME\"");
  EXPECT_EQ(ShellWord("my distro"), "'my distro'");
}

TEST(WslLine, QuotesAPathThatNeedsIt) {
  EXPECT_EQ(McpAddLine("/mnt/c/Users/me/AppData/Local/tabbridge/tabbridge.exe"),
            "claude mcp add tabbridge -- /mnt/c/Users/me/AppData/Local/tabbridge/tabbridge.exe");
  EXPECT_EQ(McpAddLine("/mnt/c/Users/Jane Doe/AppData/Local/tabbridge/tabbridge.exe"),
            "claude mcp add tabbridge -- '/mnt/c/Users/Jane Doe/AppData/Local/tabbridge/tabbridge.exe'");
  EXPECT_EQ(McpAddLine("/mnt/c/Users/O'Brien/tabbridge.exe"),
            "claude mcp add tabbridge -- '/mnt/c/Users/O'\\''Brien/tabbridge.exe'");
}

TEST(WslHint, NamesTheInstalledExeOrTheTemplate) {
  const std::string found =
      NoBrowserHint({"/mnt/c/Users/me/AppData/Local/tabbridge/tabbridge.exe"}, Interop::kEnabled, "Ubuntu");
  EXPECT_NE(found.find("This is WSL"), std::string::npos);
  EXPECT_NE(found.find("`claude mcp add tabbridge -- /mnt/c/Users/me/AppData/Local/tabbridge/tabbridge.exe "
                       "--wsl-distro Ubuntu`"),
            std::string::npos)
      << found;
  EXPECT_EQ(found.find("Exec format error"), std::string::npos) << "interop works: " << found;
  const std::string none = NoBrowserHint({}, Interop::kEnabled, "");
  EXPECT_NE(none.find("install.ps1"), std::string::npos);
  EXPECT_NE(none.find("`claude mcp add tabbridge -- '/mnt/c/Users/<you>/AppData/Local/tabbridge/tabbridge.exe'`"),
            std::string::npos)
      << none;
}

TEST(WslHint, SaysWhenWindowsProgramsCannotRun) {
  const std::string hint =
      NoBrowserHint({"/mnt/c/Users/me/AppData/Local/tabbridge/tabbridge.exe"}, Interop::kDisabled, "Ubuntu");
  EXPECT_NE(hint.find("Windows programs cannot run from this WSL"), std::string::npos) << hint;
  EXPECT_NE(hint.find("Exec format error"), std::string::npos) << hint;
  EXPECT_NE(hint.find("[interop]"), std::string::npos) << hint;
  EXPECT_NE(hint.find("wsl --shutdown"), std::string::npos) << hint;
  EXPECT_NE(hint.find("echo 1 > /proc/sys/fs/binfmt_misc/WSLInterop"), std::string::npos) << hint;
}

// The binfmt_misc entries as the kernel shows them.
TEST(WslInterop, EnabledOnlyWhenAnEntrySaysSo) {
  const std::string enabled = "enabled\ninterpreter /init\nflags: PF\noffset 0\nmagic 4d5a\n";
  EXPECT_EQ(InteropFrom(enabled, std::nullopt), Interop::kEnabled);
  EXPECT_EQ(InteropFrom(std::nullopt, enabled), Interop::kEnabled);  // WSLInterop-late (systemd)
  EXPECT_EQ(InteropFrom("disabled\ninterpreter /init\n", std::nullopt), Interop::kDisabled);
  EXPECT_EQ(InteropFrom("disabled\n", enabled), Interop::kEnabled);
  EXPECT_EQ(InteropFrom("", std::nullopt), Interop::kDisabled);
  EXPECT_EQ(InteropFrom("interpreter /init\nenabled\n", std::nullopt), Interop::kDisabled) << "the first line";
  EXPECT_EQ(InteropFrom(std::nullopt, std::nullopt), Interop::kMissing);
  EXPECT_EQ(InteropProblem(Interop::kEnabled), "");
  EXPECT_NE(InteropProblem(Interop::kMissing).find("WSLInterop is missing"), std::string::npos);
  EXPECT_NE(InteropProblem(Interop::kDisabled).find("is not \"enabled\""), std::string::npos);
}

// cmd.exe's output, after chcp 65001 or not.
TEST(WslLocalAppData, ReadsAUtf8PathAndRefusesAnotherCodePage) {
  EXPECT_EQ(ParseLocalAppData("C:\\Users\\Zo\xC3\xAB\\AppData\\Local\r\n").value(),
            "C:\\Users\\Zo\xC3\xAB\\AppData\\Local");
  EXPECT_EQ(ParseLocalAppData("Active code page: 65001\r\nC:\\Users\\me\\AppData\\Local\r\n").value(),
            "C:\\Users\\me\\AppData\\Local");
  EXPECT_FALSE(ParseLocalAppData("C:\\Users\\Zo\x89\\AppData\\Local\r\n"));  // OEM 850's "ë"
  EXPECT_FALSE(ParseLocalAppData("C:\\Users\\Zo\xEB\\AppData\\Local\r\n"));  // Windows-1252's
  EXPECT_FALSE(ParseLocalAppData("%LOCALAPPDATA%\r\n"));                     // unset
  EXPECT_FALSE(ParseLocalAppData(""));
}

TEST(WslLocalAppData, Utf8Validity) {
  EXPECT_TRUE(IsValidUtf8("plain"));
  EXPECT_TRUE(IsValidUtf8("Zo\xC3\xAB \xE2\x82\xAC \xF0\x9F\x98\x80"));
  EXPECT_FALSE(IsValidUtf8("\xC3"));              // cut short
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // overlong "/"
  EXPECT_FALSE(IsValidUtf8("\xE0\x80\xAF"));      // overlong "/"
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // a surrogate
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // beyond U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\x80"));
}

TEST(WslDetect, ProcVersionOfWsl2AndWsl1AndPlainLinux) {
  EXPECT_TRUE(windows::IsWsl("Linux version 5.15.153.1-microsoft-standard-WSL2 (root@...) #1 SMP"));
  EXPECT_TRUE(windows::IsWsl("Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com) (gcc version 5.4.0)"));
  EXPECT_FALSE(windows::IsWsl("Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)"));
}

}  // namespace
}  // namespace tb::wsl
