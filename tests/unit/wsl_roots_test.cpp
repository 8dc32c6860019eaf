// A WSL client's roots as the Windows tabbridge.exe reads them
// (mcp_shim/wsl_roots.h): /mnt/<drive> is the drive, any other path the
// distro's \\wsl.localhost share. Built into the Linux unit tests and the
// Windows shim tests.
#include <gtest/gtest.h>

#include "mcp_shim/wsl_roots.h"

namespace tb::wsl {
namespace {

TEST(WslRoots, MountedDrivesAreTheDrive) {
  EXPECT_EQ(WindowsPathOf("/mnt/c/x", "").value(), "C:\\x");
  EXPECT_EQ(WindowsPathOf("/mnt/d/src/proj/", "Ubuntu").value(), "D:\\src\\proj");
  EXPECT_EQ(WindowsPathOf("/mnt/c", "").value(), "C:\\");
  EXPECT_EQ(WindowsPathOf("/mnt/c/", "").value(), "C:\\");
}

TEST(WslRoots, OtherPathsAreTheDistrosShare) {
  EXPECT_EQ(WindowsPathOf("/home/u/proj", "Ubuntu").value(), "\\\\wsl.localhost\\Ubuntu\\home\\u\\proj");
  EXPECT_EQ(WindowsPathOf("/", "Ubuntu-22.04").value(), "\\\\wsl.localhost\\Ubuntu-22.04");
  // Not a one-letter drive under /mnt: the distro's own directory.
  EXPECT_EQ(WindowsPathOf("/mnt/wsl/x", "Ubuntu").value(), "\\\\wsl.localhost\\Ubuntu\\mnt\\wsl\\x");
  EXPECT_EQ(WindowsPathOf("/mnt", "Ubuntu").value(), "\\\\wsl.localhost\\Ubuntu\\mnt");
}

TEST(WslRoots, DotsAreResolvedFirstAndNeverLeaveTheShare) {
  EXPECT_EQ(WindowsPathOf("/home/u/./proj/../other", "Ubuntu").value(), "\\\\wsl.localhost\\Ubuntu\\home\\u\\other");
  EXPECT_EQ(WindowsPathOf("/mnt/c/../../home/u", "Ubuntu").value(), "\\\\wsl.localhost\\Ubuntu\\home\\u");
  EXPECT_EQ(WindowsPathOf("/../../x", "Ubuntu").value(), "\\\\wsl.localhost\\Ubuntu\\x");
  EXPECT_EQ(WindowsPathOf("/home/u/../../mnt/e/y", "").value(), "E:\\y");
}

TEST(WslRoots, WithoutADistroTheErrorNamesTheFix) {
  const auto dropped = WindowsPathOf("/home/u/proj", "");
  ASSERT_FALSE(dropped);
  EXPECT_NE(dropped.error().find("--wsl-distro"), std::string::npos) << dropped.error();
  EXPECT_NE(dropped.error().find("tabbridge wsl"), std::string::npos) << dropped.error();
}

TEST(WslRoots, NamesWindowsCannotSpellAreRefused) {
  EXPECT_FALSE(WindowsPathOf("relative/x", "Ubuntu"));
  EXPECT_FALSE(WindowsPathOf("/home/u/a\\b", "Ubuntu"));
  EXPECT_FALSE(WindowsPathOf("/home/u/file.txt:stream", "Ubuntu"));
  EXPECT_FALSE(WindowsPathOf("/home/u/what?", "Ubuntu"));
  EXPECT_FALSE(WindowsPathOf("/home/u/a\nb", "Ubuntu"));
  EXPECT_FALSE(WindowsPathOf("/home/u", "..")) << "a distro name that would leave the share";
  EXPECT_FALSE(WindowsPathOf("/home/u", "Ubuntu\\..\\x"));
}

TEST(WslRoots, DistroNames) {
  EXPECT_TRUE(IsDistroName("Ubuntu"));
  EXPECT_TRUE(IsDistroName("Ubuntu-22.04"));
  EXPECT_TRUE(IsDistroName("kali_linux"));
  EXPECT_FALSE(IsDistroName(""));
  EXPECT_FALSE(IsDistroName(".."));
  EXPECT_FALSE(IsDistroName("a/b"));
  EXPECT_FALSE(IsDistroName("a b"));
  EXPECT_FALSE(IsDistroName("$WSL_DISTRO_NAME"));
}

TEST(WslRoots, UrisArePercentDecodedAndKeepNonAscii) {
  EXPECT_EQ(WindowsPathOfUri("file:///home/zo%C3%AB/my%20proj", "Ubuntu").value(),
            "\\\\wsl.localhost\\Ubuntu\\home\\zo\xC3\xAB\\my proj");
  EXPECT_EQ(WindowsPathOfUri("file:///home/zo\xC3\xAB/x", "Ubuntu").value(),
            "\\\\wsl.localhost\\Ubuntu\\home\\zo\xC3\xAB\\x");
  EXPECT_EQ(WindowsPathOfUri("file:///mnt/c/Users/Zo%C3%AB%20Doe/src", "").value(), "C:\\Users\\Zo\xC3\xAB Doe\\src");
  EXPECT_EQ(WindowsPathOfUri("file://localhost/mnt/c/x", "").value(), "C:\\x");
  EXPECT_FALSE(WindowsPathOfUri("https://example.com/x", "Ubuntu"));
  EXPECT_FALSE(WindowsPathOfUri("file://server/share/x", "Ubuntu"));
  EXPECT_FALSE(WindowsPathOfUri("file:///home/u/%2", "Ubuntu"));     // a bad escape
  EXPECT_FALSE(WindowsPathOfUri("file:///home/u/a%00b", "Ubuntu"));  // a NUL
  EXPECT_FALSE(WindowsPathOfUri("file:///home/u/a%5Cb", "Ubuntu"));  // an escaped backslash
}

}  // namespace
}  // namespace tb::wsl
