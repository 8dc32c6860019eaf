// The browser closing the port (the host's stdin reaching EOF): pending calls
// fail at once, the host exits and removes its socket, and the shim falls
// back to DISCONNECTED with one list_changed (docs/protocol.md §1, §2).
#include <signal.h>

#include "common/protocol.h"
#include "tests/fake_extension/dir_watch.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

using ::testing::ElementsAre;

constexpr std::string_view kListChanged = "notifications/tools/list_changed";

class ExtensionGoneTest : public HostTest {};

TEST_F(ExtensionGoneTest, PendingToolCallIsAnsweredWithAToolError) {
  auto& extension = StartServingExtension();
  auto& shim = ConnectedShim();
  extension.SetAnswering(false);
  const auto id = shim.SendCallTool("open_tab", {{"url", "http://127.0.0.1/never"}});
  ASSERT_TRUE(extension.WaitForRequest(ext_method::kTabsCreate, kWait)) << "the call never reached the extension";

  extension.CloseHostStdin();
  const auto response = shim.rpc().WaitResponse(id, fake::DeadlineIn(kWait));
  ASSERT_TRUE(response) << "the pending call was never answered";
  EXPECT_TRUE(fake::IsToolError(*response)) << response->dump();
  // What to do next, in the words the shim uses when the host goes.
  EXPECT_NE(response->dump().find("connection was lost — call connect_browser"), std::string::npos) << response->dump();
}

TEST_F(ExtensionGoneTest, HostExitsCleanlyAndRemovesItsSocket) {
  auto& extension = StartServingExtension();
  ConnectedShim();  // an open session must not keep the host alive
  extension.CloseHostStdin();
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status) << "the host outlived its browser";
  EXPECT_TRUE(status->clean()) << status->Describe();
  EXPECT_FALSE(fake::PathExists(SocketPath(0)));
}

TEST_F(ExtensionGoneTest, ShimSendsOneListChangedAndOffersConnectBrowserAgain) {
  auto& extension = StartServingExtension();
  auto& shim = ConnectedShim();
  extension.CloseHostStdin();
  ASSERT_TRUE(shim.rpc().WaitNotification(kListChanged, fake::DeadlineIn(kWait))) << "no list_changed";

  const auto names = shim.ListToolNames(kWait);
  ASSERT_TRUE(names);
  EXPECT_THAT(*names, ElementsAre("connect_browser"));
  for (const auto& extra : shim.rpc().TakeNotifications()) {
    EXPECT_NE(extra.value("method", ""), kListChanged) << "more than one list_changed";
  }
}

class HostSignalTest : public HostTest {};

TEST_F(HostSignalTest, SigtermMakesTheHostExitCleanlyAndRemoveItsSocket) {
  auto& extension = StartServingExtension();
  extension.SignalHost(SIGTERM);
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status);
  EXPECT_TRUE(status->clean()) << status->Describe();
  EXPECT_FALSE(fake::PathExists(SocketPath(0)));
}

// Both signal handles live until the loop ends, whichever fired (they were
// once stack objects closed after their scope ended).
TEST_F(HostSignalTest, SigintThenSigtermEndTheHostOnceAndCleanly) {
  auto& extension = StartServingExtension();
  auto& client = RawClient();
  extension.SignalHost(SIGINT);
  extension.SignalHost(SIGTERM);
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status);
  EXPECT_TRUE(status->clean()) << status->Describe();
  EXPECT_TRUE(client.rpc().WaitEof(fake::DeadlineIn(kWait))) << "the session was not closed";
}

}  // namespace
}  // namespace tb::test
