// The platform-independent parts of the Windows and WSL design (docs/windows.md).
#include "common/windows_names.h"

#include <gtest/gtest.h>

namespace tb::windows {
namespace {

TEST(PipeName, IsPerUserAndPerBrowser) {
  EXPECT_EQ(PipeName("ann", 0), "\\\\.\\pipe\\tabbridge-ann-browser-0");
  EXPECT_EQ(PipeName("ann", 3), "\\\\.\\pipe\\tabbridge-ann-browser-3");
}

TEST(PipeName, KeepsOnlySafeCharactersOfTheUser) {
  // A backslash would start another path component; spaces and domain marks go too.
  EXPECT_EQ(PipeName("CORP\\Ann Lee", 0), "\\\\.\\pipe\\tabbridge-CORP_Ann_Lee-browser-0");
  EXPECT_EQ(PipeName("", 0), "\\\\.\\pipe\\tabbridge-user-browser-0");
}

TEST(IsSid, AcceptsSidsAndNothingElse) {
  EXPECT_TRUE(IsSid("S-1-5-21-1004336348-1177238915-682003330-1001"));
  EXPECT_TRUE(IsSid("S-1-5-18"));
  EXPECT_FALSE(IsSid("S-1-"));
  EXPECT_FALSE(IsSid("S-1-5-21-abc"));
  EXPECT_FALSE(IsSid("S-1-5-21-1)(A;;GA;;;WD"));  // no smuggling another ACE in
  EXPECT_FALSE(IsSid("WD"));
}

TEST(PrivatePipePrefix, IsTheUsersPrefixAndSixteenRandomBytesInHex) {
  const unsigned char random[16] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0xab, 0xcd, 0xef,
                                    0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x99};
  const std::string prefix = PrivatePipePrefix("Zoë Doe", random);
  EXPECT_EQ(prefix, "\\\\.\\pipe\\tabbridge-Zo___Doe-00017f80ffabcdef1020304050607099");
  EXPECT_TRUE(IsPrivatePipePrefix(prefix, "Zoë Doe"));
  EXPECT_FALSE(IsPrivatePipePrefix(prefix, "ann")) << "another user's";
}

TEST(PrivatePipePrefix, OnlyItsOwnShapeIsAccepted) {
  const std::string base = "\\\\.\\pipe\\tabbridge-ann-";
  EXPECT_TRUE(IsPrivatePipePrefix(base + std::string(32, 'a'), "ann"));
  EXPECT_FALSE(IsPrivatePipePrefix(base + std::string(31, 'a'), "ann")) << "too short";
  EXPECT_FALSE(IsPrivatePipePrefix(base + std::string(33, 'a'), "ann")) << "too long";
  EXPECT_FALSE(IsPrivatePipePrefix(base + std::string(31, 'a') + "A", "ann")) << "upper case";
  EXPECT_FALSE(IsPrivatePipePrefix(base + std::string(31, 'a') + "\\", "ann")) << "a path";
  EXPECT_FALSE(IsPrivatePipePrefix("\\\\.\\pipe\\tabbridge-ann", "ann")) << "the guessable one";
  EXPECT_FALSE(IsPrivatePipePrefix("", "ann"));
}

TEST(PipeSecurityDescriptor, GivesTheUserAloneAProtectedDacl) {
  const auto sddl = PipeSecurityDescriptor("S-1-5-21-1-2-3-1001");
  ASSERT_TRUE(sddl) << sddl.error();
  // The deny entry comes first: Windows reads a DACL in order (canonical form).
  EXPECT_EQ(*sddl, "O:S-1-5-21-1-2-3-1001G:S-1-5-21-1-2-3-1001D:P(D;;GA;;;NU)(A;;GA;;;S-1-5-21-1-2-3-1001)");
  EXPECT_EQ(sddl->find(";WD)"), std::string::npos);  // not Everyone
  EXPECT_FALSE(PipeSecurityDescriptor("S-1-5-21-1)(A;;GA;;;WD"));
}

TEST(NativeMessagingKeys, NameOurHostUnderEachBrowsersKey) {
  const auto keys = NativeMessagingKeys();
  ASSERT_FALSE(keys.empty());
  EXPECT_EQ(keys.front().path, "Software\\Google\\Chrome\\NativeMessagingHosts\\com.tabbridge.host");
  for (const auto& key : keys) {
    EXPECT_TRUE(key.path.starts_with("Software\\")) << key.path;
    EXPECT_TRUE(key.path.ends_with("\\NativeMessagingHosts\\com.tabbridge.host")) << key.path;
  }
}

TEST(IsWsl, KnowsBothGenerations) {
  EXPECT_TRUE(IsWsl("Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1) (gcc (GCC) 11.2.0)"));
  EXPECT_TRUE(IsWsl("Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com)"));
  EXPECT_FALSE(IsWsl("Linux version 6.1.0-27-amd64 (debian-kernel@lists.debian.org)"));
  // Only the release counts, not who built the kernel where.
  EXPECT_FALSE(IsWsl("Linux version 6.8.0-45-generic (builder@wsl-ci.microsoft.example) (gcc 13.2.0)"));
}

}  // namespace
}  // namespace tb::windows
