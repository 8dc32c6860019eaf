// The popup's side of the host (docs/protocol.md "The popup"): host.state as
// sessions attach, focus, call tools and leave; the extension's requests
// policy.check, tab.detach and session.disconnect; fields of the wrong type.
#include <fstream>

#include "tests/unit/host_fixture.h"

namespace tb::testing_host {
namespace {

class PopupHostTest : public HostTest {
 protected:
  void SetUp() override {
    HostTest::SetUp();
    char tmpl[] = "/tmp/tb-popup-XXXXXX";
    files_ = ::mkdtemp(tmpl);
  }
  void TearDown() override {
    HostTest::TearDown();
    std::filesystem::remove_all(files_);
  }

  void StartWithTabs() {
    StartHost();
    Hello({TabJson(1, "https://a.test/", "A"), TabJson(2, "https://b.test/", "B")});
  }

  // A session whose MCP client is `name` `version`.
  Peer& Client(const std::string& name, const std::string& version, Json extra = Json::object()) {
    extra["client"] = {{"name", name}, {"version", version}};
    return Session(Json::array(), std::move(extra));
  }

  // The params of the last host.state the extension got (null before any).
  Json LastState() const {
    for (auto it = ext_.inbox.rbegin(); it != ext_.inbox.rend(); ++it) {
      if (it->value("method", "") == ext_method::kHostState) return (*it)["params"];
    }
    return nullptr;
  }
  // Pumps until the last host.state satisfies `ok`; returns it.
  Json WaitState(const std::function<bool(const Json&)>& ok) {
    Json state;
    EXPECT_TRUE(PumpUntil([&] {
      state = LastState();
      return !state.is_null() && ok(state);
    })) << "host.state never got there; last: "
        << LastState().dump();
    return state;
  }
  static Json SessionIn(const Json& state, std::int64_t id) {
    for (const auto& s : state["sessions"]) {
      if (s["id"] == id) return s;
    }
    return nullptr;
  }
  // The session id of the newest attached session, from host.state.
  std::int64_t NewestSessionId(std::size_t count) {
    const Json state = WaitState([&](const Json& s) { return s["sessions"].size() == count; });
    return state["sessions"].back()["id"].get<std::int64_t>();
  }
  static int Code(const Json& answer) { return answer.contains("error") ? answer["error"].value("code", 0) : 0; }
  static std::string Message(const Json& answer) {
    return answer.contains("error") ? answer["error"].value("message", "") : "";
  }
  int Messages(const Peer& peer) const { return peer.CountMethod(mcp::kMessage); }

  std::string files_;
};

TEST_F(PopupHostTest, HelloIsAnsweredWithTheHostStateAtOnce) {
  StartWithTabs();
  const Json state = LastState();
  ASSERT_TRUE(state.is_object()) << "no host.state after hello";
  EXPECT_EQ(state["host"]["version"], kVersion);
  EXPECT_EQ(state["host"]["pid"], static_cast<long>(getpid()));
  EXPECT_EQ(state["policy"]["state"], "none");
  EXPECT_EQ(state["sessions"], Json::array());
}

TEST_F(PopupHostTest, TheClientsNameIsOneCleanShortLine) {
  StartWithTabs();
  // A name that turns the text around, breaks the line and runs long: the person sees it cleaned, cut.
  Client("Claude\u202e moc.knab\nCode " + std::string(100, 'x'), "1\u200b.0");
  const Json client = SessionIn(LastState(), NewestSessionId(1))["client"];
  const std::string name = client["name"];
  EXPECT_EQ(name.rfind("Claude moc.knab Code xx", 0), 0U) << name;
  EXPECT_LE(name.size(), kMaxClientNameBytes);
  EXPECT_EQ(name.substr(name.size() - 3), "…");
  EXPECT_EQ(client["version"], "1.0");
}

TEST_F(PopupHostTest, StateFollowsASessionsClientFocusLastToolAndEnd) {
  StartWithTabs();
  Peer& s = Client("claude-code", "2.0.1");
  const std::int64_t id = NewestSessionId(1);
  Json mine = SessionIn(LastState(), id);
  EXPECT_EQ(mine["client"], Json({{"name", "claude-code"}, {"version", "2.0.1"}}));
  EXPECT_TRUE(mine["focusedTabId"].is_null());
  EXPECT_TRUE(mine["lastTool"].is_null());
  EXPECT_EQ(mine["readOnly"], false);

  const auto before =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  CallTool(s, "focus_tab", {{"tabId", 2}});
  CallTool(s, "list_tabs");
  const Json state = WaitState([&](const Json& st) {
    const Json m = SessionIn(st, id);
    return m.is_object() && m["focusedTabId"] == 2 && m["lastTool"].is_object() && m["lastTool"]["name"] == "list_tabs";
  });
  EXPECT_GE(SessionIn(state, id)["lastTool"]["at"].get<std::int64_t>(), before);

  ::close(s.fd);
  s.fd = ::open("/dev/null", O_RDONLY);  // TearDown closes it again
  WaitState([](const Json& st) { return st["sessions"].empty(); });
}

// The extension keeps its request log only while this says so (docs/protocol.md).
TEST_F(PopupHostTest, NetworkLogIsOnWhileASessionHasTheNetworkCapability) {
  StartWithTabs();
  EXPECT_EQ(LastState()[ext_method::kHostStateNetworkLog], false);
  Peer& plain = Session(Json::array({"eval"}));
  NewestSessionId(1);
  EXPECT_EQ(LastState()[ext_method::kHostStateNetworkLog], false);
  Peer& network = Session(Json::array({"network"}));
  WaitState([](const Json& st) { return st[ext_method::kHostStateNetworkLog] == true; });
  ::close(network.fd);
  network.fd = ::open("/dev/null", O_RDONLY);  // TearDown closes it again
  WaitState([](const Json& st) { return st[ext_method::kHostStateNetworkLog] == false && st["sessions"].size() == 1; });
  (void)plain;
}

TEST_F(PopupHostTest, ABusySessionDoesNotFloodThePort) {
  StartWithTabs();
  Peer& s = Client("busy", "1");
  NewestSessionId(1);
  const int before = ext_.CountMethod(ext_method::kHostState);
  const auto start = std::chrono::steady_clock::now();
  constexpr int kCalls = 200;  // each changes lastTool
  for (int i = 0; i < kCalls; ++i) CallTool(s, "list_tabs");
  const auto elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  const auto sent = static_cast<std::int64_t>(ext_.CountMethod(ext_method::kHostState) - before);
  // At most one host.state per kHostStateCoalesceMs while the calls ran (and
  // one more at either edge), not one per call.
  EXPECT_LE(sent, elapsed_ms / static_cast<std::int64_t>(kHostStateCoalesceMs) + 2)
      << kCalls << " calls in " << elapsed_ms << " ms";
  // The last one still comes.
  WaitState([](const Json& st) {
    const Json& last = st["sessions"][0]["lastTool"];
    return last.is_object() && last["name"] == "list_tabs";
  });
}

TEST_F(PopupHostTest, DetachTabUnfocusesEverySessionOnItWithListChangedAndAMessage) {
  StartWithTabs();
  Peer& a = Client("a", "1");
  const std::int64_t a_id = NewestSessionId(1);
  Peer& b = Client("b", "1");
  const std::int64_t b_id = NewestSessionId(2);
  Peer& c = Client("c", "1");
  NewestSessionId(3);
  CallTool(a, "focus_tab", {{"tabId", 1}});
  CallTool(b, "focus_tab", {{"tabId", 1}});
  CallTool(c, "focus_tab", {{"tabId", 2}});
  const int a_changed = a.ListChanged(), b_changed = b.ListChanged(), c_changed = c.ListChanged();

  const Json answer = ExtCall(ext_request::kDetachTab, {{"tabId", 1}});
  ASSERT_TRUE(answer.contains("result")) << answer;
  EXPECT_EQ(answer["result"]["tabId"], 1);
  EXPECT_EQ(answer["result"]["detached"], Json::array({a_id, b_id}));
  ASSERT_TRUE(PumpUntil([&] { return a.ListChanged() > a_changed && b.ListChanged() > b_changed; }));
  EXPECT_EQ(Messages(a), 1);
  EXPECT_EQ(Messages(b), 1);
  EXPECT_EQ(ToolNames(a), (std::vector<std::string>{"list_tabs", "open_tab", "focus_tab"}));
  EXPECT_TRUE(CallTool(a, "list_tabs")["structuredContent"]["focusedTabId"].is_null());
  // c, on another tab, keeps its focus and hears nothing.
  EXPECT_EQ(CallTool(c, "list_tabs")["structuredContent"]["focusedTabId"], 2);
  EXPECT_EQ(c.ListChanged(), c_changed);
  EXPECT_EQ(Messages(c), 0);
  // The extension lets go of the debugger there: tab 1 is no one's now.
  ASSERT_TRUE(PumpUntil([&] {
    for (auto it = ext_.inbox.rbegin(); it != ext_.inbox.rend(); ++it) {
      if (it->value("method", "") == ext_method::kTabsFocused) return (*it)["params"]["tabIds"] == Json::array({2});
    }
    return false;
  }));
  WaitState([&](const Json& st) { return SessionIn(st, a_id)["focusedTabId"].is_null(); });

  // A tab no session is on: nothing to do, no error.
  const Json again = ExtCall(ext_request::kDetachTab, {{"tabId", 1}});
  EXPECT_EQ(again["result"]["detached"], Json::array());
}

TEST_F(PopupHostTest, DisconnectSessionClosesItsSocketAfterSayingWhyAndLeavesTheOthers) {
  StartWithTabs();
  Peer& a = Client("a", "1", {{hello_param::kTellTabs, true}});  // its shim would restore its tabs after a loss
  const std::int64_t a_id = NewestSessionId(1);
  Peer& b = Client("b", "1");
  NewestSessionId(2);

  const Json answer = ExtCall(ext_request::kDisconnectSession, {{"sessionId", a_id}});
  ASSERT_TRUE(answer.contains("result")) << answer;
  EXPECT_EQ(answer["result"], Json({{"sessionId", a_id}, {"disconnected", true}}));
  ASSERT_TRUE(PumpUntil([&] { return a.eof; })) << "the session's socket stayed open";
  ASSERT_EQ(Messages(a), 1);
  EXPECT_EQ(a.CountMethod(shim_method::kUserDisconnected), 1) << "the user's doing: no loss to restore";
  for (const auto& m : a.inbox) {
    if (m.value("method", "") == mcp::kMessage) {
      EXPECT_NE(m["params"]["data"]["text"].get<std::string>().find("disconnected"), std::string::npos) << m;
    }
  }
  const Json state = WaitState([](const Json& st) { return st["sessions"].size() == 1; });
  EXPECT_EQ(state["sessions"][0]["client"]["name"], "b");
  EXPECT_EQ(ToolNames(b), (std::vector<std::string>{"list_tabs", "open_tab", "focus_tab"}));

  const Json gone = ExtCall(ext_request::kDisconnectSession, {{"sessionId", a_id}});
  EXPECT_EQ(Code(gone), rpc_error::kInvalidArgument) << gone;
  EXPECT_NE(Message(gone).find("no session " + std::to_string(a_id)), std::string::npos) << gone;
}

TEST_F(PopupHostTest, PolicyCheckSaysWhatTheFileAndEachSessionAllowOnAUrl) {
  const std::string path = files_ + "/policy.json";
  std::ofstream(path) << R"({"rules": [{"sites": ["b.test"], "deny": ["all"]},
                                      {"sites": ["*"], "allow": ["read", "act", "navigate"]}]})";
  policy_path_ = path;
  StartWithTabs();
  Client("rw", "1");
  const std::int64_t rw = NewestSessionId(1);
  Client("ro", "1", {{"readOnly", true}});
  const std::int64_t ro = NewestSessionId(2);

  const Json a = ExtCall(ext_request::kPolicyCheck, {{"url", "https://a.test/page"}});
  ASSERT_TRUE(a.contains("result")) << a;
  EXPECT_EQ(a["result"]["site"], "a.test");
  EXPECT_EQ(a["result"]["agentUrl"], true);
  EXPECT_EQ(a["result"]["policy"]["state"], "file");
  EXPECT_EQ(a["result"]["caps"]["act"]["allowed"], true);
  EXPECT_EQ(a["result"]["caps"]["eval"]["allowed"], false);
  EXPECT_EQ(a["result"]["sessions"],
            Json::array({{{"id", rw}, {"read", true}, {"act", true}}, {{"id", ro}, {"read", true}, {"act", false}}}));

  const Json b = ExtCall(ext_request::kPolicyCheck, {{"url", "https://b.test/inbox"}});
  EXPECT_EQ(b["result"]["caps"]["read"]["allowed"], false);
  EXPECT_EQ(b["result"]["caps"]["act"]["allowed"], false);
  EXPECT_NE(b["result"]["caps"]["act"]["reason"].get<std::string>().find("rule 1"), std::string::npos) << b;
  EXPECT_EQ(b["result"]["sessions"][0]["act"], false);

  const Json blank = ExtCall(ext_request::kPolicyCheck, {{"url", "about:blank"}});
  EXPECT_EQ(blank["result"]["agentUrl"], false);
}

// A download the server redirects: the extension asks for the URL it landed
// on, and gets the verdict of the session whose call it is — the denial the
// model will read — while the call is in flight, and never after it.
TEST_F(PopupHostTest, PolicyDecideAnswersForTheSessionOfACallInFlight) {
  const std::string path = files_ + "/policy.json";
  std::ofstream(path) << R"({"rules": [{"sites": ["b.test"], "deny": ["all"]}]})";
  policy_path_ = path;
  StartWithTabs();
  Peer& s = Session(Json::array({"download"}));
  CallTool(s, "focus_tab", {{"tabId", 1}});
  StartTool(s, 61, "download_file", {{"url", "https://a.test/file"}});
  const Json request = ExtRequest("page.download_file");
  const std::int64_t call = request["id"];

  const Json allowed = ExtCall(ext_request::kPolicyDecide,
                               {{"call", call}, {"url", "https://a.test/cdn/file"}, {"capability", "download"}});
  EXPECT_EQ(allowed["result"], Json({{"allowed", true}})) << allowed;
  const Json denied =
      ExtCall(ext_request::kPolicyDecide, {{"call", call}, {"url", "https://b.test/file"}, {"capability", "download"}});
  ASSERT_EQ(denied["result"]["allowed"], false) << denied;
  const Json& denial = denied["result"]["result"];
  EXPECT_EQ(denial["isError"], true);
  EXPECT_EQ(denial["structuredContent"]["denied"]["rule"], 1);
  EXPECT_EQ(denial["content"][0]["text"].get<std::string>().rfind("download_file denied on b.test: rule 1", 0), 0u)
      << denial;

  SendExt(rpc::MakeResult(request["id"], {{"content", {{{"type", "text"}, {"text", "downloaded"}}}}}));
  ASSERT_TRUE(AwaitReply(s, 61));
  const Json over =
      ExtCall(ext_request::kPolicyDecide, {{"call", call}, {"url", "https://a.test/x"}, {"capability", "download"}});
  EXPECT_EQ(over["result"]["allowed"], false) << "a call that is over decides nothing";
  EXPECT_EQ(Code(ExtCall(ext_request::kPolicyDecide,
                         {{"call", "1"}, {"url", "https://a.test/"}, {"capability", "download"}})),
            rpc_error::kInvalidParams);
  EXPECT_EQ(
      Code(ExtCall(ext_request::kPolicyDecide, {{"call", call}, {"url", "https://a.test/"}, {"capability", "fly"}})),
      rpc_error::kInvalidParams);
}

TEST_F(PopupHostTest, WrongTypedFieldsGetAPreciseErrorAndTheHostKeepsWorking) {
  StartWithTabs();
  Peer& s = Client("s", "1");
  const std::int64_t id = NewestSessionId(1);
  CallTool(s, "focus_tab", {{"tabId", 1}});
  struct Case {
    std::string_view method;
    Json params;
    int code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {ext_request::kDetachTab, {{"tabId", "1"}}, rpc_error::kInvalidParams, "params.tabId (an integer)"},
      {ext_request::kDetachTab, {{"tabId", 1.5}}, rpc_error::kInvalidParams, "params.tabId (an integer)"},
      {ext_request::kDetachTab, Json::array({1}), rpc_error::kInvalidParams, "params.tabId (an integer)"},
      {ext_request::kDisconnectSession,
       {{"sessionId", nullptr}},
       rpc_error::kInvalidParams,
       "params.sessionId (an integer)"},
      {ext_request::kDisconnectSession,
       {{"sessionId", Json::object()}},
       rpc_error::kInvalidParams,
       "params.sessionId (an integer)"},
      {ext_request::kPolicyCheck, {{"url", 5}}, rpc_error::kInvalidParams, "params.url (a string)"},
      {ext_request::kPolicyCheck, Json::object(), rpc_error::kInvalidParams, "params.url (a string)"},
      {"session.explode", Json::object(), rpc_error::kMethodNotFound, "does not serve session.explode"},
  };
  for (const auto& c : cases) {
    const Json answer = ExtCall(c.method, c.params);
    EXPECT_EQ(Code(answer), c.code) << c.method << " " << c.params << " -> " << answer;
    EXPECT_NE(Message(answer).find(c.says), std::string::npos) << c.method << " " << c.params << " -> " << answer;
  }
  // Nothing changed: the session is still attached and focused, the port open.
  EXPECT_EQ(CallTool(s, "list_tabs")["structuredContent"]["focusedTabId"], 1);
  EXPECT_FALSE(s.eof);
  EXPECT_TRUE(SessionIn(LastState(), id).is_object());
  EXPECT_TRUE(ExtCall(ext_request::kPolicyCheck, {{"url", "https://a.test/"}}).contains("result"));
}

TEST_F(PopupHostTest, ARequestBeforeHelloIsRefused) {
  StartHost();
  const Json answer = ExtCall(ext_request::kPolicyCheck, {{"url", "https://a.test/"}});
  EXPECT_EQ(Code(answer), rpc_error::kInvalidRequest) << answer;
  Hello();  // and the host still starts
}

}  // namespace
}  // namespace tb::testing_host
