// Tab requests and events between host and extension as the fake browser
// plays them: what the agent sees follows the browser, and a session hears
// list_changed when its tool list really changes.
#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kListChanged = "notifications/tools/list_changed";

std::vector<std::int64_t> TabIds(const Json& list_tabs_response) {
  std::vector<std::int64_t> ids;
  for (const auto& tab : fake::Structured(list_tabs_response).value("tabs", Json::array()))
    ids.push_back(tab.value("id", 0));
  return ids;
}

class TabEventsTest : public HostTest {};

TEST_F(TabEventsTest, BrowserClosingTheFocusedTabUnfocusesItWithOneListChanged) {
  auto& extension = StartServingExtension(0, WithTabs(2));
  auto& shim = ConnectedShim();
  const auto focused = shim.CallTool("focus_tab", {{"tabId", 1}}, kWait);
  ASSERT_TRUE(focused && !fake::IsToolError(*focused)) << (focused ? focused->dump() : "no answer");
  shim.rpc().TakeNotifications();

  ASSERT_TRUE(extension.SendEvent(ext_event::kTabRemoved, {{"tabId", 1}}));
  ASSERT_TRUE(shim.rpc().WaitNotification(kListChanged, fake::DeadlineIn(kWait)));
  const auto tabs = shim.CallTool("list_tabs", Json::object(), kWait);
  ASSERT_TRUE(tabs);
  EXPECT_THAT(TabIds(*tabs), ::testing::ElementsAre(2));
  EXPECT_TRUE(fake::Structured(*tabs)["focusedTabId"].is_null());
}

// Two tabs, the session focused on tab 1, then the browser closes both at
// once (what a burst and a quitting browser start with); notifications so far taken.
void CloseBothTabsWhileFocusedOnOne(fake::FakeExtension& extension, fake::SocketClient& client) {
  ASSERT_TRUE(client.rpc().Request("tools/call", {{"name", "focus_tab"}, {"arguments", {{"tabId", 1}}}},
                                   fake::DeadlineIn(kWait)));
  client.rpc().TakeNotifications();
  ASSERT_TRUE(extension.SendEvent(ext_event::kTabRemoved, {{"tabId", 1}}));
  ASSERT_TRUE(extension.SendEvent(ext_event::kTabRemoved, {{"tabId", 2}}));
}

// A burst of tab events is one list_changed (focused → unfocused → no tabs
// would otherwise be two).
TEST_F(TabEventsTest, ABurstOfTabEventsIsOneListChanged) {
  auto& extension = StartServingExtension(0, WithTabs(2));
  auto& client = RawClient();
  CloseBothTabsWhileFocusedOnOne(extension, client);
  ASSERT_TRUE(client.rpc().WaitNotification(kListChanged, fake::DeadlineIn(kWait)));
  const auto list = client.rpc().Request("tools/list", Json::object(), fake::DeadlineIn(kWait));
  ASSERT_TRUE(list);
  EXPECT_THAT(ToolNames(*list), ::testing::ElementsAre("list_tabs", "open_tab"));
  for (const auto& n : client.rpc().TakeNotifications())
    EXPECT_NE(n.value("method", ""), kListChanged) << "a second one";
}

// The browser quitting closes its tabs and then our port: the sessions hear
// the host go (their shim says it once), not every state on the way.
TEST_F(TabEventsTest, TabsClosedJustBeforeThePortAreNotNewsOfTheirOwn) {
  auto& extension = StartServingExtension(0, WithTabs(2));
  auto& client = RawClient();
  CloseBothTabsWhileFocusedOnOne(extension, client);
  extension.CloseHostStdin();
  ASSERT_TRUE(client.rpc().WaitEof(fake::DeadlineIn(kWait)));
  for (const auto& n : client.rpc().TakeNotifications()) EXPECT_NE(n.value("method", ""), kListChanged);
}

TEST_F(TabEventsTest, CloseTabClosesTheTabInTheBrowser) {
  auto& extension = StartServingExtension(0, WithTabs(2));
  auto& shim = ConnectedShim();
  const auto response = shim.CallTool("close_tab", {{"tabId", 2}}, kWait);
  ASSERT_TRUE(response);
  EXPECT_FALSE(fake::IsToolError(*response)) << response->dump();
  const auto request = extension.WaitForRequest(ext_method::kTabsClose, kWait);
  ASSERT_TRUE(request);
  EXPECT_EQ(request->message["params"].value("tabId", 0), 2);
  EXPECT_FALSE(extension.tabs().contains(2));
}

TEST_F(TabEventsTest, ClosingATabTheBrowserNoLongerHasSaysItWasAlreadyClosed) {
  auto& extension = StartServingExtension(0, WithTabs(0));
  auto& shim = ConnectedShim();
  // The host learns of tab 77 from an event; the fake browser does not have it.
  // Its first tab brings focus_tab: the list_changed says the host has it.
  ASSERT_TRUE(extension.SendEvent(ext_event::kTabCreated,
                                  {{"tab", {{"id", 77}, {"windowId", 1}, {"url", "http://127.0.0.1/ghost"}}}}));
  ASSERT_TRUE(shim.rpc().WaitNotification(kListChanged, fake::DeadlineIn(kWait)));
  const auto response = shim.CallTool("close_tab", {{"tabId", 77}}, kWait);
  ASSERT_TRUE(response);
  EXPECT_TRUE(fake::IsToolError(*response)) << response->dump();
  EXPECT_THAT(fake::ToolText(*response), HasSubstr("already closed"));
}

TEST_F(TabEventsTest, OpenTabUnfocusedLeavesTheToolListAlone) {
  StartServingExtension(0, WithTabs(1));
  auto& shim = ConnectedShim();
  const auto before = shim.ListToolNames(kWait);
  const auto opened = shim.CallTool("open_tab", {{"url", "http://127.0.0.1/bg"}, {"focus", false}}, kWait);
  ASSERT_TRUE(opened && !fake::IsToolError(*opened)) << (opened ? opened->dump() : "no answer");
  EXPECT_EQ(shim.ListToolNames(kWait), before);
  for (const auto& n : shim.rpc().TakeNotifications()) EXPECT_NE(n.value("method", ""), kListChanged);
}

}  // namespace
}  // namespace tb::test
