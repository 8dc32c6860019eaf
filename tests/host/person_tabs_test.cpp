// Tabs the person can see, through the host process and a shim: open_tab asks
// the extension for the session's tab group, titled with the MCP client's
// name from initialize; focus_tab {tabId: "active"} picks the tab the browser
// reports as the person's; focus_tab {show: true} sends tabs.show, and the
// person's active tab then moves in list_tabs.
#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

Json Structured(const std::optional<Json>& answer) {
  EXPECT_TRUE(answer && answer->contains("result") && !fake::IsToolError(*answer)) << (answer ? answer->dump() : "");
  return answer ? (*answer)["result"].value("structuredContent", Json::object()) : Json::object();
}

TEST_F(HostTest, OpenTabAsksForTheSessionsGroupTitledWithItsClient) {
  auto& extension = StartServingExtension();
  auto& shim = ConnectedShim();
  Structured(shim.CallTool("open_tab", {{"url", "http://127.0.0.1/grouped"}}, kWait));
  const auto create = extension.WaitForRequest(ext_method::kTabsCreate, kWait);
  ASSERT_TRUE(create);
  const Json group = create->message["params"].value("group", Json());
  EXPECT_EQ(group.value("title", ""), "tabbridge-tests") << group;  // the fake MCP client's clientInfo.name
  EXPECT_EQ(group.value("color", ""), "blue") << group;
  EXPECT_TRUE(group.contains("key")) << group;
}

TEST_F(HostTest, FocusTabPicksThePersonsTabAndShowsATab) {
  auto& extension = StartServingExtension();  // tab 1 is the person's active tab
  auto& shim = ConnectedShim();
  EXPECT_EQ(Structured(shim.CallTool("list_tabs", Json::object(), kWait)).value("activeTabId", Json()), 1);
  const Json focused = Structured(shim.CallTool("focus_tab", {{"tabId", "active"}}, kWait));
  EXPECT_EQ(focused["tab"].value("id", 0), 1) << focused;

  const Json shown = Structured(shim.CallTool("focus_tab", {{"tabId", 2}, {"show", true}}, kWait));
  EXPECT_EQ(shown.value("shown", false), true) << shown;
  const auto show = extension.WaitForRequest(ext_method::kTabsShow, kWait);
  ASSERT_TRUE(show);
  EXPECT_EQ(show->message["params"].value("tabId", 0), 2);
  // The extension reported the switch: the person is on tab 2 now.
  bool moved = false;
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (!moved && std::chrono::steady_clock::now() < deadline) {
    moved = Structured(shim.CallTool("list_tabs", Json::object(), kWait)).value("activeTabId", Json()) == 2;
  }
  EXPECT_TRUE(moved) << "list_tabs never showed tab 2 as the person's";
}

}  // namespace
}  // namespace tb::test
