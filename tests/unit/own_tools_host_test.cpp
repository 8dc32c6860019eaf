// The page's own tools through a real Host: owntools.changed events from the
// (played) extension become tools of the sessions focused on the tab, with one
// list_changed per real change, and calls go back as owntool.call.
#include "common/argument_order.h"
#include "tests/unit/host_fixture.h"

namespace tb {
namespace {

using namespace testing_host;

Json OwnTool(std::string name, std::string source = "native") {
  return {
      {"name", std::move(name)},
      {"source", std::move(source)},
      {"description", "Add a todo item"},
      {"inputSchema", {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}, {"required", {"text"}}}}};
}

class OwnToolsTest : public HostTest {
 protected:
  // Two tabs on one site; a session focused on the first.
  void SetUpTabs() {
    StartHost();
    Hello({TabJson(4, "http://127.0.0.1:8000/todo"), TabJson(9, "http://127.0.0.1:8000/other")});
  }
  void OwnTools(std::int64_t tab, Json tools, std::string document = "D1", std::string api = "native") {
    const std::size_t total = tools.size();
    ExtEvent(ext_event::kOwnTools, {{"tabId", tab},
                                    {"documentId", document},
                                    {"url", "http://127.0.0.1:8000/todo"},
                                    {"api", api},
                                    {"total", total},
                                    {"tools", std::move(tools)}});
  }
  // A session focused on tab 4, whose document D1 has add-todo.
  Peer& FocusedOnTodo() {
    SetUpTabs();
    Peer& s = Session();
    CallTool(s, "focus_tab", {{"tabId", 4}});
    OwnTools(4, {OwnTool("add-todo")}, "D1");
    EXPECT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_localhost_8000_page0_add_todo"); }));
    return s;
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
};

constexpr const char* kAddTodo = "webmcp_localhost_8000_page0_add_todo";

TEST_F(OwnToolsTest, APageToolBecomesAToolOfTheFocusedSessionWithOneNotification) {
  SetUpTabs();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  const int before = s.ListChanged();
  OwnTools(4, {OwnTool("add-todo")});
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }));
  EXPECT_TRUE(HasTool(s, kAddTodo));
  OwnTools(4, {OwnTool("add-todo")});  // the same list again: no change
  CallTool(s, "list_tabs");
  EXPECT_EQ(s.ListChanged(), before + 1);
}

TEST_F(OwnToolsTest, ASessionFocusedOnAnotherTabHearsNothing) {
  SetUpTabs();
  Peer& a = Session();
  Peer& b = Session();
  CallTool(a, "focus_tab", {{"tabId", 4}});
  CallTool(b, "focus_tab", {{"tabId", 9}});
  const int b_before = b.ListChanged();
  OwnTools(4, {OwnTool("add-todo")});
  ASSERT_TRUE(PumpUntil([&] { return HasTool(a, kAddTodo); }));
  EXPECT_EQ(b.ListChanged(), b_before);
  EXPECT_FALSE(HasTool(b, kAddTodo));
}

TEST_F(OwnToolsTest, ListTabsCountsEveryTabsOwnTools) {
  SetUpTabs();
  Peer& s = Session();
  OwnTools(9, {OwnTool("a"), OwnTool("b")});
  ASSERT_TRUE(PumpUntil([&] { return CallTool(s, "list_tabs")["structuredContent"]["tabs"][1]["toolCount"] == 2; }));
  EXPECT_EQ(CallTool(s, "list_tabs")["structuredContent"]["tabs"][0]["toolCount"], 0);
}

TEST_F(OwnToolsTest, TheSecondTabsToolsCarryItsPageIndex) {
  SetUpTabs();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 9}});
  OwnTools(9, {OwnTool("add-todo")});
  EXPECT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_localhost_8000_page1_add_todo"); }));
}

TEST_F(OwnToolsTest, ACallGoesToTheExtensionWithTheDocumentAndThePagesName) {
  Peer& s = FocusedOnTodo();
  ASSERT_TRUE(HasTool(s, kAddTodo));
  StartTool(s, 77, kAddTodo, {{"text", "milk"}});
  const Json request = ExtRequest(ext_method::kOwnToolCall);
  EXPECT_EQ(request["params"]["tabId"], 4);
  EXPECT_EQ(request["params"]["documentId"], "D1");
  EXPECT_EQ(request["params"]["name"], "add-todo");
  EXPECT_EQ(request["params"]["source"], "native");
  EXPECT_EQ(request["params"]["arguments"]["text"], "milk");
  SendExt(rpc::MakeResult(request["id"], {{"content", {{{"type", "text"}, {"text", "added"}}}}}));
  ASSERT_TRUE(AwaitReply(s, 77));
  EXPECT_EQ(s.inbox.back()["result"]["content"][0]["text"], "added");
}

// The shim sends the arguments as the client wrote them, in order
// (kArgumentsTextMeta); the host passes that text on when it holds the very
// arguments checked, never other ones.
TEST_F(OwnToolsTest, TheArgumentsGoToThePageInTheModelsOrder) {
  SetUpTabs();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  Json tool = OwnTool("echo");
  tool["inputSchema"] = {{"type", "object"},
                         {"properties", {{"zeta", {{"type", "string"}}}, {"alpha", {{"type", "string"}}}}}};
  OwnTools(4, {tool});
  const std::string name = "webmcp_localhost_8000_page0_echo";
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, name); }));
  const Json args = {{"zeta", "z"}, {"alpha", "a"}};
  const std::string ordered = R"({"zeta":"z","alpha":"a"})";
  const auto sent = [&](int id, std::string_view tool_name, Json call_args, std::string text) {
    StartTool(s, id, tool_name, std::move(call_args), {{std::string(kArgumentsTextMeta), std::move(text)}});
    const Json request = ExtRequest(ext_method::kOwnToolCall);
    SendExt(rpc::MakeResult(request["id"], {{"content", {{{"type", "text"}, {"text", "ok"}}}}}));
    EXPECT_TRUE(AwaitReply(s, id));
    return request["params"];
  };
  Json params = sent(81, name, args, ordered);
  EXPECT_EQ(params["argumentsText"], ordered);
  EXPECT_EQ(params["arguments"], args);
  // call_webmcp_tool: the order of its `arguments` member.
  params = sent(82, "call_webmcp_tool", {{"name", "echo"}, {"arguments", args}},
                R"({"name":"echo","arguments":{"zeta":"z","alpha":"a"}})");
  EXPECT_EQ(params["argumentsText"], ordered);
  // A text of other values than the ones checked is not passed on.
  params = sent(83, name, args, R"({"zeta":"other","alpha":"a"})");
  EXPECT_FALSE(params.contains("argumentsText"));
  EXPECT_EQ(params["arguments"], args);
}

TEST_F(OwnToolsTest, WrongArgumentsAreAToolErrorThatNeverReachesThePage) {
  Peer& s = FocusedOnTodo();
  ASSERT_TRUE(HasTool(s, kAddTodo));
  const Json result = CallTool(s, kAddTodo, {{"text", 3}});
  EXPECT_TRUE(result["isError"]);
  EXPECT_NE(result["content"][0]["text"].get<std::string>().find("text must be a string"), std::string::npos);
}

TEST_F(OwnToolsTest, ACallAfterThePageChangedSaysSoAndNamesTheToolsNow) {
  Peer& s = FocusedOnTodo();
  ASSERT_TRUE(HasTool(s, kAddTodo));
  OwnTools(4, Json::array());  // navigated away
  ASSERT_TRUE(PumpUntil([&] { return !HasTool(s, kAddTodo); }));
  const Json result = CallTool(s, kAddTodo, {{"text", "x"}});
  EXPECT_TRUE(result["isError"]);
  EXPECT_NE(result["content"][0]["text"].get<std::string>().find("the page changed"), std::string::npos);
}

TEST_F(OwnToolsTest, TheExtensionSayingTheDocumentIsGoneIsThePageChanged) {
  Peer& s = FocusedOnTodo();
  ASSERT_TRUE(HasTool(s, kAddTodo));
  StartTool(s, 78, kAddTodo, {{"text", "x"}});
  const Json request = ExtRequest(ext_method::kOwnToolCall);
  SendExt(rpc::MakeError(request["id"], rpc_error::kDocumentChanged, "document gone"));
  ASSERT_TRUE(AwaitReply(s, 78));
  EXPECT_TRUE(s.inbox.back()["result"]["isError"]);
  EXPECT_NE(s.inbox.back()["result"]["content"][0]["text"].get<std::string>().find("the page changed"),
            std::string::npos);
}

TEST_F(OwnToolsTest, DisabledAutoRegisterKeepsThemOutButTheMetaToolsReachThem) {
  SetUpTabs();
  Peer& s = Connect();
  Call(s, shim_method::kHello, {{"protocol", kShimProtocol}, {"ownTools", false}});
  CallTool(s, "focus_tab", {{"tabId", 4}});
  EXPECT_FALSE(HasTool(s, "list_webmcp_tools"));  // the page has no tools yet
  const int before = s.ListChanged();
  OwnTools(4, {OwnTool("add-todo")});
  ASSERT_TRUE(PumpUntil([&] { return CallTool(s, "list_webmcp_tools")["structuredContent"]["total"] == 1; }));
  EXPECT_FALSE(HasTool(s, kAddTodo));
  // Its tools are not listed, but the two tools that reach them now are.
  EXPECT_TRUE(HasTool(s, "list_webmcp_tools"));
  EXPECT_TRUE(HasTool(s, "call_webmcp_tool"));
  EXPECT_EQ(s.ListChanged(), before + 1);
  const Json listing = CallTool(s, "list_webmcp_tools")["structuredContent"];
  EXPECT_EQ(listing["tools"][0]["name"], "add-todo");
  EXPECT_TRUE(listing["tools"][0]["mcpName"].is_null());
  StartTool(s, 79, "call_webmcp_tool", {{"name", "add-todo"}, {"arguments", {{"text", "eggs"}}}});
  const Json request = ExtRequest(ext_method::kOwnToolCall);
  EXPECT_EQ(request["params"]["arguments"]["text"], "eggs");
}

// Where tools/list has every tool the page offers (or there are none) the
// two are not listed, but they still answer.
TEST_F(OwnToolsTest, TheMetaToolsAreListedOnlyForToolsTheListLeavesOut) {
  SetUpTabs();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  EXPECT_TRUE(HasTool(s, "snapshot"));
  EXPECT_FALSE(HasTool(s, "list_webmcp_tools"));
  const Json none = CallTool(s, "list_webmcp_tools");
  EXPECT_FALSE(none.value("isError", false)) << none.dump();
  EXPECT_EQ(none["structuredContent"]["total"], 0);
  OwnTools(4, {OwnTool("add-todo")});
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, kAddTodo); }));
  EXPECT_FALSE(HasTool(s, "list_webmcp_tools"));
  EXPECT_FALSE(HasTool(s, "call_webmcp_tool"));
  EXPECT_EQ(CallTool(s, "list_webmcp_tools")["structuredContent"]["total"], 1);
}

TEST_F(OwnToolsTest, TwoHundredToolsAreBudgetedAndAllListedByTheMetaTool) {
  SetUpTabs();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  Json many = Json::array();
  for (int i = 0; i < 200; ++i) many.push_back(OwnTool("tool" + std::to_string(i)));
  OwnTools(4, std::move(many));
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_localhost_8000_page0_tool0"); }));
  const auto names = ToolNames(s);
  EXPECT_TRUE(HasTool(s, "call_webmcp_tool"));  // the way to the tools left out
  const auto own = std::ranges::count_if(names, [](const std::string& n) { return n.starts_with("webmcp_"); });
  EXPECT_LE(static_cast<std::size_t>(own), kMaxListedOwnTools);
  const Json listing = CallTool(s, "list_webmcp_tools")["structuredContent"];
  EXPECT_EQ(listing["tools"].size(), 200u);
  EXPECT_EQ(listing["omitted"], 200 - own);
}

TEST_F(OwnToolsTest, AMalformedOwnToolsEventIsIgnoredAndTheHostGoesOn) {
  SetUpTabs();
  Peer& s = Session();
  ExtEvent(ext_event::kOwnTools, {{"tabId", "4"}, {"tools", 7}});
  ExtEvent(ext_event::kOwnTools, {{"tabId", 4}, {"documentId", "D"}, {"tools", {{{"name", 1}}}}});
  EXPECT_EQ(CallTool(s, "list_tabs")["structuredContent"]["tabs"][0]["toolCount"], 0);
}

TEST_F(OwnToolsTest, ClosingTheTabDropsItsTools) {
  SetUpTabs();
  Peer& s = Session();
  OwnTools(9, {OwnTool("a")});
  ASSERT_TRUE(PumpUntil([&] { return CallTool(s, "list_tabs")["structuredContent"]["tabs"][1]["toolCount"] == 1; }));
  ExtEvent(ext_event::kTabRemoved, {{"tabId", 9}});
  ASSERT_TRUE(PumpUntil([&] { return CallTool(s, "list_tabs")["structuredContent"]["tabs"].size() == 1; }));
  Hello({TabJson(4, "http://127.0.0.1:8000/todo"),
         TabJson(9, "http://127.0.0.1:8000/other")});  // same id back (a restart)
  EXPECT_EQ(CallTool(s, "list_tabs")["structuredContent"]["tabs"][1]["toolCount"], 0);
}

TEST_F(OwnToolsTest, ANavigationToAPageWithTheSameToolsChangesNothing) {
  Peer& s = FocusedOnTodo();
  ASSERT_TRUE(HasTool(s, kAddTodo));
  const int before = s.ListChanged();
  OwnTools(4, Json::array(), "D2");          // the extension clears the tab at the commit of D2
  OwnTools(4, {OwnTool("add-todo")}, "D2");  // and D2 reports the same tools
  // The extension's messages arrive in order: once this one shows, so did those.
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(9, "http://127.0.0.1:8000/other", "marker")}});
  ASSERT_TRUE(PumpUntil([&] { return CallTool(s, "list_tabs")["structuredContent"]["tabs"][1]["title"] == "marker"; }));
  StartTool(s, 80, kAddTodo, {{"text", "x"}});
  EXPECT_EQ(ExtRequest(ext_method::kOwnToolCall)["params"]["documentId"], "D2");
  EXPECT_EQ(s.ListChanged(), before);
}

TEST_F(OwnToolsTest, ANavigationToAPageWithoutToolsIsToldOnceWhenItSettles) {
  Peer& s = FocusedOnTodo();
  ASSERT_TRUE(HasTool(s, kAddTodo));
  const int before = s.ListChanged();
  OwnTools(4, Json::array(), "D2");
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }, static_cast<int>(kNavigationSettleMs) + 3000));
  EXPECT_FALSE(HasTool(s, kAddTodo));
  EXPECT_EQ(s.ListChanged(), before + 1);
}

// Tools a page takes away itself are not worth a list_changed of their own
// (a fetch and a broken prompt cache): tools/list drops them at once, the
// notification goes with the next change that brings something.
TEST_F(OwnToolsTest, ToolsThePageTakesAwayAreToldWithTheNextChange) {
  Peer& s = FocusedOnTodo();
  ASSERT_TRUE(HasTool(s, kAddTodo));
  Peer& probe = Session();  // watches the tab's list; its fetches tell s nothing
  CallTool(probe, "focus_tab", {{"tabId", 4}});
  const int before = s.ListChanged();
  OwnTools(4, Json::array(), "D1");  // same document: the page removed its tools
  ASSERT_TRUE(PumpUntil([&] { return !HasTool(probe, kAddTodo); }, 3000));
  EXPECT_EQ(s.ListChanged(), before);
  OwnTools(4, {OwnTool("search")}, "D1");
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }, 3000));
}

// ...or when the model calls one of them: it hears the list changed, then why the call failed.
TEST_F(OwnToolsTest, CallingAToolThePageTookAwayTellsTheRemoval) {
  Peer& s = FocusedOnTodo();
  ASSERT_TRUE(HasTool(s, kAddTodo));
  Peer& probe = Session();  // watches the tab's list; its fetches tell s nothing
  CallTool(probe, "focus_tab", {{"tabId", 4}});
  const int before = s.ListChanged();
  OwnTools(4, Json::array(), "D1");
  ASSERT_TRUE(PumpUntil([&] { return !HasTool(probe, kAddTodo); }, 3000));
  EXPECT_EQ(s.ListChanged(), before);
  StartTool(s, 83, kAddTodo, {{"text", "x"}});
  ASSERT_TRUE(AwaitReply(s, 83));
  EXPECT_TRUE(s.inbox.back()["result"]["isError"]);
  EXPECT_EQ(s.ListChanged(), before + 1);  // sent before the answer
}

// Also while one of its tab-changing calls holds notifications back.
TEST_F(OwnToolsTest, CallingAToolThatWentDuringOpenTabTellsTheRemovalFirst) {
  Peer& s = FocusedOnTodo();
  Peer& probe = Session();
  CallTool(probe, "focus_tab", {{"tabId", 4}});
  const int before = s.ListChanged();
  OwnTools(4, Json::array(), "D1");
  ASSERT_TRUE(PumpUntil([&] { return !HasTool(probe, kAddTodo); }, 3000));
  StartTool(s, 85, "open_tab", {{"url", "http://127.0.0.1:8000/next"}, {"focus", false}});
  const Json create = ExtRequest(ext_method::kTabsCreate);  // not answered yet: the hold is on
  StartTool(s, 86, kAddTodo, {{"text", "x"}});
  ASSERT_TRUE(AwaitReply(s, 86));
  EXPECT_TRUE(s.inbox.back()["result"]["isError"]);
  EXPECT_EQ(s.ListChanged(), before + 1);
  SendExt(rpc::MakeResult(create["id"], {{"tab", TabJson(12, "http://127.0.0.1:8000/next")}}));
  ASSERT_TRUE(AwaitReply(s, 85));
}

// A crashed page's tools went with its document: that is news at once.
TEST_F(OwnToolsTest, ACrashedPagesToolsAreToldAtOnce) {
  Peer& s = FocusedOnTodo();
  const int before = s.ListChanged();
  Json crashed = TabJson(4, "http://127.0.0.1:8000/todo");
  crashed["crashed"] = true;
  ExtEvent(ext_event::kTabUpdated, {{"tab", crashed}});
  OwnTools(4, Json::array(), "D1");  // the extension clears a crashed tab's list
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }, 3000));
  EXPECT_FALSE(HasTool(s, kAddTodo));
}

// The same tools back before the client looked again: nothing to tell at all.
TEST_F(OwnToolsTest, ToolsTakenAwayAndBackUnseenAreNoChange) {
  Peer& s = FocusedOnTodo();
  Peer& probe = Session();  // watches the tab's list; its fetches tell s nothing
  CallTool(probe, "focus_tab", {{"tabId", 4}});
  const int before = s.ListChanged();
  OwnTools(4, Json::array(), "D1");
  ASSERT_TRUE(PumpUntil([&] { return !HasTool(probe, kAddTodo); }, 3000));
  OwnTools(4, {OwnTool("add-todo")}, "D1");
  ASSERT_TRUE(PumpUntil([&] { return HasTool(probe, kAddTodo); }, 3000));
  EXPECT_EQ(s.ListChanged(), before);
}

// A client that fetched the list while the tool was gone hears it came back.
TEST_F(OwnToolsTest, AToolBackAfterTheClientFetchedTheListWithoutItIsTold) {
  Peer& s = FocusedOnTodo();
  const int before = s.ListChanged();
  OwnTools(4, Json::array(), "D1");
  ASSERT_TRUE(PumpUntil([&] { return !HasTool(s, kAddTodo); }, 1000));  // fetched without it
  OwnTools(4, {OwnTool("add-todo")}, "D1");
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }, 3000));
}

// A navigation whose new page keeps only some of the old page's tools is news,
// even when something else was told while it settled.
TEST_F(OwnToolsTest, ANavigationToAPageWithFewerToolsIsToldAfterAChangeWhileItSettled) {
  SetUpTabs();
  ExtEvent(ext_event::kTabCreated, {{"tab", TabJson(2, "http://127.0.0.1:8000/first")}});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  OwnTools(4, {OwnTool("add-todo"), OwnTool("search")}, "D1");
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_localhost_8000_page1_search"); }));
  OwnTools(4, Json::array(), "D2");                  // the navigation clears the tab: the list waits for D2
  ExtEvent(ext_event::kTabRemoved, {{"tabId", 2}});  // page1 -> page0: told while D2 settles
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_localhost_8000_page0_search"); }, 3000));
  const int before = s.ListChanged();
  OwnTools(4, {OwnTool("add-todo")}, "D2");
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }, 3000));
  EXPECT_FALSE(HasTool(s, "webmcp_localhost_8000_page0_search"));
}

TEST_F(OwnToolsTest, ACancelledCallIsNotAnsweredAndTheExtensionIsTold) {
  Peer& s = FocusedOnTodo();
  StartTool(s, 81, kAddTodo, {{"text", "slow"}});
  const Json request = ExtRequest(ext_method::kOwnToolCall);
  s.Write(LineFramer::Encode(rpc::Dump(rpc::MakeNotification(mcp::kCancelled, {{"requestId", 81}}))));
  ASSERT_TRUE(PumpUntil([&] { return ext_.CountMethod(ext_method::kCancel) == 1; }));
  SendExt(rpc::MakeResult(request["id"], {{"content", Json::array()}}));  // too late
  EXPECT_TRUE(Call(s, mcp::kPing).contains("result"));
  for (const auto& m : s.inbox) EXPECT_NE(m.value("id", 0), 81) << "a cancelled request was answered";
}

TEST_F(OwnToolsTest, APageNameEqualToAnotherToolsMcpNameDoesNotShadowIt) {
  SetUpTabs();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  Json form = OwnTool("navigate", "form");        // listed as form_navigate
  OwnTools(4, {form, OwnTool("form_navigate")});  // and a WebMCP tool the page named form_navigate
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "form_navigate"); }));
  StartTool(s, 82, "call_webmcp_tool", {{"name", "form_navigate"}, {"arguments", {{"text", "x"}}}});
  EXPECT_EQ(ExtRequest(ext_method::kOwnToolCall)["params"]["source"], "form");
}

// Issue 22: a result list is listed select_… and a call goes back as its source.
TEST_F(OwnToolsTest, AResultListToolIsListedAndCalledAsResults) {
  SetUpTabs();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  Json list = OwnTool("select_search_result", "results");
  list["inputSchema"] = {{"type", "object"},
                         {"properties", {{"index", {{"type", "integer"}, {"minimum", 0}, {"maximum", 4}}}}},
                         {"required", {"index"}}};
  OwnTools(4, {list});
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "select_search_result"); }));
  // Out of range: the host's schema check answers, nothing reaches the page.
  const Json refused = CallTool(s, "select_search_result", {{"index", 5}});
  EXPECT_EQ(refused["isError"], true);
  EXPECT_NE(rpc::Dump(refused).find("index must be at most 4"), std::string::npos) << rpc::Dump(refused);
  EXPECT_EQ(ext_.CountMethod(ext_method::kOwnToolCall), 0);
  StartTool(s, 83, "select_search_result", {{"index", 2}});
  const Json request = ExtRequest(ext_method::kOwnToolCall);
  EXPECT_EQ(request["params"]["source"], "results");
  EXPECT_EQ(request["params"]["name"], "select_search_result");
  EXPECT_EQ(request["params"]["arguments"], Json({{"index", 2}}));
}

TEST_F(OwnToolsTest, NativeUnderAPolyfillCountsAsNative) {
  SetUpTabs();
  ExtEvent(ext_event::kOwnTools,
           {{"tabId", 4}, {"documentId", "D"}, {"api", "polyfill"}, {"native", true}, {"tools", Json::array()}});
  Peer& s = Connect();
  ASSERT_TRUE(PumpUntil([&] {
    return Call(s, shim_method::kHello, {{"protocol", kShimProtocol}})["result"]["webmcp"] == "native";
  }));
}

TEST_F(OwnToolsTest, WhileANavigatedPageSettlesTheListStaysAsItWas) {
  Peer& s = FocusedOnTodo();
  const int before = s.ListChanged();
  OwnTools(4, Json::array(), "D2");  // navigation: D2 has not reported yet
  // The extension's messages arrive in order: once this one shows, so did that.
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(9, "http://127.0.0.1:8000/other", "marker")}});
  ASSERT_TRUE(PumpUntil([&] { return CallTool(s, "list_tabs")["structuredContent"]["tabs"][1]["title"] == "marker"; }));
  EXPECT_TRUE(HasTool(s, kAddTodo));  // a client fetching now sees what it was told
  OwnTools(4, {OwnTool("add-todo")}, "D2");
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(9, "http://127.0.0.1:8000/other", "marker 2")}});
  ASSERT_TRUE(
      PumpUntil([&] { return CallTool(s, "list_tabs")["structuredContent"]["tabs"][1]["title"] == "marker 2"; }));
  StartTool(s, 83, kAddTodo, {{"text", "x"}});
  EXPECT_EQ(ExtRequest(ext_method::kOwnToolCall)["params"]["documentId"], "D2");
  EXPECT_EQ(s.ListChanged(), before);
}

// Issue 22 (seed 000): a call made while the new page settles waits for its
// tools and runs there, instead of answering "the page changed".
TEST_F(OwnToolsTest, ACallWhileTheNewPageSettlesRunsOnTheNewPage) {
  settle_ms_ = 600'000;  // only the new page's report ends the wait
  Peer& s = FocusedOnTodo();
  OwnTools(4, Json::array(), "D2");  // navigation: D2 has not reported yet
  SeenByHost("marker");
  StartTool(s, 90, kAddTodo, {{"text", "milk"}});
  SeenByHost("marker 2");  // the call was handled by now
  EXPECT_TRUE(std::ranges::none_of(s.inbox, [](const Json& m) { return m.value("id", 0) == 90; }))
      << "answered before the new page reported";
  OwnTools(4, {OwnTool("add-todo")}, "D2");
  const Json request = ExtRequest(ext_method::kOwnToolCall);
  EXPECT_EQ(request["params"]["documentId"], "D2");
  SendExt(rpc::MakeResult(request["id"], {{"content", {{{"type", "text"}, {"text", "added"}}}}}));
  ASSERT_TRUE(AwaitReply(s, 90));
  EXPECT_EQ(s.inbox.back()["result"]["content"][0]["text"], "added");
}

// A framework registers its tools once its component mounted, after the page
// first reported none: the call waits for the tool and runs there.
TEST_F(OwnToolsTest, ACallWaitsForAToolTheNewPageRegistersLate) {
  settle_ms_ = 600'000;
  Peer& s = FocusedOnTodo();
  OwnTools(4, Json::array(), "D2");  // the clear at D2's commit
  OwnTools(4, Json::array(), "D2");  // D2's first report: no tools yet
  SeenByHost("marker");
  StartTool(s, 93, kAddTodo, {{"text", "late"}});
  SeenByHost("marker 2");
  EXPECT_TRUE(std::ranges::none_of(s.inbox, [](const Json& m) { return m.value("id", 0) == 93; }));
  OwnTools(4, {OwnTool("add-todo")}, "D2");
  const Json request = ExtRequest(ext_method::kOwnToolCall);
  EXPECT_EQ(request["params"]["documentId"], "D2");
  SendExt(rpc::MakeResult(request["id"], {{"content", {{{"type", "text"}, {"text", "added late"}}}}}));
  ASSERT_TRUE(AwaitReply(s, 93));
  EXPECT_EQ(s.inbox.back()["result"]["content"][0]["text"], "added late");
}

// A call that reached the page may have done its work before the page went
// (a form sent): it is never sent again, even when the new page has the tool.
TEST_F(OwnToolsTest, ACallThatReachedThePageBeforeItWentIsNotSentTwice) {
  settle_ms_ = 600'000;
  Peer& s = FocusedOnTodo();
  StartTool(s, 94, kAddTodo, {{"text", "once"}});
  const Json first = ExtRequest(ext_method::kOwnToolCall);
  OwnTools(4, Json::array(), "D2");
  SendExt(rpc::MakeError(first["id"], rpc_error::kDocumentChanged, "document gone"));
  ASSERT_TRUE(AwaitReply(s, 94));
  EXPECT_NE(s.inbox.back()["result"]["content"][0]["text"].get<std::string>().find("the page changed"),
            std::string::npos);
  OwnTools(4, {OwnTool("add-todo")}, "D2");
  SeenByHost("marker");
  for (const auto& m : ext_.inbox) {
    EXPECT_FALSE(m.value("method", "") == ext_method::kOwnToolCall && m["id"] != first["id"])
        << "sent again: " << m.dump();
  }
}

// The new page reported without the tool: it may still register it late, so
// the call waits out the settle time, then hears what the page offers.
TEST_F(OwnToolsTest, ACallWhileTheNewPageSettlesHearsWhenTheToolIsGoneThere) {
  settle_ms_ = 1'500;
  Peer& s = FocusedOnTodo();
  OwnTools(4, Json::array(), "D2");
  SeenByHost("marker");
  StartTool(s, 91, "call_webmcp_tool", {{"name", "add-todo"}});
  OwnTools(4, {OwnTool("remove-todo")}, "D2");
  ASSERT_TRUE(AwaitReply(s, 91));
  const std::string text = s.inbox.back()["result"]["content"][0]["text"];
  EXPECT_NE(text.find("has no tool add-todo"), std::string::npos) << text;
  EXPECT_NE(text.find("remove_todo"), std::string::npos) << text;
}

// The page was left while the call was on its way: the extension says the
// document changed; the call waits for the new page and runs there, once.
TEST_F(OwnToolsTest, ACallThatFindsItsPageGoneRunsAgainOnTheNewPage) {
  settle_ms_ = 600'000;
  Peer& s = FocusedOnTodo();
  StartTool(s, 92, kAddTodo, {{"text", "x"}});
  const Json first = ExtRequest(ext_method::kOwnToolCall);
  OwnTools(4, Json::array(), "D2");  // the navigation's clear comes before the answer
  SendExt(rpc::MakeError(first["id"], rpc_error::kDocumentChanged, "document gone", {{"notRun", true}}));
  OwnTools(4, {OwnTool("add-todo")}, "D2");
  const Json second = ExtRequest(ext_method::kOwnToolCall);
  EXPECT_EQ(second["params"]["documentId"], "D2");
  SendExt(rpc::MakeError(second["id"], rpc_error::kDocumentChanged, "document gone again", {{"notRun", true}}));
  ASSERT_TRUE(AwaitReply(s, 92));
  EXPECT_NE(s.inbox.back()["result"]["content"][0]["text"].get<std::string>().find("the page changed"),
            std::string::npos);
}

TEST_F(OwnToolsTest, TheNewPagesFirstReportEndsTheHoldEvenWhenEmpty) {
  settle_ms_ = 600'000;  // only the report can end it within this test
  Peer& s = FocusedOnTodo();
  const int before = s.ListChanged();
  OwnTools(4, Json::array(), "D2");  // the clear at the commit of D2
  OwnTools(4, Json::array(), "D2");  // D2's own first report: nothing
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }));
  EXPECT_FALSE(HasTool(s, kAddTodo));
}

}  // namespace
}  // namespace tb

namespace tb {
namespace {

// Issue 17: a page re-registering its tools in a loop flooded the session
// (~5 list_changed a second). The first change is news at once, the rest of
// the interval is one more at its end, with the last list.
TEST_F(OwnToolsTest, APageChangingItsToolsInALoopSendsAtMostOneListChangedPerInterval) {
  Peer& s = FocusedOnTodo();
  const int before = s.CountMethod(mcp::kToolsListChanged);
  for (int i = 0; i < 20; ++i) OwnTools(4, {OwnTool("add-todo"), OwnTool("tool" + std::to_string(i))}, "D1");
  ASSERT_TRUE(PumpUntil([&] { return s.CountMethod(mcp::kToolsListChanged) == before + 1; }));  // the first, at once
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_localhost_8000_page0_tool19"); }))
      << "the last list arrives at the end of the interval";
  EXPECT_EQ(s.CountMethod(mcp::kToolsListChanged), before + 2);
  EXPECT_FALSE(HasTool(s, "webmcp_localhost_8000_page0_tool10"));
}

TEST_F(OwnToolsTest, ANewDocumentsToolsAreNewsAtOnce) {
  Peer& s = FocusedOnTodo();
  OwnTools(4, {OwnTool("add-todo"), OwnTool("one")}, "D1");  // the interval starts
  OwnTools(4, {OwnTool("add-todo"), OwnTool("two")}, "D1");  // waits
  OwnTools(4, {OwnTool("other")}, "D2");                     // a navigation: now
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_localhost_8000_page0_other"); }));
  EXPECT_FALSE(HasTool(s, "webmcp_localhost_8000_page0_two")) << "the old document's waiting list came back";
}

}  // namespace
}  // namespace tb
