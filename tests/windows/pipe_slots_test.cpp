// Slots on Windows (the Windows form of tests/host/slots_test.cpp's stale
// socket case): a killed host leaves no pipe behind, so its slot is free at
// once for the next host.
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

}  // namespace
}  // namespace tb::test
