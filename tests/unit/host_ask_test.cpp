// Asking the person (docs/policy.md "Asking the person"), at the host: a call
// on a site the policy leaves to them waits for person.answer and starts
// over; "Always" writes the file; the question ends by timeout, cancel or the
// session leaving (person.close); headless, the denial says how to grant it
// and tabbridge/grant takes the answer the client's user gave; ask_person.
#include <fstream>
#include <sstream>

#include "tests/unit/host_fixture.h"

namespace tb::testing_host {
namespace {

class AskHostTest : public HostTest {
 protected:
  void SetUp() override {
    HostTest::SetUp();
    char tmpl[] = "/tmp/tb-ask-XXXXXX";
    files_ = ::mkdtemp(tmpl);
    policy_path_ = files_ + "/policy.json";  // absent: the person decides
  }
  void TearDown() override {
    HostTest::TearDown();
    std::filesystem::remove_all(files_);
  }

  // A browser with a person at it (or headless), tab 1 on a.test, a session focused on it.
  Peer& Focused(bool person = true) {
    headless_ = !person;
    StartHost();
    Hello({TabJson(1, "https://a.test/", "A")});
    Peer& s = Session();
    EXPECT_FALSE(CallTool(s, "focus_tab", {{"tabId", 1}}).value("isError", false));
    return s;
  }

  // The newest person.ask (or person.close) notification the extension got.
  Json Shown(std::string_view method = ext_method::kPersonAsk) {
    Json found;
    EXPECT_TRUE(PumpUntil([&] {
      for (auto it = ext_.inbox.rbegin(); it != ext_.inbox.rend(); ++it) {
        if (it->value("method", "") == method && !it->contains("id")) return found = (*it)["params"], true;
      }
      return false;
    })) << "the extension never got "
        << method;
    return found;
  }
  int CountShown(std::string_view method) const {
    int n = 0;
    for (const auto& m : ext_.inbox) n += m.value("method", "") == method ? 1 : 0;
    return n;
  }

  Json Answer(std::int64_t ask_id, std::string choice) {
    return ExtCall(ext_request::kPersonAnswer, {{"askId", ask_id}, {"choice", std::move(choice)}});
  }
  // The extension answers the page call it got.
  void AnswerPage(std::string_view method) {
    const Json request = ExtRequest(method);
    SendExt(rpc::MakeResult(request["id"], {{"content", Json::array({{{"type", "text"}, {"text", "ok"}}})}}));
  }
  static int Code(const Json& answer) { return answer.contains("error") ? answer["error"].value("code", 0) : 0; }
  static int Replies(const Peer& peer, int id) {
    int n = 0;
    for (const auto& m : peer.inbox) n += !m.contains("method") && m.value("id", 0) == id ? 1 : 0;
    return n;
  }
  static std::string Text(const Json& result) { return result["content"][0].value("text", ""); }
  std::string FileText() const {
    std::ifstream in(policy_path_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string files_;
};

TEST_F(AskHostTest, AReadWaitsForThePersonAndGoesOnWithOnce) {
  Peer& s = Focused();
  StartTool(s, 50, "snapshot");
  const Json asked = Shown();
  EXPECT_EQ(asked["kind"], "grant");
  EXPECT_EQ(asked["site"], "a.test");
  EXPECT_EQ(asked["access"], "read");
  EXPECT_EQ(asked["client"], "test");
  EXPECT_EQ(asked["tabId"], 1);
  EXPECT_EQ(Answer(asked["askId"], "once")["result"]["ok"], true);
  AnswerPage("page.snapshot");
  ASSERT_TRUE(AwaitReply(s, 50));
  EXPECT_FALSE(s.inbox.back()["result"].value("isError", false)) << s.inbox.back();
  // Answered for the session: the next read is not asked.
  StartTool(s, 51, "snapshot");
  AnswerPage("page.snapshot");
  ASSERT_TRUE(AwaitReply(s, 51));
  EXPECT_EQ(CountShown(ext_method::kPersonAsk), 1);
}

// The call gate's order (host/call_gate.h): a call whose arguments are wrong
// is answered so at once — the person is never asked about a call that could
// not run.
TEST_F(AskHostTest, AnArgumentErrorIsAnsweredBeforeThePersonIsAsked) {
  Peer& s = Focused();
  const Json result = CallTool(s, "snapshot", {{"maxChars", 10}});
  EXPECT_TRUE(result.value("isError", false));
  EXPECT_NE(Text(result).find("maxChars must be at least 500"), std::string::npos) << result;
  EXPECT_EQ(CountShown(ext_method::kPersonAsk), 0);
}

// A step of run_steps passes the same gate: its arguments first, then the question.
TEST_F(AskHostTest, ARunStepsStepWithWrongArgumentsIsRefusedBeforeThePersonIsAsked) {
  Peer& s = Focused();
  const Json result =
      CallTool(s, "run_steps", {{"steps", {{{"tool", "snapshot"}, {"arguments", {{"maxChars", 10}}}}}}});
  EXPECT_TRUE(result.value("isError", false));
  EXPECT_NE(result["content"][0].value("text", "").find("maxChars must be at least 500"), std::string::npos) << result;
  EXPECT_EQ(CountShown(ext_method::kPersonAsk), 0);
}

TEST_F(AskHostTest, DenyDeniesAndIsNotAskedAgain) {
  Peer& s = Focused();
  StartTool(s, 50, "click", {{"selector", "a"}});
  const Json asked = Shown();
  EXPECT_EQ(asked["access"], "act");
  Answer(asked["askId"], "deny");
  ASSERT_TRUE(AwaitReply(s, 50));
  const Json result = s.inbox.back()["result"];
  EXPECT_TRUE(result.value("isError", false));
  EXPECT_EQ(Text(result), "click denied on a.test: the person denied it for this session");
  EXPECT_TRUE(CallTool(s, "click", {{"selector", "a"}}).value("isError", false));
  EXPECT_EQ(CountShown(ext_method::kPersonAsk), 1);
}

TEST_F(AskHostTest, TwoCallsToOneSiteAreOneQuestion) {
  Peer& s = Focused();
  StartTool(s, 50, "snapshot");
  StartTool(s, 51, "read_page");
  const Json asked = Shown();
  Answer(asked["askId"], "once");
  AnswerPage("page.snapshot");
  AnswerPage("page.read_page");
  ASSERT_TRUE(PumpUntil([&] { return Replies(s, 50) == 1 && Replies(s, 51) == 1; }));
  EXPECT_EQ(CountShown(ext_method::kPersonAsk), 1);
}

TEST_F(AskHostTest, AlwaysWritesARuleAndTheStateListsIt) {
  Peer& s = Focused();
  StartTool(s, 50, "snapshot");
  Answer(Shown()["askId"], "always");
  AnswerPage("page.snapshot");
  ASSERT_TRUE(AwaitReply(s, 50));
  EXPECT_EQ(Json::parse(FileText()),
            Json::parse(R"({"default": "ask", "rules": [{"sites": ["a.test"], "allow": ["read", "navigate"]}]})"));
  // host.state lists it once: the file has it, the session keeps no copy.
  Json grants;
  EXPECT_TRUE(PumpUntil([&] {
    for (auto it = ext_.inbox.rbegin(); it != ext_.inbox.rend(); ++it) {
      if (it->value("method", "") == ext_method::kHostState) return grants = (*it)["params"]["grants"], !grants.empty();
    }
    return false;
  }));
  EXPECT_EQ(grants, Json::parse(R"([{"site": "a.test", "access": ["read", "navigate"], "scope": "always"}])"));
  const Json revoked = ExtCall(ext_request::kGrantRevoke, {{"site", "a.test"}, {"scope", "always"}});
  EXPECT_EQ(revoked["result"]["revoked"], true);
  EXPECT_EQ(Json::parse(FileText())["rules"], Json::array());
  // Revoked: the next read asks again.
  StartTool(s, 51, "snapshot");
  EXPECT_TRUE(PumpUntil([&] { return CountShown(ext_method::kPersonAsk) == 2; }));
}

TEST_F(AskHostTest, NoAnswerInTimeEndsTheCallAndTheQuestion) {
  grant_ask_ms_ = 100;
  Peer& s = Focused();
  StartTool(s, 50, "snapshot");
  const Json asked = Shown();
  ASSERT_TRUE(AwaitReply(s, 50));
  EXPECT_NE(Text(s.inbox.back()["result"]).find("the person did not answer the question about a.test"),
            std::string::npos);
  EXPECT_EQ(Shown(ext_method::kPersonClose)["askId"], asked["askId"]);
  EXPECT_EQ(Code(Answer(asked["askId"], "once")), rpc_error::kInvalidArgument) << "a late click changes nothing";
}

TEST_F(AskHostTest, ACancelledCallTakesItsQuestionAway) {
  Peer& s = Focused();
  StartTool(s, 50, "snapshot");
  const Json asked = Shown();
  s.Write(LineFramer::Encode(rpc::Dump(rpc::MakeNotification(mcp::kCancelled, {{"requestId", 50}}))));
  EXPECT_EQ(Shown(ext_method::kPersonClose)["askId"], asked["askId"]);
}

TEST_F(AskHostTest, AWrongAnswerIsRefused) {
  Peer& s = Focused();
  StartTool(s, 50, "snapshot");
  const Json asked = Shown();
  EXPECT_EQ(Code(Answer(asked["askId"], "done")), rpc_error::kInvalidArgument);
  EXPECT_EQ(Code(ExtCall(ext_request::kPersonAnswer, {{"askId", "1"}, {"choice", "once"}})), rpc_error::kInvalidParams);
  EXPECT_EQ(Replies(s, 50), 0) << "still waiting";
}

TEST_F(AskHostTest, HeadlessTheDenialSaysHowAndTheClientsAnswerGrants) {
  Peer& s = Focused(/*person=*/false);
  const Json denied = CallTool(s, "snapshot");
  EXPECT_EQ(denied["structuredContent"]["denied"]["ask"],
            Json({{"site", "a.test"}, {"access", "read"}, {"nobody", true}}));
  EXPECT_NE(Text(denied).find("nobody can answer in this browser (it runs headless): run `tabbridge allow a.test`"),
            std::string::npos)
      << Text(denied);
  EXPECT_EQ(CountShown(ext_method::kPersonAsk), 0);
  const Json granted = Call(s, shim_method::kGrant, {{"site", "a.test"}, {"access", "read"}, {"choice", "once"}});
  EXPECT_EQ(granted["result"]["granted"], true);
  StartTool(s, 60, "snapshot");
  AnswerPage("page.snapshot");
  ASSERT_TRUE(AwaitReply(s, 60));
  // Nothing is waiting about b.test, and a site a rule decides is not the client's to grant.
  EXPECT_EQ(Code(Call(s, shim_method::kGrant, {{"site", "b.test"}, {"access", "read"}, {"choice", "once"}})), 0)
      << "b.test would be asked: the client may answer ahead";
  EXPECT_EQ(Code(Call(s, shim_method::kGrant, {{"site", "a.test"}, {"access", "read"}, {"choice", "deny"}})),
            rpc_error::kInvalidArgument)
      << "already answered";
}

TEST_F(AskHostTest, WithAPersonAtTheBrowserTheClientCannotGrant) {
  Peer& s = Focused();
  EXPECT_EQ(Code(Call(s, shim_method::kGrant, {{"site", "a.test"}, {"access", "act"}, {"choice", "always"}})),
            rpc_error::kInvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(policy_path_));
}

TEST_F(AskHostTest, AskPersonShowsTheMessageAndAnswersWithTheTab) {
  Peer& s = Focused();
  const auto names = ToolNames(s);
  EXPECT_NE(std::ranges::find(names, "ask_person"), names.end());
  StartTool(s, 70, "ask_person", {{"message", "Please log in"}, {"timeoutSeconds", 30}});
  const Json asked = Shown();
  EXPECT_EQ(asked["kind"], "handoff");
  EXPECT_EQ(asked["message"], "Please log in");
  EXPECT_EQ(asked["tabId"], 1);
  EXPECT_EQ(asked["timeoutMs"], 30000);
  EXPECT_EQ(asked["site"], "a.test") << "the surface names the tab's site, not only the model's words";
  Answer(asked["askId"], "done");
  ASSERT_TRUE(AwaitReply(s, 70));
  const Json result = s.inbox.back()["result"]["structuredContent"];
  EXPECT_EQ(result["answer"], "done");
  EXPECT_EQ(result["tab"]["id"], 1);
}

TEST_F(AskHostTest, AskPersonHeadlessAnswersAtOnce) {
  Peer& s = Focused(/*person=*/false);
  const auto names = ToolNames(s);
  EXPECT_EQ(std::ranges::find(names, "ask_person"), names.end()) << "not listed without a person";
  const Json result = CallTool(s, "ask_person", {{"message", "Please log in"}});
  EXPECT_TRUE(result.value("isError", false));
  EXPECT_NE(Text(result).find("nobody can see this browser"), std::string::npos);
}

TEST_F(AskHostTest, ASessionHasAtMostThreeQuestionsWaiting) {
  Peer& s = Focused();
  for (int i = 0; i < 3; ++i) StartTool(s, 80 + i, "ask_person", {{"message", "m" + std::to_string(i)}});
  EXPECT_TRUE(PumpUntil([&] { return CountShown(ext_method::kPersonAsk) == 3; }));
  const Json fourth = CallTool(s, "snapshot");
  EXPECT_TRUE(fourth.value("isError", false));
  EXPECT_NE(Text(fourth).find("3 questions of this session are already waiting"), std::string::npos) << Text(fourth);
  EXPECT_EQ(CountShown(ext_method::kPersonAsk), 3);
}

TEST_F(AskHostTest, TheAskersNameIsOneCleanLine) {
  headless_ = false;
  StartHost();
  Hello({TabJson(1, "https://a.test/", "A")});
  // Right-to-left override and a newline: the sentence must not read as another site.
  Peer& s = Session(Json::array(), {{"client", {{"name", "Claude\u202e moc.live\nCode"}}}});
  CallTool(s, "focus_tab", {{"tabId", 1}});
  StartTool(s, 50, "snapshot");
  EXPECT_EQ(Shown()["client"], "Claude moc.live Code");
}

TEST_F(AskHostTest, ASessionLeavingTakesItsQuestionsAway) {
  Peer& s = Focused();
  StartTool(s, 50, "snapshot");
  const Json asked = Shown();
  ::close(s.fd);
  s.fd = ::open("/dev/null", O_RDONLY);  // TearDown closes it again
  EXPECT_EQ(Shown(ext_method::kPersonClose)["askId"], asked["askId"]);
}

// Issue 44: no question for a capability the session does not have — a
// session without --caps eval once got an "Always" for eval written.
TEST_F(AskHostTest, NoQuestionForAToolTheSessionsCapsDoNotTurnOn) {
  Peer& s = Focused();
  const Json result = CallTool(s, "evaluate", {{"expression", "1"}});
  EXPECT_TRUE(result.value("isError", false)) << result;
  EXPECT_EQ(Text(result), "evaluate is not enabled — start tabbridge with --caps eval");
  EXPECT_EQ(CountShown(ext_method::kPersonAsk), 0) << "the person was asked";
  EXPECT_EQ(ext_.CountMethod("page.evaluate"), 0);
  EXPECT_FALSE(std::filesystem::exists(policy_path_));
}

// Issue 44: only a denied site's tab is kept from the person's channel; one
// left to the person (no policy file) is still "the page I'm on".
TEST_F(AskHostTest, ThePersonsTabOnAnAskedSiteIsStillTheirs) {
  headless_ = false;
  StartHost();
  Json tab = TabJson(1, "https://a.test/", "A");
  tab["active"] = true;
  Hello({tab});
  Peer& s = Session();
  EXPECT_EQ(CallTool(s, "list_tabs")["structuredContent"]["activeTabId"], 1);
  const Json focused = CallTool(s, "focus_tab", {{"tabId", "active"}});
  EXPECT_FALSE(focused.value("isError", false)) << focused;
}

}  // namespace
}  // namespace tb::testing_host
