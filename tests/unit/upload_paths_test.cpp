// upload_file's decisions on Windows paths and roots' URIs (mcp_shim/upload_paths.h),
// on Linux and under Wine: case, both slashes, drive letters, \\?\ and UNC.
#include "mcp_shim/upload_paths.h"

#include <gtest/gtest.h>

namespace tb {
namespace {

TEST(PathOfFileUri, Posix) {
  EXPECT_EQ(PathOfFileUri("file:///home/ann/my%20project", Platform::kLinux), "/home/ann/my project");
  EXPECT_EQ(PathOfFileUri("file://otherhost/x", Platform::kLinux), std::nullopt);
  EXPECT_EQ(PathOfFileUri("file:///C:/x", Platform::kLinux), "/C:/x");
}

TEST(PathOfFileUri, WindowsDriveLetters) {
  EXPECT_EQ(PathOfFileUri("file:///C:/Users/ann/my%20project", Platform::kWindows), "C:\\Users\\ann\\my project");
  EXPECT_EQ(PathOfFileUri("file:///c%3A/src", Platform::kWindows), "c:\\src");  // as VS Code writes it
  EXPECT_EQ(PathOfFileUri("FILE://localhost/D:/", Platform::kWindows), "D:\\");
  EXPECT_EQ(PathOfFileUri("file:///D:", Platform::kWindows), "D:\\");
  EXPECT_EQ(PathOfFileUri("file://server/share/dir", Platform::kWindows), "\\\\server\\share\\dir");
  EXPECT_EQ(PathOfFileUri("file:///home/ann", Platform::kWindows), std::nullopt);  // no drive: not a Windows path
  EXPECT_EQ(PathOfFileUri("file:///C:/a%00b", Platform::kWindows), std::nullopt);
  EXPECT_EQ(PathOfFileUri("https://example.com/C:/x", Platform::kWindows), std::nullopt);
}

TEST(WindowsComparable, OneSpellingPerPath) {
  EXPECT_EQ(WindowsComparable("C:/Users/Ann/"), "c:\\users\\ann");
  EXPECT_EQ(WindowsComparable("\\\\?\\C:\\Users\\Ann"), "c:\\users\\ann");
  EXPECT_EQ(WindowsComparable("\\\\?\\UNC\\Server\\Share\\x"), "\\\\server\\share\\x");
  EXPECT_EQ(WindowsComparable("C:\\"), "c:\\");
}

TEST(WindowsUnder, IgnoresCaseSlashesAndPrefixes) {
  EXPECT_TRUE(WindowsUnder("c:/users/ann/project/a.txt", "C:\\Users\\Ann\\Project"));
  EXPECT_TRUE(WindowsUnder("\\\\?\\C:\\Users\\Ann\\Project", "C:\\Users\\Ann\\Project\\"));
  EXPECT_TRUE(WindowsUnder("D:\\x", "d:\\"));
  EXPECT_FALSE(WindowsUnder("C:\\Users\\Ann\\Project2\\a", "C:\\Users\\Ann\\Project"));
  EXPECT_FALSE(WindowsUnder("D:\\Users\\Ann\\Project\\a", "C:\\Users\\Ann\\Project"));
  EXPECT_TRUE(WindowsUnder("\\\\?\\UNC\\srv\\share\\a", "\\\\SRV\\share"));
  EXPECT_FALSE(WindowsUnder("C:\\a", ""));
}

TEST(IsWindowsAbsolute, DriveOrUnc) {
  EXPECT_TRUE(IsWindowsAbsolute("C:\\a"));
  EXPECT_TRUE(IsWindowsAbsolute("c:/a"));
  EXPECT_TRUE(IsWindowsAbsolute("\\\\server\\share"));
  EXPECT_FALSE(IsWindowsAbsolute("C:a"));
  EXPECT_FALSE(IsWindowsAbsolute("\\a"));
  EXPECT_FALSE(IsWindowsAbsolute("a\\b"));
  EXPECT_FALSE(IsWindowsAbsolute(""));
}

class WindowsRefusalTest : public ::testing::Test {
 protected:
  const std::string home_ = "C:\\Users\\Ann";
  const std::vector<RefusedDir> refused_ =
      WindowsRefusedDirs({.profile = home_,
                          .appdata = "C:\\Users\\Ann\\AppData\\Roaming",
                          .local_appdata = "C:\\Users\\Ann\\AppData\\Local",
                          .launch_profile = "D:\\tb-profile",
                          .tabbridge_files = {"C:\\Users\\Ann\\AppData\\Local\\tabbridge\\policy.json", "relative"}});
  std::optional<std::string> Why(const std::string& path) { return WindowsRefusal(path, refused_, home_); }
};

TEST_F(WindowsRefusalTest, SecretsUnderHomeAndAppData) {
  EXPECT_NE(Why("C:\\Users\\Ann\\.ssh\\id_ed25519"), std::nullopt);
  EXPECT_NE(Why("c:/users/ann/.ssh/id_ed25519"), std::nullopt);
  EXPECT_NE(Why("\\\\?\\C:\\USERS\\ANN\\.aws\\credentials"), std::nullopt);
  EXPECT_NE(Why("C:\\Users\\Ann\\project\\.env"), std::nullopt);
  EXPECT_NE(Why("C:\\Users\\Ann\\AppData\\Roaming\\Mozilla\\Firefox\\Profiles\\x\\logins.json"), std::nullopt);
  EXPECT_NE(Why("C:\\Users\\Ann\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Cookies"), std::nullopt);
  EXPECT_NE(Why("C:\\Users\\Ann\\AppData\\Local\\Microsoft\\Edge\\User Data\\Default\\Login Data"), std::nullopt);
  EXPECT_NE(Why("C:\\Users\\Ann\\AppData\\Local\\tabbridge\\audit.log"), std::nullopt);
  EXPECT_NE(Why("d:/TB-PROFILE/Default/Cookies"), std::nullopt);
  EXPECT_EQ(*Why("C:\\Users\\Ann\\.ssh\\id_ed25519"),
            "it is hidden under your home directory (C:\\Users\\Ann\\.ssh): keys, tokens and settings live in "
            "dot-files and dot-directories");
}

TEST_F(WindowsRefusalTest, DevicesAndStreams) {
  EXPECT_NE(Why("\\\\.\\PhysicalDrive0"), std::nullopt);
  EXPECT_NE(Why("//./pipe/tabbridge"), std::nullopt);
  EXPECT_NE(Why("\\\\?\\GLOBALROOT\\Device\\HarddiskVolume1\\x"), std::nullopt);
  EXPECT_NE(Why("C:\\work\\NUL"), std::nullopt);
  EXPECT_NE(Why("C:\\work\\con.txt"), std::nullopt);
  EXPECT_NE(Why("C:\\work\\COM1"), std::nullopt);
  EXPECT_NE(Why("C:\\work\\report.pdf:hidden"), std::nullopt);
  EXPECT_NE(Why("C:\\work\\report.pdf::$DATA"), std::nullopt);
}

TEST_F(WindowsRefusalTest, OrdinaryFilesPass) {
  EXPECT_EQ(Why("C:\\Users\\Ann\\Documents\\report.pdf"), std::nullopt);
  EXPECT_EQ(Why("C:\\Users\\Ann\\AppData\\Local\\Temp\\x.png"), std::nullopt);
  EXPECT_EQ(Why("\\\\server\\share\\console.txt"), std::nullopt);
  EXPECT_EQ(Why("D:\\work\\component.txt"), std::nullopt);
  EXPECT_EQ(Why("C:\\Users\\Ann.Lee\\x"), std::nullopt);  // not under C:\Users\Ann
}

// A directory given relative (an unset variable's leftovers) is no refused place.
TEST(WindowsRefusedDirs, OnlyAbsoluteDirectories) {
  WindowsUserDirs dirs;
  dirs.tabbridge_files = {"relative", ""};
  const auto refused = WindowsRefusedDirs(dirs);
  EXPECT_TRUE(refused.empty());
}

// Inside the share, what Linux refuses whatever the roots: a process's
// environ (the client's API key) must not be read through \\wsl.localhost.
TEST(WslShare, ProcSysAndDevAreRefused) {
  const std::string share = "\\\\wsl.localhost\\Ubuntu";
  for (const char* inside : {"\\proc\\42\\environ", "\\proc", "\\sys\\kernel\\x", "\\dev\\sda", "/proc/self/environ"}) {
    const auto why = WslShareRefusal(share + inside, share, nullptr);
    ASSERT_TRUE(why) << inside;
    EXPECT_NE(why->find("the Linux system's"), std::string::npos) << *why;
  }
  EXPECT_FALSE(WslShareRefusal(share + "\\home\\u\\procedure.txt", share, nullptr));
  EXPECT_FALSE(WslShareRefusal(share + "\\process\\x", share, nullptr)) << "only /proc itself";
  EXPECT_FALSE(WslShareRefusal(share + "\\home\\u\\a.png", share, nullptr));
}

// <share>\mnt\c\… is drive C: seen through the share: judged as C:\… too.
TEST(WslShare, MntDrivesAreTheirWindowsPaths) {
  const std::string share = "\\\\wsl.localhost\\Ubuntu";
  std::optional<std::string> drive;
  EXPECT_FALSE(WslShareRefusal(share + "\\mnt\\c\\Users\\u\\AppData\\Roaming\\x", share, &drive));
  EXPECT_EQ(drive, "C:\\users\\u\\appdata\\roaming\\x");
  const std::vector<RefusedDir> refused = {{"C:\\Users\\u\\AppData\\Roaming", "roaming"}};
  EXPECT_EQ(WindowsRefusal(*drive, refused, "C:\\Users\\u"), "roaming");
  drive.reset();
  WslShareRefusal(share + "\\mnt\\d", share, &drive);
  EXPECT_EQ(drive, "D:\\");
  drive.reset();
  WslShareRefusal(share + "\\mnt\\data\\x", share, &drive);
  EXPECT_EQ(drive, std::nullopt) << "/mnt/data is no drive";
}

// A WSL distro's share, whose Linux homes' dot-files upload_files_windows.cpp refuses.
TEST(WslShare, TheServerAndDistroInTheirCase) {
  EXPECT_EQ(WslShareOf("\\\\wsl.localhost\\Ubuntu\\home\\u\\.ssh\\id_ed25519").value(), "\\\\wsl.localhost\\Ubuntu");
  EXPECT_EQ(WslShareOf("//WSL$/Debian/home/u").value(), "\\\\WSL$\\Debian");
  EXPECT_EQ(WslShareOf("\\\\?\\UNC\\wsl.localhost\\Ubuntu\\x").value(), "\\\\wsl.localhost\\Ubuntu");
  EXPECT_EQ(WslShareOf("\\\\wsl.localhost\\Ubuntu").value(), "\\\\wsl.localhost\\Ubuntu");
  EXPECT_FALSE(WslShareOf("\\\\wsl.localhost\\"));
  EXPECT_FALSE(WslShareOf("\\\\wsl.localhostx\\Ubuntu\\x"));
  EXPECT_FALSE(WslShareOf("\\\\server\\share\\x"));
  EXPECT_FALSE(WslShareOf("C:\\wsl.localhost\\x"));
  // The hidden-file rule with the share as the home, as upload_files_windows.cpp applies it.
  const std::string key = "\\\\wsl.localhost\\Ubuntu\\home\\u\\.ssh\\id_ed25519";
  EXPECT_NE(WindowsRefusal(key, {}, *WslShareOf(key)), std::nullopt);
  const std::string plain = "\\\\wsl.localhost\\Ubuntu\\home\\u\\proj\\a.png";
  EXPECT_EQ(WindowsRefusal(plain, {}, *WslShareOf(plain)), std::nullopt);
}

}  // namespace
}  // namespace tb
