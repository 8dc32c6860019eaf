// The user pressing "Cancel" on the browser's debugging bar reaches the
// sessions focused on that tab as a warning (notifications/message), and no
// one else.
#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

class DebuggerDetachedTest : public HostTest {};

void Focus(fake::SocketClient& client, int tab) {
  const auto focused = client.rpc().Request("tools/call", {{"name", "focus_tab"}, {"arguments", {{"tabId", tab}}}},
                                            fake::DeadlineIn(kWait));
  ASSERT_TRUE(focused && focused->contains("result") && !fake::IsToolError(*focused));
}

TEST_F(DebuggerDetachedTest, TheSessionsFocusedOnTheTabAreWarnedAndNoOneElse) {
  auto& extension = StartServingExtension();
  auto& on_tab = RawClient();
  auto& elsewhere = RawClient();
  Focus(on_tab, 1);
  Focus(elsewhere, 2);
  on_tab.rpc().TakeNotifications();
  elsewhere.rpc().TakeNotifications();
  extension.SendEvent(ext_event::kDebuggerDetached, {{"tabId", 1}, {"reason", "canceled_by_user"}});
  const auto warning = on_tab.rpc().WaitNotification(mcp::kMessage, fake::DeadlineIn(kWait));
  ASSERT_TRUE(warning) << "the focused session was not told";
  const Json& params = (*warning)["params"];
  EXPECT_EQ(params.value("level", ""), "warning");
  EXPECT_EQ(params["data"].value("tabId", 0), 1);
  EXPECT_THAT(params["data"].value("text", ""), ::testing::HasSubstr("Cancel"));
  // The other session is served after the event (the port is ordered) and heard nothing.
  ASSERT_TRUE(elsewhere.rpc().Request("ping", Json::object(), fake::DeadlineIn(kWait)));
  for (const auto& n : elsewhere.rpc().TakeNotifications()) EXPECT_NE(n.value("method", ""), mcp::kMessage) << n.dump();
}

}  // namespace
}  // namespace tb::test
