// Issue 29, finding 4: the page's own tools run only on the site whose list
// the session was shown (OwnToolCalls::OtherSiteAnswer). `form_…` names carry no
// site: page A (127.0.0.1) sends the tab to B (localhost, another site) with a
// form of the same name; a call made with A's list must not run on B's form —
// neither one that arrives after B reported, nor one parked while B loaded,
// nor one the extension found its page gone for. A new page of the same site
// keeps the park-and-retry.
#include "tests/unit/host_fixture.h"

namespace tb {
namespace {

using namespace testing_host;

// Issue 29, finding 4: `form_…` names carry no site. Page A (127.0.0.1) sends
// the tab to B (localhost, another site) with a form of the same name; a call
// made with A's list must not run on B's form.
class OwnToolsSiteTest : public HostTest {
 protected:
  // Tab 4 on A, tab 9 only for SeenByHost.
  void SetUpTabs() {
    StartHost();
    Hello({TabJson(4, "http://127.0.0.1:8000/contact"), TabJson(9, "http://127.0.0.1:8000/other")});
  }
  void OwnTools(std::int64_t tab, Json tools, std::string document, std::string url = "http://127.0.0.1:8000/contact") {
    const std::size_t total = tools.size();
    ExtEvent(ext_event::kOwnTools, {{"tabId", tab},
                                    {"documentId", std::move(document)},
                                    {"url", std::move(url)},
                                    {"api", nullptr},
                                    {"total", total},
                                    {"tools", std::move(tools)}});
  }
  // The extension's messages arrive in order: once a tab update titled `title`
  // shows in list_tabs, the host has handled every event sent before it.
  void SeenByHost(const std::string& title) {
    Peer& probe = Session();
    ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(9, "http://127.0.0.1:8000/other", title)}});
    ASSERT_TRUE(
        PumpUntil([&] { return CallTool(probe, "list_tabs")["structuredContent"]["tabs"][1]["title"] == title; }));
  }
  bool HasTool(Peer& peer, const std::string& name) {
    const auto names = ToolNames(peer);
    return std::ranges::find(names, name) != names.end();
  }
  static constexpr const char* kSend = "form_send_message";
  static constexpr const char* kB = "http://localhost:8000/compose";
  static Json Form() {
    return {{"name", "send_message"},
            {"source", "form"},
            {"description", "Send message"},
            {"inputSchema", {{"type", "object"}, {"properties", {{"to", {{"type", "string"}}}}}}}};
  }
  // A session shown A's form (its tools/list fetched).
  Peer& ShownA() {
    SetUpTabs();
    Peer& s = Session();
    CallTool(s, "focus_tab", {{"tabId", 4}});
    OwnTools(4, {Form()}, "D1");
    EXPECT_TRUE(PumpUntil([&] { return HasTool(s, kSend); }));
    return s;
  }
  // The tab goes to B: the clear at the commit, then (unless only_commit) B's report.
  void ToB(bool only_commit = false) {
    ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(4, kB, "Compose")}});
    OwnTools(4, Json::array(), "D2", kB);
    if (!only_commit) OwnTools(4, {Form()}, "D2", kB);
  }
  static std::string Text(const Json& result) { return result["content"][0]["text"].get<std::string>(); }
  static constexpr const char* kChanged = "the page changed to localhost:8000: call again if you mean localhost:8000";
};

TEST_F(OwnToolsSiteTest, ACallAfterBLoadedIsRefusedThenACallAgainRunsOnB) {
  Peer& s = ShownA();
  ToB();
  SeenByHost("marker");  // B's list is in; the session did not fetch it
  const Json refused = CallTool(s, kSend, {{"to", "a@example.com"}});
  EXPECT_EQ(refused["isError"], true);
  EXPECT_NE(Text(refused).find(kChanged), std::string::npos) << Text(refused);
  EXPECT_EQ(ext_.CountMethod(ext_method::kOwnToolCall), 0) << "A's call reached B";
  // The model was told; the same name now means B's form.
  StartTool(s, 60, kSend, {{"to", "b@example.com"}});
  EXPECT_EQ(ExtRequest(ext_method::kOwnToolCall)["params"]["documentId"], "D2");
}

TEST_F(OwnToolsSiteTest, ACallAfterTheSessionFetchedBsListRunsOnB) {
  Peer& s = ShownA();
  ToB();
  ASSERT_TRUE(PumpUntil([&] {
    const auto tools = CallTool(s, "list_webmcp_tools")["structuredContent"];
    return tools["url"] == kB;
  }));
  StartTool(s, 61, kSend, {{"to", "b@example.com"}});
  EXPECT_EQ(ExtRequest(ext_method::kOwnToolCall)["params"]["documentId"], "D2");
}

// A client fetches tools/list when told of a change (B's list), while the
// model's call may still be the one it made with A's: the last answer it had
// was on A, so the call is refused all the same.
TEST_F(OwnToolsSiteTest, AClientThatFetchedBsListIsRefusedWhileTheModelLastHeardOfA) {
  Peer& s = ShownA();
  ToB();
  SeenByHost("marker");
  ASSERT_TRUE(HasTool(s, kSend));  // the fetch: B's list
  const Json refused = CallTool(s, kSend, {{"to", "a@example.com"}});
  EXPECT_NE(Text(refused).find(kChanged), std::string::npos) << Text(refused);
  EXPECT_EQ(ext_.CountMethod(ext_method::kOwnToolCall), 0) << "A's call reached B";
}

TEST_F(OwnToolsSiteTest, ACallParkedDuringBsLoadIsRefusedWhenBReports) {
  settle_ms_ = 600'000;  // only B's report ends the wait
  Peer& s = ShownA();
  ToB(/*only_commit=*/true);
  SeenByHost("marker");
  StartTool(s, 62, kSend, {{"to", "a@example.com"}});
  SeenByHost("marker 2");  // parked by now
  // A client fetching the list meanwhile does not change what the call was made for.
  OwnTools(4, {Form()}, "D2", kB);
  ASSERT_TRUE(AwaitReply(s, 62));
  EXPECT_NE(Text(s.inbox.back()["result"]).find(kChanged), std::string::npos) << s.inbox.back().dump();
  EXPECT_EQ(ext_.CountMethod(ext_method::kOwnToolCall), 0) << "A's call reached B";
}

TEST_F(OwnToolsSiteTest, ACallThatFoundItsPageGoneIsNotRetriedOnAnotherSite) {
  settle_ms_ = 600'000;
  Peer& s = ShownA();
  StartTool(s, 63, kSend, {{"to", "a@example.com"}});
  const Json first = ExtRequest(ext_method::kOwnToolCall);
  EXPECT_EQ(first["params"]["documentId"], "D1");
  ToB(/*only_commit=*/true);
  SendExt(rpc::MakeError(first["id"], rpc_error::kDocumentChanged, "document gone", {{"notRun", true}}));
  OwnTools(4, {Form()}, "D2", kB);
  ASSERT_TRUE(AwaitReply(s, 63));
  EXPECT_NE(Text(s.inbox.back()["result"]).find(kChanged), std::string::npos) << s.inbox.back().dump();
  EXPECT_EQ(ext_.CountMethod(ext_method::kOwnToolCall), 1) << "sent again, on B";
}

TEST_F(OwnToolsSiteTest, CallWebMcpToolByNameIsRefusedOnAnotherSite) {
  Peer& s = ShownA();
  ToB();
  SeenByHost("marker");
  const Json refused = CallTool(s, "call_webmcp_tool", {{"name", "send_message"}, {"arguments", {{"to", "x"}}}});
  EXPECT_EQ(refused["isError"], true);
  EXPECT_NE(Text(refused).find(kChanged), std::string::npos) << Text(refused);
  EXPECT_EQ(ext_.CountMethod(ext_method::kOwnToolCall), 0);
}

TEST_F(OwnToolsSiteTest, ANewPageOfTheSameSiteKeepsTheParkAndRetry) {
  settle_ms_ = 600'000;
  Peer& s = ShownA();
  OwnTools(4, Json::array(), "D2", "http://127.0.0.1:8000/next");
  SeenByHost("marker");
  StartTool(s, 64, kSend, {{"to", "a@example.com"}});
  OwnTools(4, {Form()}, "D2", "http://127.0.0.1:8000/next");
  EXPECT_EQ(ExtRequest(ext_method::kOwnToolCall)["params"]["documentId"], "D2");
}

}  // namespace
}  // namespace tb
