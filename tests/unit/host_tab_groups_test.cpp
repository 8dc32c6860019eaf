// Tabs the person can see (docs/protocol.md): each session's tabs go into a
// tab group titled with its client's name, in a colour no other live
// session's group has; the group says so when the session ends; list_tabs
// marks the person's active tab and focus_tab can pick it ("active") and
// show a tab to the person (tabs.show).
#include "tests/unit/host_fixture.h"

namespace tb::testing_host {
namespace {

class TabGroupsTest : public HostTest {
 protected:
  Peer& Client(const std::string& name, Json extra = Json::object()) {
    extra["client"] = {{"name", name}, {"version", "1"}};
    return Session(Json::array(), std::move(extra));
  }

  // open_tab from `peer` as request `id`; returns the tabs.create params the
  // extension got, after answering it with tab `tab_id`.
  Json OpenTab(Peer& peer, int id, std::int64_t tab_id) {
    const std::string url = "https://t" + std::to_string(tab_id) + ".test/";
    StartTool(peer, id, tools::kOpenTab, {{"url", url}});
    const Json create = ExtRequest(ext_method::kTabsCreate);
    SendExt(rpc::MakeResult(create["id"], {{"tab", TabJson(tab_id, url)}}));
    EXPECT_TRUE(AwaitReply(peer, id));
    return create["params"];
  }

  std::vector<Json> Ended() const {
    std::vector<Json> ended;
    for (const auto& m : ext_.inbox) {
      if (m.value("method", "") == ext_method::kSessionEnded) ended.push_back(m["params"]);
    }
    return ended;
  }

  static Json ActiveTab(std::int64_t id, std::string url) {
    Json tab = TabJson(id, std::move(url));
    tab["active"] = true;
    return tab;
  }
};

TEST_F(TabGroupsTest, AGroupsTitleIsTheClientsNameCleaned) {
  StartHost();
  Hello();
  Peer& a = Client("Claude\u202e moc.knab\nCode\u200b");
  EXPECT_EQ(OpenTab(a, 11, 5)["group"]["title"], "Claude moc.knab Code");
}

TEST_F(TabGroupsTest, EachSessionsTabsGoIntoAGroupOfItsClientsNameAndItsOwnColour) {
  StartHost();
  Hello();
  Peer& a = Client("Claude Code");
  Peer& b = Client("Cursor");
  const Json a_first = OpenTab(a, 11, 5)["group"];
  const Json b_first = OpenTab(b, 12, 6)["group"];
  const Json a_second = OpenTab(a, 13, 7)["group"];
  EXPECT_EQ(a_first["title"], "Claude Code");
  EXPECT_EQ(b_first["title"], "Cursor");
  EXPECT_EQ(a_first["color"], "blue");
  EXPECT_EQ(b_first["color"], "red");
  EXPECT_NE(a_first["key"], b_first["key"]);
  EXPECT_EQ(a_second, a_first) << "a session's tabs share its one group";

  Peer& again = Client("Claude Code");  // a second window of the same client
  const Json again_group = OpenTab(again, 14, 8)["group"];
  EXPECT_EQ(again_group["title"], "Claude Code 2");
  EXPECT_EQ(again_group["color"], "yellow");
}

TEST_F(TabGroupsTest, AnEndedSessionsGroupSaysSoAndItsColourIsFreeAgain) {
  StartHost();
  Hello();
  Peer& a = Client("Claude Code");
  Peer& quiet = Client("Quiet");  // opens nothing: it has no group to end
  const Json group = OpenTab(a, 11, 5)["group"];
  ::close(a.fd);
  a.fd = ::open("/dev/null", O_RDONLY);  // TearDown closes it again
  ::close(quiet.fd);
  quiet.fd = ::open("/dev/null", O_RDONLY);
  ASSERT_TRUE(PumpUntil([&] { return !Ended().empty(); }));
  EXPECT_EQ(Ended()[0], Json({{"sessionId", group["key"]}, {"title", "Claude Code — ended"}, {"color", "grey"}}));

  Peer& c = Client("Codex");
  EXPECT_EQ(OpenTab(c, 21, 8)["group"]["color"], "blue") << "the ended session's colour is free again";
  EXPECT_EQ(Ended().size(), 1U) << "only a session with a group is told of";
}

TEST_F(TabGroupsTest, ListTabsMarksThePersonsActiveTabAsItMoves) {
  StartHost();
  Hello({TabJson(1, "https://a.test/"), ActiveTab(2, "https://b.test/")});
  Peer& s = Client("Claude Code", {{hello_param::kTellTabs, true}});
  ASSERT_FALSE(CallTool(s, tools::kFocusTab, {{"tabId", 1}}).contains("isError"));
  Json listed = CallTool(s, tools::kListTabs)["structuredContent"];
  EXPECT_EQ(listed["activeTabId"], 2);
  EXPECT_FALSE(listed["tabs"][0].contains("active")) << listed;
  EXPECT_EQ(listed["tabs"][1].value("active", false), true) << listed;
  EXPECT_EQ(listed["tabs"][1].value("windowId", 0), 1) << listed;

  // The person switches to tab 1: the extension reports both tabs.
  const int changed = s.ListChanged();
  ExtEvent(ext_event::kTabUpdated, {{"tab", ActiveTab(1, "https://a.test/")}});
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(2, "https://b.test/")}});
  ASSERT_TRUE(PumpUntil([&] {
    listed = CallTool(s, tools::kListTabs)["structuredContent"];
    return listed["activeTabId"] == 1 && !listed["tabs"][1].contains("active");
  })) << listed;
  EXPECT_EQ(listed["tabs"][0].value("active", false), true) << listed;
  EXPECT_FALSE(listed["tabs"][1].contains("active")) << listed;

  // The person's switch changes none of the session's tools: no list_changed
  // (a change after it shows the coalesced tab news went out).
  ExtEvent(ext_event::kTabUpdated, {{"tab", ActiveTab(1, "https://a.test/next")}});
  ASSERT_TRUE(PumpUntil([&] {
    for (const auto& m : s.inbox) {
      if (m.value("method", "") == shim_method::kSessionTabs && m["params"]["tabs"][0]["url"] == "https://a.test/next")
        return true;
    }
    return false;
  }));
  EXPECT_EQ(s.ListChanged(), changed);
}

TEST_F(TabGroupsTest, AnActiveMarkOnAnotherTabMovesTheOneMark) {
  StartHost();
  // Two tabs said active (two windows' views, or an event lost): the later is the person's.
  Hello({ActiveTab(1, "https://a.test/"), ActiveTab(2, "https://b.test/")});
  Peer& s = Client("Claude Code");
  const Json listed = CallTool(s, tools::kListTabs)["structuredContent"];
  EXPECT_EQ(listed["activeTabId"], 2);
  EXPECT_FALSE(listed["tabs"][0].contains("active")) << listed;
}

TEST_F(TabGroupsTest, FocusTabActivePicksThePersonsTab) {
  StartHost();
  Hello({TabJson(1, "https://a.test/"), ActiveTab(2, "https://b.test/")});
  Peer& s = Client("Claude Code");
  const Json focused = CallTool(s, tools::kFocusTab, {{"tabId", "active"}});
  ASSERT_FALSE(focused.contains("isError")) << focused;
  EXPECT_EQ(focused["structuredContent"]["tab"]["id"], 2);
  EXPECT_EQ(CallTool(s, tools::kListTabs)["structuredContent"]["focusedTabId"], 2);

  // The person moves to a browser page the agent may not use.
  ExtEvent(ext_event::kTabCreated, {{"tab", ActiveTab(3, "chrome://newtab/")}});
  ASSERT_TRUE(PumpUntil([&] { return CallTool(s, tools::kListTabs)["structuredContent"]["activeTabId"].is_null(); }));
  const Json refused = CallTool(s, tools::kFocusTab, {{"tabId", "active"}});
  EXPECT_EQ(refused["isError"], true);
  EXPECT_NE(refused["content"][0]["text"].get<std::string>().find("the person's active tab is a browser page"),
            std::string::npos)
      << refused;

  const Json wrong = CallTool(s, tools::kFocusTab, {{"tabId", "mine"}});
  EXPECT_EQ(wrong["content"][0]["text"], R"(focus_tab: tabId must be an integer or "active", not a string ("mine"))");
}

TEST_F(TabGroupsTest, FocusTabShowAsksTheExtensionToShowTheTab) {
  StartHost();
  Hello({TabJson(1, "https://a.test/"), ActiveTab(2, "https://b.test/")});
  Peer& s = Client("Claude Code");
  StartTool(s, 31, tools::kFocusTab, {{"tabId", 1}, {"show", true}});
  const Json show = ExtRequest(ext_method::kTabsShow);
  EXPECT_EQ(show["params"]["tabId"], 1);
  SendExt(rpc::MakeResult(show["id"], {{"shown", true}}));
  ASSERT_TRUE(AwaitReply(s, 31));
  const Json shown = s.inbox.back()["result"];
  ASSERT_FALSE(shown.contains("isError")) << shown;
  EXPECT_EQ(shown["structuredContent"]["shown"], true);

  // A browser that cannot show it: the focus holds, the model hears why.
  StartTool(s, 32, tools::kFocusTab, {{"tabId", 2}, {"show", true}});
  const Json again = ExtRequest(ext_method::kTabsShow);
  SendExt(rpc::MakeError(again["id"], rpc_error::kBrowserError, "no window"));
  ASSERT_TRUE(AwaitReply(s, 32));
  const Json failed = s.inbox.back()["result"];
  EXPECT_EQ(failed["isError"], true);
  EXPECT_EQ(failed["content"][0]["text"],
            "focus_tab: tab 2 is focused, but could not be shown to the person: no window");
  EXPECT_EQ(CallTool(s, tools::kListTabs)["structuredContent"]["focusedTabId"], 2);

  // Without show, nothing is asked of the extension.
  ASSERT_FALSE(CallTool(s, tools::kFocusTab, {{"tabId", 1}}).contains("isError"));
  EXPECT_EQ(ext_.CountMethod(ext_method::kTabsShow), 2);
}

}  // namespace
}  // namespace tb::testing_host
