// tabbridge/tabs (docs/protocol.md §2): a session that asked in hello hears
// of the tabs it opened or focused and its focus, as they change — what its
// shim reopens if the browser dies. Others hear nothing of it.
#include "tests/unit/host_fixture.h"

namespace tb::testing_host {
namespace {

// The params of the last tabbridge/tabs `peer` got (null if none).
Json LastTabs(const Peer& peer) {
  Json last;
  for (const auto& m : peer.inbox) {
    if (m.value("method", "") == shim_method::kSessionTabs) last = m["params"];
  }
  return last;
}

TEST_F(HostTest, ASessionThatAskedHearsOfItsTabsAndFocus) {
  StartHost();
  Hello({TabJson(1, "https://a.test/"), TabJson(2, "https://b.test/")});
  Peer& asked = Session(Json::array(), {{hello_param::kTellTabs, true}});
  Peer& other = Session();
  // Nothing at hello: what its shim remembers of a browser that died stays until this host has news.
  EXPECT_TRUE(LastTabs(asked).is_null()) << LastTabs(asked);

  ASSERT_FALSE(CallTool(asked, tools::kFocusTab, {{"tabId", 2}}).contains("isError"));
  EXPECT_EQ(LastTabs(asked), Json::parse(R"({"tabs":[{"id":2,"url":"https://b.test/"}],"focusedTabId":2})"));

  // The page navigates: the session hears the tab's new URL.
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(2, "https://b.test/next")}});
  ASSERT_TRUE(PumpUntil([&] { return LastTabs(asked)["tabs"][0]["url"] == "https://b.test/next"; })) << LastTabs(asked);

  // The tab is closed: nothing of it is left to reopen.
  ExtEvent(ext_event::kTabRemoved, {{"tabId", 2}});
  ASSERT_TRUE(PumpUntil([&] { return LastTabs(asked)["tabs"].empty() && LastTabs(asked)["focusedTabId"].is_null(); }))
      << LastTabs(asked);

  EXPECT_EQ(other.CountMethod(shim_method::kSessionTabs), 0) << "only a session that asked";
}

TEST_F(HostTest, ATabTheSessionOpenedUnfocusedIsItsToo) {
  StartHost();
  Hello();
  Peer& asked = Session(Json::array(), {{hello_param::kTellTabs, true}});
  StartTool(asked, 77, tools::kOpenTab, {{"url", "https://c.test/"}, {"focus", false}});
  const Json create = ExtRequest(ext_method::kTabsCreate);
  SendExt(rpc::MakeResult(create["id"], {{"tab", TabJson(5, "https://c.test/")}}));
  ASSERT_TRUE(AwaitReply(asked, 77));
  EXPECT_EQ(LastTabs(asked), Json::parse(R"({"tabs":[{"id":5,"url":"https://c.test/"}],"focusedTabId":null})"));
}

}  // namespace
}  // namespace tb::testing_host
