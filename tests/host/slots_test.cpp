// One socket slot per live host (docs/protocol.md §2): a crashed host's stale
// socket is taken over, a second live browser gets the next slot, and the
// shim lists and picks between them.
#include <signal.h>

#include "tests/fake_extension/dir_watch.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

using ::testing::ElementsAre;

class SlotsTest : public HostTest {};

TEST_F(SlotsTest, StaleSocketOfAKilledHostIsReplacedInTheSameSlot) {
  auto& killed = StartServingExtension(0);
  killed.SignalHost(SIGKILL);
  ASSERT_TRUE(killed.WaitHostExit(kWait));
  ASSERT_TRUE(fake::IsSocket(SocketPath(0))) << "precondition: a SIGKILLed host leaves its socket file";
  ASSERT_FALSE(fake::Accepting(SocketPath(0)));

  auto& next = StartExtension();
  ASSERT_TRUE(fake::WaitInDir(
      socket_dir_, [&] { return fake::Accepting(SocketPath(0)); }, kWait))
      << "nobody took over slot 0";
  const auto hello = RawClient(0, /*hello=*/false).Hello(kWait);
  ASSERT_TRUE(hello);
  EXPECT_EQ((*hello)["result"].value("hostPid", 0), next.host_pid());
  EXPECT_FALSE(fake::PathExists(SocketPath(1)));
}

TEST_F(SlotsTest, SecondLiveHostTakesSlotOne) {
  auto& first = StartServingExtension(0);
  auto& second = StartServingExtension(1);
  const auto hello0 = RawClient(0, /*hello=*/false).Hello(kWait);
  const auto hello1 = RawClient(1, /*hello=*/false).Hello(kWait);
  ASSERT_TRUE(hello0 && hello1);
  EXPECT_EQ((*hello0)["result"].value("hostPid", 0), first.host_pid());
  EXPECT_EQ((*hello1)["result"].value("hostPid", 0), second.host_pid());
}

TEST_F(SlotsTest, ConnectBrowserListsBothBrowsersWhenTwoRun) {
  StartServingExtension(0);
  StartServingExtension(1);
  auto& shim = StartShim();
  const auto response = shim.CallTool("connect_browser", Json::object(), kWait);
  ASSERT_TRUE(response);
  EXPECT_TRUE(fake::IsToolError(*response)) << response->dump();
  std::vector<std::string> ids;
  for (const auto& browser : fake::Structured(*response).value("browsers", Json::array())) {
    ids.push_back(browser.value("id", ""));
  }
  EXPECT_THAT(ids, ElementsAre("browser-0", "browser-1"));
}

TEST_F(SlotsTest, ConnectBrowserWithAnIdConnectsToThatBrowser) {
  StartServingExtension(0, WithTabs(1));
  auto& second = StartServingExtension(1, WithTabs(3));
  auto& shim = StartShim();
  const auto response = shim.CallTool("connect_browser", {{"browser", "browser-1"}}, kWait);
  ASSERT_TRUE(response);
  ASSERT_FALSE(fake::IsToolError(*response)) << response->dump();
  EXPECT_EQ(fake::Structured(*response).value("hostPid", 0), second.host_pid());

  const auto tabs = shim.CallTool("list_tabs", Json::object(), kWait);
  ASSERT_TRUE(tabs);
  EXPECT_EQ(fake::Structured(*tabs)["tabs"].size(), 3u) << "list_tabs did not come from the second browser";
}

}  // namespace
}  // namespace tb::test
