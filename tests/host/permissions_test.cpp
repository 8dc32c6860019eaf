// The socket is the host's only door, so only its user may open it: the
// directory is 0700 and the socket 0600 (docs/protocol.md §2).
#include <sys/stat.h>

#include "tests/host/harness.h"

namespace tb::test {
namespace {

mode_t ModeOf(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_mode : 0;
}

class PermissionsTest : public HostTest {};

TEST_F(PermissionsTest, SocketIsReadableAndWritableByItsOwnerOnly) {
  StartServingExtension();
  const mode_t mode = ModeOf(SocketPath(0));
  EXPECT_TRUE(S_ISSOCK(mode));
  EXPECT_EQ(mode & 07777, 0600u) << std::oct << (mode & 07777);
}

TEST_F(PermissionsTest, MissingSocketDirIsCreatedOwnerOnly) {
  const std::string dir = work_.Join("fresh/sockets");  // neither exists yet
  auto& extension = StartExtension(WithSocketDir(dir));
  ASSERT_TRUE(extension.WaitForSocket(0, kWait));
  const mode_t mode = ModeOf(dir);
  EXPECT_TRUE(S_ISDIR(mode));
  EXPECT_EQ(mode & 07777, 0700u) << std::oct << (mode & 07777);
}

TEST_F(PermissionsTest, SocketDirOpenToOthersIsTightenedToOwnerOnly) {
  const std::string dir = work_.Join("open");
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 0755), 0);
  auto& extension = StartExtension(WithSocketDir(dir));
  ASSERT_TRUE(extension.WaitForSocket(0, kWait));
  EXPECT_EQ(ModeOf(dir) & 07777, 0700u) << std::oct << (ModeOf(dir) & 07777);
}

}  // namespace
}  // namespace tb::test
