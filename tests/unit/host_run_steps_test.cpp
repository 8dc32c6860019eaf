// run_steps at the host: each step is the page tool's own call (its request
// to the extension, its argument check, the policy), one after the other;
// the answer numbers each step's text; an error stops the run; a cancelled run sends no further step to the extension.
#include <fstream>

#include "tests/unit/host_fixture.h"

namespace tb::testing_host {
namespace {

class RunStepsHostTest : public HostTest {
 protected:
  Peer& Focused() {
    StartHost();
    Hello({TabJson(1, "https://a.test/", "A")});
    Peer& s = Session();
    EXPECT_FALSE(CallTool(s, "focus_tab", {{"tabId", 1}}).value("isError", false));
    return s;
  }
  // The extension answers the next page call `method` with `text` (an error when is_error).
  Json AnswerPage(std::string_view method, std::string text, bool is_error = false) {
    const Json request = ExtRequest(method);
    Json result = {{"content", Json::array({{{"type", "text"}, {"text", std::move(text)}}})}};
    if (is_error) result["isError"] = true;
    SendExt(rpc::MakeResult(request["id"], std::move(result)));
    return request;
  }
  int PageRequests(std::string_view method) const {
    int n = 0;
    for (const auto& m : ext_.inbox) n += m.value("method", "") == method && m.contains("id") ? 1 : 0;
    return n;
  }
  static Json Steps(const std::vector<Json>& steps) {
    Json list = Json::array();
    for (const auto& step : steps) list.push_back(step);
    return {{"steps", std::move(list)}};
  }
  static std::string Text(const Json& result, std::size_t i) { return result["content"][i].value("text", ""); }
};

TEST_F(RunStepsHostTest, IsListedWithThePageToolsOnlyOnceATabIsFocused) {
  StartHost();
  Hello({TabJson(1, "https://a.test/", "A")});
  Peer& s = Session();
  auto names = ToolNames(s);
  EXPECT_EQ(std::ranges::count(names, "run_steps"), 0);
  EXPECT_FALSE(CallTool(s, "focus_tab", {{"tabId", 1}}).value("isError", false));
  names = ToolNames(s);
  EXPECT_EQ(std::ranges::count(names, "run_steps"), 1);
}

TEST_F(RunStepsHostTest, RunsTheStepsInOrderEachAsItsOwnCallAndNumbersTheAnswers) {
  Peer& s = Focused();
  StartTool(s, 60, "run_steps",
            Steps({{{"tool", "click"}, {"arguments", {{"ref", "e3"}}}},
                   {{"tool", "type"}, {"arguments", {{"ref", "e4"}, {"text", "hi"}}}}}));
  const Json click = AnswerPage("page.click", "clicked button \"Go\"");
  EXPECT_EQ(click["params"]["ref"], "e3");
  EXPECT_EQ(PageRequests("page.type"), 0) << "the second step went before the first answered";
  const Json type = AnswerPage("page.type", "typed 2 characters");
  EXPECT_EQ(type["params"]["text"], "hi");
  ASSERT_TRUE(AwaitReply(s, 60));
  const Json result = s.inbox.back()["result"];
  EXPECT_FALSE(result.value("isError", false)) << result;
  EXPECT_EQ(Text(result, 0), "[1] click: clicked button \"Go\"");
  EXPECT_EQ(Text(result, 1), "[2] type: typed 2 characters");
  EXPECT_EQ(result["structuredContent"]["ran"], 2);
}

// A client that asked for progress hears each step as it starts; nothing of
// the steps' own progress (it would not rise with the run's).
TEST_F(RunStepsHostTest, TellsTheClientEachStepAsItStartsWhenAskedForProgress) {
  Peer& s = Focused();
  StartTool(s, 66, "run_steps", Steps({{{"tool", "click"}, {"arguments", {{"ref", "e3"}}}}, {{"tool", "snapshot"}}}),
            {{"progressToken", "run-66"}});
  AnswerPage("page.click", "clicked");
  // The snapshot step tells progress of its own: not passed on.
  const Json snapshot = ExtRequest("page.snapshot");
  SendExt(rpc::MakeNotification(ext_event::kPageProgress, {{"id", snapshot["id"]}, {"progress", 5}, {"total", 9}}));
  SendExt(rpc::MakeResult(snapshot["id"], {{"content", Json::array({{{"type", "text"}, {"text", "- page"}}})}}));
  ASSERT_TRUE(AwaitReply(s, 66));
  std::vector<Json> progress;
  for (const auto& m : s.inbox)
    if (m.value("method", "") == mcp::kProgress) progress.push_back(m["params"]);
  ASSERT_EQ(progress.size(), 2u);
  EXPECT_EQ(progress[0]["progressToken"], "run-66");
  EXPECT_EQ(progress[0]["progress"], 0);
  EXPECT_EQ(progress[0]["total"], 2);
  EXPECT_EQ(progress[0]["message"], "step 1 of 2: click");
  EXPECT_EQ(progress[1]["progress"], 1);
  EXPECT_EQ(progress[1]["message"], "step 2 of 2: snapshot");
}

TEST_F(RunStepsHostTest, AnErrorStopsTheRunAndSaysWhichStepsDidNotRun) {
  Peer& s = Focused();
  StartTool(s, 61, "run_steps",
            Steps({{{"tool", "click"}, {"arguments", {{"ref", "e3"}}}},
                   {{"tool", "click"}, {"arguments", {{"ref", "e9"}}}},
                   {{"tool", "snapshot"}}}));
  AnswerPage("page.click", "no element with ref e3", /*is_error=*/true);
  ASSERT_TRUE(AwaitReply(s, 61));
  const Json result = s.inbox.back()["result"];
  EXPECT_TRUE(result.value("isError", false));
  EXPECT_EQ(Text(result, 0), "[1] click (error): no element with ref e3");
  EXPECT_NE(Text(result, 1).find("steps 2–3 did not run"), std::string::npos) << result;
  EXPECT_EQ(PageRequests("page.click"), 1);
  EXPECT_EQ(PageRequests("page.snapshot"), 0);
}

TEST_F(RunStepsHostTest, AStepThatIsNotAPageToolOrHasBadArgumentsIsAnErrorOfThatStepAndNothingIsSent) {
  Peer& s = Focused();
  const auto first_step = [&](Json step) {
    Json steps = Json::array({std::move(step), {{"tool", "click"}, {"arguments", {{"ref", "e3"}}}}});
    const Json result = CallTool(s, "run_steps", {{"steps", std::move(steps)}});
    EXPECT_TRUE(result.value("isError", false)) << result;
    EXPECT_EQ(result["structuredContent"]["ran"], 1) << result;
    return Text(result, 0);
  };
  EXPECT_NE(first_step({{"tool", "close_tab"}}).find("call close_tab on its own"), std::string::npos);
  EXPECT_NE(first_step({{"tool", "run_steps"}, {"arguments", {{"steps", 1}}}}).find("does not run inside run_steps"),
            std::string::npos);
  EXPECT_NE(first_step({{"tool", "click"}, {"arguments", {{"ref", 7}}}}).find("ref"), std::string::npos);
  // evaluate without --caps eval: the same refusal as a direct call.
  EXPECT_NE(first_step({{"tool", "evaluate"}, {"arguments", {{"expression", "1"}}}}).find("eval"), std::string::npos);
  EXPECT_NE(first_step({{"tool", "no_such_tool"}}).find("Unknown tool: no_such_tool"), std::string::npos);
  EXPECT_EQ(PageRequests("page.click"), 0);
  EXPECT_EQ(PageRequests("page.evaluate"), 0);
}

TEST_F(RunStepsHostTest, ACancelledRunSendsNoFurtherStep) {
  Peer& s = Focused();
  StartTool(s, 63, "run_steps",
            Steps({{{"tool", "click"}, {"arguments", {{"ref", "e3"}}}},
                   {{"tool", "click"}, {"arguments", {{"ref", "e4"}}}}}));
  const Json first = ExtRequest("page.click");
  s.Write(LineFramer::Encode(
      rpc::Dump(rpc::MakeNotification(mcp::kCancelled, {{"requestId", 63}, {"reason", "the user stopped it"}}))));
  // The host cancels the step it sent; the extension answers it anyway (too late).
  ASSERT_TRUE(PumpUntil([&] { return ext_.CountMethod(ext_method::kCancel) >= 1; }));
  SendExt(rpc::MakeResult(first["id"], {{"content", Json::array({{{"type", "text"}, {"text", "clicked"}}})}}));
  // A later call is answered, and no second click went out meanwhile.
  EXPECT_FALSE(CallTool(s, "list_tabs").value("isError", false));
  EXPECT_EQ(PageRequests("page.click"), 1);
  for (const auto& m : s.inbox)
    EXPECT_FALSE(!m.contains("method") && m.value("id", 0) == 63) << "a cancelled run answered";
}

// A client that reuses a cancelled request's id (MCP forbids it; a client may
// still) starts a new call under the same key: the cancelled run's late step
// answer neither resumes that run nor answers the new call. Today every
// canceller also drops its call's callback, so this holds twice over: the
// call's serial (Session::SerialOf) is what holds it for a handler that
// would not.
TEST_F(RunStepsHostTest, ACancelledRunStaysStoppedWhenANewCallReusesItsId) {
  Peer& s = Focused();
  StartTool(s, 65, "run_steps",
            Steps({{{"tool", "click"}, {"arguments", {{"ref", "e3"}}}},
                   {{"tool", "click"}, {"arguments", {{"ref", "e4"}}}}}));
  const Json first = ExtRequest("page.click");
  s.Write(LineFramer::Encode(rpc::Dump(rpc::MakeNotification(mcp::kCancelled, {{"requestId", 65}}))));
  ASSERT_TRUE(PumpUntil([&] { return ext_.CountMethod(ext_method::kCancel) >= 1; }));
  // Id 65 again: a snapshot, waiting on the extension.
  StartTool(s, 65, "snapshot", Json::object());
  const Json snapshot = ExtRequest("page.snapshot");
  // The cancelled click's answer arrives late.
  SendExt(rpc::MakeResult(first["id"], {{"content", Json::array({{{"type", "text"}, {"text", "clicked"}}})}}));
  EXPECT_FALSE(CallTool(s, "list_tabs").value("isError", false));
  EXPECT_EQ(PageRequests("page.click"), 1) << "the cancelled run went on with its second step";
  // The new call gets its own answer, once.
  SendExt(rpc::MakeResult(snapshot["id"], {{"content", Json::array({{{"type", "text"}, {"text", "- page"}}})}}));
  ASSERT_TRUE(AwaitReply(s, 65));
  int answers = 0;
  for (const auto& m : s.inbox) {
    if (m.contains("method") || m.value("id", 0) != 65) continue;
    ++answers;
    EXPECT_EQ(m["result"]["content"][0].value("text", ""), "- page") << m;
  }
  EXPECT_EQ(answers, 1);
}

TEST_F(RunStepsHostTest, AStepThatTookTheTabToAnotherSiteEndsTheRun) {
  Peer& s = Focused();
  StartTool(s, 64, "run_steps",
            Steps({{{"tool", "click"}, {"arguments", {{"selector", "a#out"}}}},
                   {{"tool", "type"}, {"arguments", {{"selector", "input[type=password]"}, {"text", "secret"}}}}}));
  const Json click = ExtRequest("page.click");
  // The click took the tab to b.test; its answer comes after the tab's event.
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(1, "https://b.test/login", "B")}});
  SendExt(rpc::MakeResult(click["id"], {{"content", Json::array({{{"type", "text"}, {"text", "clicked link"}}})}}));
  ASSERT_TRUE(AwaitReply(s, 64));
  const Json result = s.inbox.back()["result"];
  EXPECT_TRUE(result.value("isError", false));
  EXPECT_NE(Text(result, 1).find("now on b.test, not a.test"), std::string::npos) << result;
  EXPECT_EQ(PageRequests("page.type"), 0) << "a step written for a.test ran on b.test";
}

TEST_F(RunStepsHostTest, AStepThatStaysOnTheSiteLetsTheNextOneRun) {
  Peer& s = Focused();
  StartTool(s, 65, "run_steps",
            Steps({{{"tool", "click"}, {"arguments", {{"selector", "a#next"}}}}, {{"tool", "snapshot"}}}));
  const Json click = ExtRequest("page.click");
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(1, "https://a.test/page2", "A2")}});
  SendExt(rpc::MakeResult(click["id"], {{"content", Json::array({{{"type", "text"}, {"text", "clicked link"}}})}}));
  AnswerPage("page.snapshot", "- heading \"Page 2\"");
  ASSERT_TRUE(AwaitReply(s, 65));
  EXPECT_FALSE(s.inbox.back()["result"].value("isError", false)) << s.inbox.back();
}

TEST_F(RunStepsHostTest, EachStepIsCheckedByThePolicyAsItsOwnCall) {
  char tmpl[] = "/tmp/tb-steps-XXXXXX";
  const std::string files = ::mkdtemp(tmpl);
  policy_path_ = files + "/policy.json";
  std::ofstream(policy_path_) << R"({"default": "allow", "rules": [{"sites": ["a.test"], "deny": ["act"]}]})";
  Peer& s = Focused();
  const Json result =
      CallTool(s, "run_steps", {{"steps", Json::array({{{"tool", "click"}, {"arguments", {{"ref", "e3"}}}}})}});
  EXPECT_TRUE(result.value("isError", false));
  EXPECT_NE(Text(result, 0).find("denied"), std::string::npos) << result;
  EXPECT_EQ(PageRequests("page.click"), 0);
  std::filesystem::remove_all(files);
}

}  // namespace
}  // namespace tb::testing_host
