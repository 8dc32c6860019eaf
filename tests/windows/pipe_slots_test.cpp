// Slots on Windows (the Windows form of tests/host/slots_test.cpp's stale
// socket case): a killed host leaves no pipe behind, so its slot is free at
// once for the next host.
#include <windows.h>

#include "tests/fake_extension/dir_watch.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

class PipeSlotsTest : public HostTest {};

TEST_F(PipeSlotsTest, AKilledHostsSlotIsFreeForTheNextHost) {
  auto& killed = StartServingExtension(0);
  killed.SignalHost(SIGKILL);
  ASSERT_TRUE(killed.WaitHostExit(kWait));
  EXPECT_TRUE(fake::WaitInDir(
      socket_dir_, [&] { return !fake::PathExists(SocketPath(0)); }, kWait))
      << "the pipe outlived its server";
  auto& next = StartServingExtension(0);
  const auto hello = RawClient(0, /*hello=*/false).Hello(kWait);
  ASSERT_TRUE(hello);
  EXPECT_EQ((*hello)["result"].value("hostPid", 0), next.host_pid());
  EXPECT_FALSE(fake::PathExists(SocketPath(1)));
}

// Chrome on Windows starts hosts through cmd.exe: the hello must name the
// browser (here, this test process), not cmd.exe, or a shim's "is this the
// browser I launched" check fails and a crashed browser is never restarted.
TEST_F(PipeSlotsTest, TheBrowserIsTheProcessThatStartedCmdNotCmd) {
  fake::FakeExtensionOptions options;
  options.launcher = {"C:\\windows\\system32\\cmd.exe", "/d", "/c"};
  auto& extension = StartServingExtension(0, options);
  const auto hello = RawClient(0, /*hello=*/false).Hello(kWait);
  ASSERT_TRUE(hello);
  const long host = (*hello)["result"].value("hostPid", 0L);
  EXPECT_NE(host, extension.host_pid()) << "the host was not started through cmd.exe";
  EXPECT_EQ((*hello)["result"]["browser"].value("pid", 0L), static_cast<long>(::GetCurrentProcessId()));
}

}  // namespace
}  // namespace tb::test
