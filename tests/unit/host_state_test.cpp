// The host in-process: a real Host on a libuv loop, its extension played over
// a socketpair and its shims over real connections to its Unix socket. Covers
// the tool list of every state, each transition's list_changed, and the
// protocol edges of the shim socket.
#include "tests/unit/host_fixture.h"

namespace tb {
namespace {

using namespace testing_host;

using Names = std::vector<std::string>;
const Names kNoTabs = {"list_tabs", "open_tab"};
const Names kTabs = {"list_tabs", "open_tab", "focus_tab"};
// The focused list on a page without tools of its own: the four tab tools,
// then the default page tools (list_webmcp_tools and call_webmcp_tool come
// with a page's own tools: own_tools_host_test.cpp).
const Names kFocused = [] {
  Names names = {"list_tabs", "open_tab", "focus_tab", "close_tab", "run_steps"};
  for (const auto& tool : tools::PageTools({})) names.push_back(tool["name"]);
  return names;
}();

TEST_F(HostTest, PublishesAPrivateSocketOnlyAfterHello) {
  StartHost();
  ASSERT_FALSE(PumpUntil([&] { return std::filesystem::exists(SocketPath(dir_, 0)); }, 100));
  Hello();
  struct stat st {};
  ASSERT_EQ(::stat(SocketPath(dir_, 0).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat(dir_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST_F(HostTest, HelloReportsTheBrowserAndCountsOnlyWebTabs) {
  StartHost();
  Hello({TabJson(1, "https://a.test/"), TabJson(2, "chrome://newtab/"), TabJson(3, "about:blank")});
  Peer& peer = Connect();
  const Json hello = Call(peer, shim_method::kHello, {{"protocol", kShimProtocol}});
  EXPECT_EQ(hello["result"]["tabCount"], 1);
  EXPECT_EQ(hello["result"]["browser"]["name"], "Chromium");
  EXPECT_EQ(hello["result"]["browser"]["pid"], 4242);
}

TEST_F(HostTest, RequestsBeforeHelloAreInvalid) {
  StartHost();
  Hello();
  Peer& peer = Connect();
  EXPECT_EQ(Call(peer, mcp::kToolsList)["error"]["code"], rpc_error::kInvalidRequest);
}

TEST_F(HostTest, AnotherShimProtocolIsRefused) {
  StartHost();
  Hello();
  Peer& peer = Connect();
  const Json answer = Call(peer, shim_method::kHello, {{"protocol", kShimProtocol + 1}});
  EXPECT_EQ(answer["error"]["code"], rpc_error::kInvalidRequest);
  EXPECT_NE(answer["error"]["message"].get<std::string>().find("reinstall"), std::string::npos);
}

TEST_F(HostTest, InvalidJsonGetsAParseErrorAndTheSessionGoesOn) {
  StartHost();
  Hello();
  Peer& peer = Session();
  peer.Write("{this is not json\n");
  ASSERT_TRUE(PumpUntil([&] {
    for (const auto& m : peer.inbox)
      if (m.contains("error") && m["error"]["code"] == rpc_error::kParseError) return true;
    return false;
  }));
  EXPECT_TRUE(Call(peer, mcp::kPing).contains("result"));
}

TEST_F(HostTest, UnknownToolIsInvalidParamsAndBadArgumentsAreToolErrors) {
  StartHost();
  Hello();
  Peer& peer = Session();
  EXPECT_EQ(Call(peer, mcp::kToolsCall, {{"name", "fly"}})["error"]["code"], rpc_error::kInvalidParams);
  const Json result = CallTool(peer, "focus_tab", {{"tabId", "abc"}});
  EXPECT_TRUE(result["isError"]);
  EXPECT_NE(result["content"][0]["text"].get<std::string>().find("tabId must be an integer"), std::string::npos);
}

TEST_F(HostTest, ToolListsFollowEveryStateWithOneNotificationPerChange) {
  StartHost();
  Hello();
  Peer& s = Session();
  EXPECT_EQ(ToolNames(s), kNoTabs);

  ExtEvent(ext_event::kTabCreated, {{"tab", TabJson(7, "https://a.test/")}});  // the user opens a tab
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == 1; }));
  EXPECT_EQ(ToolNames(s), kTabs);

  const Json focused = CallTool(s, "focus_tab", {{"tabId", 7}});
  EXPECT_EQ(focused["structuredContent"]["focused"], true);
  EXPECT_EQ(s.ListChanged(), 2);
  EXPECT_EQ(ToolNames(s), kFocused);

  CallTool(s, "focus_tab", {{"tabId", 7}});  // the same focus again: nothing changed
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(7, "https://a.test/", "New title")}});
  ASSERT_TRUE(
      PumpUntil([&] { return CallTool(s, "list_tabs")["structuredContent"]["tabs"][0]["title"] == "New title"; }));
  EXPECT_EQ(s.ListChanged(), 2);

  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(7, "chrome://settings/")}});  // navigated out of reach
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == 3; }));
  EXPECT_EQ(ToolNames(s), kNoTabs);

  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(7, "https://b.test/")}});  // back: listed, but not focused
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == 4; }));
  EXPECT_EQ(ToolNames(s), kTabs);
  EXPECT_TRUE(CallTool(s, "list_tabs")["structuredContent"]["focusedTabId"].is_null());

  ExtEvent(ext_event::kTabRemoved, {{"tabId", 7}});
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == 5; }));
  EXPECT_EQ(ToolNames(s), kNoTabs);
}

TEST_F(HostTest, OpenTabNotifiesOnceAndBeforeItsReply) {
  StartHost();
  Hello();
  Peer& s = Session();
  StartTool(s, 100, "open_tab", {{"url", "https://a.test/"}});
  const Json request = ExtRequest(ext_method::kTabsCreate);
  EXPECT_EQ(request["params"]["url"], "https://a.test/");
  EXPECT_EQ(request["params"]["active"], false);
  ExtEvent(ext_event::kTabCreated, {{"tab", TabJson(9, "https://a.test/")}});  // Chrome's event races the answer
  SendExt(rpc::MakeResult(request["id"], {{"tab", TabJson(9, "https://a.test/")}}));
  ASSERT_TRUE(AwaitReply(s, 100));
  ASSERT_GE(s.inbox.size(), 3u);  // hello result, list_changed, open_tab result
  EXPECT_EQ(s.ListChanged(), 1);
  EXPECT_EQ(s.inbox[s.inbox.size() - 2].value("method", ""), mcp::kToolsListChanged);
  EXPECT_EQ(s.inbox.back()["result"]["structuredContent"]["focused"], true);
  EXPECT_EQ(ToolNames(s), kFocused);
}

TEST_F(HostTest, OpenTabRefusesNonWebUrlsWithoutAskingTheBrowser) {
  StartHost();
  Hello();
  Peer& s = Session();
  for (const char* url : {"not a url", "javascript:alert(1)", "chrome://settings", "http:///nohost"}) {
    EXPECT_TRUE(CallTool(s, "open_tab", {{"url", url}})["isError"]) << url;
  }
  EXPECT_EQ(ext_.CountMethod(ext_method::kTabsCreate), 0);
  EXPECT_EQ(s.ListChanged(), 0);
}

TEST_F(HostTest, ABrowserErrorBecomesAToolErrorAndChangesNothing) {
  StartHost();
  Hello();
  Peer& s = Session();
  StartTool(s, 5, "open_tab", {{"url", "https://a.test/"}});
  const Json request = ExtRequest(ext_method::kTabsCreate);
  SendExt(rpc::MakeError(request["id"], rpc_error::kInvalidArgument, "refused"));
  ASSERT_TRUE(AwaitReply(s, 5));
  EXPECT_TRUE(s.inbox.back()["result"]["isError"]);
  EXPECT_NE(s.inbox.back()["result"]["content"][0]["text"].get<std::string>().find("refused"), std::string::npos);
  EXPECT_EQ(s.ListChanged(), 0);
  EXPECT_EQ(ToolNames(s), kNoTabs);
}

TEST_F(HostTest, SessionsKeepTheirOwnFocus) {
  StartHost();
  Hello({TabJson(1, "https://a.test/"), TabJson(2, "https://b.test/")});
  Peer& a = Session();
  Peer& b = Session();
  CallTool(a, "focus_tab", {{"tabId", 1}});
  CallTool(b, "focus_tab", {{"tabId", 2}});
  EXPECT_EQ(CallTool(a, "list_tabs")["structuredContent"]["focusedTabId"], 1);
  EXPECT_EQ(CallTool(b, "list_tabs")["structuredContent"]["focusedTabId"], 2);
  EXPECT_EQ(a.ListChanged(), 1);
  EXPECT_EQ(b.ListChanged(), 1);

  // B closes A's focused tab: A is told once, B (still focused on 2) not at all.
  StartTool(b, 50, "close_tab", {{"tabId", 1}});
  const Json request = ExtRequest(ext_method::kTabsClose);
  SendExt(rpc::MakeResult(request["id"], {{"closed", true}}));
  ExtEvent(ext_event::kTabRemoved, {{"tabId", 1}});
  ASSERT_TRUE(PumpUntil([&] { return b.inbox.back().value("id", 0) == 50 && a.ListChanged() == 2; }));
  EXPECT_EQ(b.ListChanged(), 1);
  EXPECT_TRUE(CallTool(a, "list_tabs")["structuredContent"]["focusedTabId"].is_null());
  EXPECT_EQ(ToolNames(a), kTabs);
  EXPECT_EQ(ToolNames(b), kFocused);
}

TEST_F(HostTest, ACancelledCallIsNotAnsweredAndTheExtensionIsTold) {
  StartHost();
  Hello();
  Peer& s = Session();
  StartTool(s, 77, "open_tab", {{"url", "https://slow.test/"}});
  const Json request = ExtRequest(ext_method::kTabsCreate);
  s.Write(LineFramer::Encode(rpc::Dump(rpc::MakeNotification(mcp::kCancelled, {{"requestId", 77}}))));
  ASSERT_TRUE(PumpUntil([&] { return ext_.CountMethod(ext_method::kCancel) == 1; }));
  SendExt(rpc::MakeResult(request["id"], {{"tab", TabJson(3, "https://slow.test/")}}));  // too late
  EXPECT_TRUE(Call(s, mcp::kPing).contains("result"));
  for (const auto& m : s.inbox) EXPECT_NE(m.value("id", 0), 77) << "a cancelled request was answered";
}

TEST_F(HostTest, ASilentExtensionFailsTheCallAtTheDeadline) {
  StartHost(/*deadline_ms=*/50);
  Hello();
  Peer& s = Session();
  const Json result = CallTool(s, "open_tab", {{"url", "https://a.test/"}});
  EXPECT_TRUE(result["isError"]);
  EXPECT_NE(result["content"][0]["text"].get<std::string>().find("did not answer"), std::string::npos);
  EXPECT_EQ(ext_.CountMethod(ext_method::kCancel), 1);
  EXPECT_TRUE(Call(s, mcp::kPing).contains("result"));
}

TEST_F(HostTest, AMessageOverOneMiBReachesTheExtensionInChunks) {
  StartHost();
  Hello();
  Peer& s = Session();
  std::string url = "https://a.test/" + std::string(3 * 1024 * 1024, 'x') + "\u00e9";  // multi-byte at the end
  StartTool(s, 8, "open_tab", {{"url", url}});
  std::string assembled;
  ASSERT_TRUE(PumpUntil([&] {
    assembled.clear();
    for (const auto& m : ext_.inbox) {
      if (m.value("method", "") != ext_method::kChunk) continue;
      assembled += m["params"]["data"].get<std::string>();
      if (m["params"]["index"] == m["params"]["count"].get<int>() - 1) return true;
    }
    return false;
  }));
  const Json request = Json::parse(assembled);
  EXPECT_EQ(request["method"], ext_method::kTabsCreate);
  EXPECT_EQ(request["params"]["url"], url);
  EXPECT_GE(ext_.CountMethod(ext_method::kChunk), 8);
}

TEST_F(HostTest, LosingTheExtensionEndsEverySessionAndRemovesTheSocket) {
  StartHost();
  Hello();
  Peer& s = Session();
  ::shutdown(ext_.fd, SHUT_RDWR);
  ASSERT_TRUE(PumpUntil([&] { return s.eof; }));
  EXPECT_FALSE(std::filesystem::exists(SocketPath(dir_, 0)));
}

// Dropped, not a reason to close: the extension's messages carry page text
// (issue 29). The host goes on: the next event is read, the session is served.
TEST_F(HostTest, AMalformedExtensionMessageIsDroppedAndTheHostGoesOn) {
  StartHost();
  Hello();
  Peer& s = Session();
  ext_.Write(NativeFramer::Encode("{definitely not json"));
  ext_.Write(NativeFramer::Encode(
      R"({"jsonrpc":"2.0","method":"tab.created","params":{"tab":{"id":9,"windowId":1,"title":"half \ud83d",)"
      R"("url":"https://a.test/9","status":"complete","active":false}}})"));
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == 1; })) << "the event after it was not read";
  const Json tabs = CallTool(s, "list_tabs");
  EXPECT_FALSE(s.eof);
  EXPECT_NE(tabs.dump(-1, ' ', false, Json::error_handler_t::replace).find("half \xEF\xBF\xBD"), std::string::npos)
      << tabs.dump();
}

TEST_F(HostTest, APageToolGoesToTheExtensionForTheFocusedTabAndItsResultComesBack) {
  StartHost();
  Hello({TabJson(4, "https://a.test/")});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 60, "click", {{"ref", "e3"}});
  const Json request = ExtRequest("page.click");
  EXPECT_EQ(request["params"]["tabId"], 4);
  EXPECT_EQ(request["params"]["ref"], "e3");
  const Json result = {{"content", {{{"type", "text"}, {"text", "clicked button \"Go\""}}}}};
  SendExt(rpc::MakeResult(request["id"], result));
  ASSERT_TRUE(AwaitReply(s, 60));
  EXPECT_EQ(s.inbox.back()["result"], result);
}

TEST_F(HostTest, APageToolWithoutAFocusedTabIsAToolErrorThatSaysWhatToDo) {
  StartHost();
  Hello({TabJson(4, "https://a.test/")});
  Peer& s = Session();
  const Json result = CallTool(s, "snapshot");
  EXPECT_TRUE(result["isError"]);
  EXPECT_NE(result["content"][0]["text"].get<std::string>().find("call focus_tab"), std::string::npos);
  EXPECT_EQ(ext_.CountMethod("page.snapshot"), 0);
}

TEST_F(HostTest, CapabilityToolsNeedTheirCapability) {
  StartHost();
  Hello({TabJson(4, "https://a.test/")});
  Peer& plain = Session();
  Peer& eval = Session({"eval"});
  CallTool(plain, "focus_tab", {{"tabId", 4}});
  CallTool(eval, "focus_tab", {{"tabId", 4}});
  const Json refused = CallTool(plain, "evaluate", {{"expression", "1+1"}});
  EXPECT_TRUE(refused["isError"]);
  EXPECT_NE(refused["content"][0]["text"].get<std::string>().find("--caps eval"), std::string::npos);
  const auto names = ToolNames(eval);
  EXPECT_NE(std::ranges::find(names, "evaluate"), names.end());
  const auto plain_names = ToolNames(plain);
  EXPECT_EQ(std::ranges::find(plain_names, "evaluate"), plain_names.end());
  EXPECT_EQ(CallTool(eval, "list_tabs")["structuredContent"]["tabs"][0]["toolCount"],
            0);  // the page has none of its own
}

TEST_F(HostTest, ExtensionProgressReachesTheSessionThatGaveAToken) {
  StartHost();
  Hello({TabJson(4, "https://a.test/")});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 61, "navigate", {{"url", "https://b.test/"}}, {{"progressToken", "tok"}});
  const Json request = ExtRequest("page.navigate");
  ExtEvent(ext_event::kPageProgress, {{"id", request["id"]}, {"progress", 1}, {"message", "loading"}});
  ASSERT_TRUE(PumpUntil([&] { return s.CountMethod(mcp::kProgress) == 1; }));
  for (const auto& m : s.inbox) {
    if (m.value("method", "") == mcp::kProgress) {
      EXPECT_EQ(m["params"]["progressToken"], "tok");
      EXPECT_EQ(m["params"]["message"], "loading");
    }
  }
  SendExt(rpc::MakeResult(request["id"], {{"content", Json::array()}}));
  ASSERT_TRUE(AwaitReply(s, 61));
  ExtEvent(ext_event::kPageProgress, {{"id", request["id"]}, {"progress", 2}});  // after the answer: dropped
  EXPECT_TRUE(Call(s, mcp::kPing).contains("result"));
  EXPECT_EQ(s.CountMethod(mcp::kProgress), 1);
}

TEST_F(HostTest, ConsoleErrorsAreToldOnlyToSessionsFocusedOnThatTab) {
  StartHost();
  Hello({TabJson(4, "https://a.test/"), TabJson(5, "https://b.test/")});
  Peer& on4 = Session();
  Peer& on5 = Session();
  CallTool(on4, "focus_tab", {{"tabId", 4}});
  CallTool(on5, "focus_tab", {{"tabId", 5}});
  ExtEvent(ext_event::kConsoleEntry, {{"tabId", 4}, {"level", "error"}, {"text", "boom"}, {"url", "https://a.test/"}});
  ASSERT_TRUE(PumpUntil([&] { return on4.CountMethod(mcp::kMessage) == 1; }));
  EXPECT_TRUE(Call(on5, mcp::kPing).contains("result"));
  EXPECT_EQ(on5.CountMethod(mcp::kMessage), 0);
}

TEST_F(HostTest, AGoneTabIsAToolErrorNamingListTabs) {
  StartHost();
  Hello({TabJson(4, "https://a.test/")});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 62, "snapshot");
  const Json request = ExtRequest("page.snapshot");
  SendExt(rpc::MakeError(request["id"], rpc_error::kTabNotFound, "no tab with id 4"));
  ASSERT_TRUE(AwaitReply(s, 62));
  EXPECT_TRUE(s.inbox.back()["result"]["isError"]);
  EXPECT_NE(s.inbox.back()["result"]["content"][0]["text"].get<std::string>().find("call list_tabs"),
            std::string::npos);
}

TEST_F(HostTest, ACapabilityWidensTheSchemaItsSessionIsCheckedAgainst) {
  StartHost();
  Hello({TabJson(4, "https://a.test/")});
  Peer& plain = Session();
  Peer& html = Session({"html"});
  CallTool(plain, "focus_tab", {{"tabId", 4}});
  CallTool(html, "focus_tab", {{"tabId", 4}});
  EXPECT_TRUE(CallTool(plain, "read_page", {{"mode", "html"}})["isError"]);
  StartTool(html, 63, "read_page", {{"mode", "html"}});
  const Json request = ExtRequest("page.read_page");
  EXPECT_EQ(request["params"]["mode"], "html");
}

// Issue 29: page text reaches a session only through the one cleaner
// (common/page_text.h, in Session::Send), whatever the tool — a page tool's
// text and structuredContent, list_tabs' titles, a forwarded console entry —
// and an image's data is passed on untouched.
TEST_F(HostTest, PageTextReachesASessionCleanedWhateverTheTool) {
  const std::string hidden = "a\U000E0069\u202E\u2028b";  // a tag character, RLO, a line separator
  StartHost();
  Hello({TabJson(4, "https://a.test/", hidden)});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  EXPECT_EQ(CallTool(s, "list_tabs")["structuredContent"]["tabs"][0]["title"], "a\nb");
  StartTool(s, 64, "screenshot");
  const Json request = ExtRequest("page.screenshot");
  SendExt(rpc::MakeResult(request["id"], {{"content",
                                           {{{"type", "text"}, {"text", hidden}},
                                            {{"type", "image"}, {"data", "QUJD\u202E"}, {"mimeType", "image/png"}}}},
                                          {"structuredContent", {{"title", hidden}}}}));
  ASSERT_TRUE(AwaitReply(s, 64));
  const Json& result = s.inbox.back()["result"];
  EXPECT_EQ(result["content"][0]["text"], "a\nb");
  EXPECT_EQ(result["content"][1]["data"], "QUJD\u202E");
  EXPECT_EQ(result["structuredContent"]["title"], "a\nb");
  ExtEvent(ext_event::kConsoleEntry, {{"tabId", 4}, {"level", "error"}, {"text", hidden}, {"url", "https://a.test/"}});
  ASSERT_TRUE(PumpUntil([&] { return s.CountMethod(mcp::kMessage) == 1; }));
  for (const Json& m : s.inbox) {
    if (m.value("method", "") == mcp::kMessage) {
      EXPECT_EQ(m["params"]["data"]["text"], "a\nb");
    }
  }
}

}  // namespace
}  // namespace tb
