// The host enforcing the policy file (docs/policy.md): denials before the
// extension is asked, what sessions are shown, the second look after the
// extension ran a call, read-only sessions, re-reading the file, the audit log.
#include <sys/stat.h>

#include <fstream>

#include "common/audit_log.h"
#include "tests/unit/host_fixture.h"

namespace tb::testing_host {
namespace {

class PolicyHostTest : public HostTest {
 protected:
  void SetUp() override {
    HostTest::SetUp();
    char tmpl[] = "/tmp/tb-policy-XXXXXX";
    files_ = ::mkdtemp(tmpl);
    policy_path_ = files_ + "/policy.json";
    audit_path_ = files_ + "/state/audit.jsonl";
    policy_poll_ms_ = 10;  // a changed file is seen at once
  }
  void TearDown() override {
    HostTest::TearDown();
    std::filesystem::remove_all(files_);
  }
  void WritePolicy(const std::string& text) {
    // Replaced, as editors do: the new file has another inode, so its stat differs.
    const std::string tmp = policy_path_ + ".tmp";
    std::ofstream(tmp) << text;
    std::filesystem::rename(tmp, policy_path_);
  }
  // b.test is denied everything; a.test may do anything but download.
  void StartWithTwoSites() {
    WritePolicy(R"({"rules": [{"sites": ["b.test"], "deny": ["all"]},
                              {"sites": ["a.test"], "allow": ["read", "act", "navigate", "eval"]}]})");
    StartHost();
    Hello({TabJson(4, "https://a.test/", "Alpha"), TabJson(5, "https://b.test/inbox", "Secret inbox")});
  }
  static std::string Text(const Json& result) { return result["content"][0]["text"].get<std::string>(); }
  static bool Has(const std::vector<std::string>& names, std::string_view name) {
    return std::ranges::find(names, name) != names.end();
  }

  std::string files_;
};

TEST_F(PolicyHostTest, ADeniedCallNeverReachesTheExtensionAndNamesTheRuleAndTheFile) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 5}});
  const Json result = CallTool(s, "click", {{"ref", "e1"}});
  EXPECT_TRUE(result["isError"]);
  EXPECT_EQ(Text(result), "click denied on b.test: rule 1 (sites b.test; deny all) in " + policy_path_);
  EXPECT_EQ(result["structuredContent"]["denied"]["capability"], "act");
  EXPECT_EQ(result["structuredContent"]["denied"]["rule"], 1);
  EXPECT_EQ(ext_.CountMethod("page.click"), 0);
}

TEST_F(PolicyHostTest, ReadsAreDeniedOnADeniedTabToo) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 5}});
  EXPECT_TRUE(CallTool(s, "snapshot")["isError"]);
  EXPECT_TRUE(CallTool(s, "list_webmcp_tools")["isError"]);
  EXPECT_EQ(ext_.CountMethod("page.snapshot"), 0);
}

// tabs.focused names the focused tabs the extension attaches ahead of their
// first call: a denied site's is not among them (nor an asked one's: the
// same check, Allows).
TEST_F(PolicyHostTest, OnlyAnAllowedFocusedTabIsAttachedAhead) {
  StartWithTwoSites();
  Peer& a = Session();
  Peer& b = Session();
  CallTool(a, "focus_tab", {{"tabId", 4}});
  CallTool(b, "focus_tab", {{"tabId", 5}});
  ASSERT_TRUE(PumpUntil([&] {
    for (auto it = ext_.inbox.rbegin(); it != ext_.inbox.rend(); ++it) {
      if (it->value("method", "") != ext_method::kTabsFocused) continue;
      return (*it)["params"]["tabIds"] == Json::array({4, 5}) && (*it)["params"]["attachAhead"] == Json::array({4});
    }
    return false;
  })) << "tabs.focused {tabIds: [4, 5], attachAhead: [4]}";
}

// Issue 44 (H5): no channel to the person about a site the session may not
// read — which tab they are on, that tab brought to the front, a question
// next to it.
class PersonOnDeniedTab : public PolicyHostTest {
 protected:
  void SetUp() override {
    PolicyHostTest::SetUp();
    WritePolicy(R"({"rules": [{"sites": ["b.test"], "deny": ["all"]}, {"sites": ["a.test"], "allow": ["all"]}]})");
    headless_ = false;  // a person at the browser
    StartHost();
    Json bank = TabJson(5, "https://b.test/inbox", "Secret inbox");
    bank["active"] = true;  // the person is on the denied site
    Hello({TabJson(4, "https://a.test/", "Alpha"), bank});
  }
};

TEST_F(PersonOnDeniedTab, ListTabsDoesNotSayWhichTabThePersonIsOn) {
  Peer& s = Session();
  const Json listed = CallTool(s, "list_tabs")["structuredContent"];
  EXPECT_TRUE(listed["activeTabId"].is_null()) << listed;
  EXPECT_NE(listed.value("activeWithheld", "").find("denies this session"), std::string::npos) << listed;
  for (const auto& tab : listed["tabs"]) EXPECT_FALSE(tab.contains("active")) << tab;
}

TEST_F(PersonOnDeniedTab, FocusTabActiveIsRefused) {
  Peer& s = Session();
  const Json result = CallTool(s, "focus_tab", {{"tabId", "active"}});
  EXPECT_TRUE(result.value("isError", false)) << result;
  EXPECT_NE(Text(result).find("denies this session"), std::string::npos) << Text(result);
  EXPECT_TRUE(CallTool(s, "list_tabs")["structuredContent"]["focusedTabId"].is_null());
}

TEST_F(PersonOnDeniedTab, FocusTabShowIsRefusedAndChangesNothing) {
  Peer& s = Session();
  const Json result = CallTool(s, "focus_tab", {{"tabId", 5}, {"show", true}});
  EXPECT_TRUE(result.value("isError", false)) << result;
  EXPECT_NE(Text(result).find("is not shown to the person"), std::string::npos) << Text(result);
  EXPECT_EQ(ext_.CountMethod(ext_method::kTabsShow), 0);
  EXPECT_TRUE(CallTool(s, "list_tabs")["structuredContent"]["focusedTabId"].is_null());
  // Shown where it may read.
  StartTool(s, 80, "focus_tab", {{"tabId", 4}, {"show", true}});
  const Json show = ExtRequest(ext_method::kTabsShow);
  EXPECT_EQ(show["params"]["tabId"], 4);
}

TEST_F(PersonOnDeniedTab, AskPersonOnADeniedTabIsRefused) {
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 5}});
  const Json result = CallTool(s, "ask_person", {{"message", "Your bank flagged this session: click Confirm"}});
  EXPECT_TRUE(result.value("isError", false)) << result;
  EXPECT_NE(Text(result).find("denies this session"), std::string::npos) << Text(result);
  EXPECT_EQ(ext_.CountMethod(ext_method::kPersonAsk), 0);
}

TEST_F(PolicyHostTest, AllowedCallsCarryTheUrlTheyWereCheckedFor) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 70, "click", {{"ref", "e1"}});
  const Json request = ExtRequest("page.click");
  EXPECT_EQ(request["params"][ext_method::kPolicyUrlParam], "https://a.test/");
  SendExt(rpc::MakeResult(request["id"], {{"content", {{{"type", "text"}, {"text", "clicked"}}}}}));
  ASSERT_TRUE(AwaitReply(s, 70));
  EXPECT_FALSE(s.inbox.back()["result"].contains("isError"));
}

TEST_F(PolicyHostTest, AReadDeniedTabIsListedWithTitleAndUrlWithheld) {
  StartWithTwoSites();
  Peer& s = Session();
  const Json tabs = CallTool(s, "list_tabs")["structuredContent"]["tabs"];
  ASSERT_EQ(tabs.size(), 2u);
  EXPECT_EQ(tabs[0]["title"], "Alpha");
  EXPECT_TRUE(tabs[1]["title"].is_null());
  EXPECT_TRUE(tabs[1]["url"].is_null());
  EXPECT_EQ(tabs[1]["site"], "b.test");
  EXPECT_EQ(rpc::Dump(tabs).find("Secret inbox"), std::string::npos);
  EXPECT_EQ(rpc::Dump(tabs).find("/inbox"), std::string::npos);
}

TEST_F(PolicyHostTest, AFocusedTabOnADeniedSiteOffersNoPageTools) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 5}});
  const auto names = ToolNames(s);
  EXPECT_TRUE(Has(names, "list_tabs"));
  EXPECT_TRUE(Has(names, "focus_tab"));
  EXPECT_FALSE(Has(names, "snapshot"));
  EXPECT_FALSE(Has(names, "click"));
  EXPECT_FALSE(Has(names, "close_tab"));
}

TEST_F(PolicyHostTest, ATabMovingToADeniedSiteChangesTheListOnce) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  ASSERT_TRUE(Has(ToolNames(s), "click"));
  const int before = s.ListChanged();
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(4, "https://b.test/x")}});
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }));
  EXPECT_FALSE(Has(ToolNames(s), "click"));
  EXPECT_FALSE(PumpUntil([&] { return s.ListChanged() > before + 1; }, 300));
}

TEST_F(PolicyHostTest, OpenTabToADeniedSiteIsRefusedBeforeTheBrowserIsAsked) {
  StartWithTwoSites();
  Peer& s = Session();
  const Json result = CallTool(s, "open_tab", {{"url", "https://b.test/login"}});
  EXPECT_TRUE(result["isError"]);
  EXPECT_EQ(Text(result).rfind("open_tab denied on b.test: rule 1", 0), 0u) << Text(result);
  EXPECT_EQ(ext_.CountMethod(ext_method::kTabsCreate), 0);
}

TEST_F(PolicyHostTest, NavigateIsCheckedWhereItGoes) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  const Json result = CallTool(s, "navigate", {{"url", "https://b.test/"}});
  EXPECT_TRUE(result["isError"]);
  EXPECT_EQ(Text(result).rfind("navigate denied on b.test", 0), 0u) << Text(result);
  EXPECT_EQ(ext_.CountMethod("page.navigate"), 0);
}

TEST_F(PolicyHostTest, ACapabilityNoMatchingRuleAllowsIsDenied) {
  StartWithTwoSites();
  Peer& s = Session({"download"});
  CallTool(s, "focus_tab", {{"tabId", 4}});
  const Json result = CallTool(s, "download_file", {{"url", "https://a.test/f.zip"}});
  EXPECT_TRUE(result["isError"]);
  EXPECT_NE(Text(result).find("no rule allows download"), std::string::npos) << Text(result);
}

TEST_F(PolicyHostTest, AnActionThatLandsOnADeniedSiteIsAnsweredWithTheDenialNotThePage) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 71, "click", {{"ref", "e1"}});
  const Json request = ExtRequest("page.click");
  const Json result = {
      {"content", {{{"type", "text"}, {"text", "clicked link; navigated to https://b.test/inbox (Secret inbox)"}}}},
      {"_meta", {{ext_method::kNavigatedToMeta, "https://b.test/inbox"}}}};
  SendExt(rpc::MakeResult(request["id"], result));
  ASSERT_TRUE(AwaitReply(s, 71));
  const Json answer = s.inbox.back()["result"];
  EXPECT_TRUE(answer["isError"]);
  EXPECT_EQ(Text(answer).rfind("click: the page went to b.test — navigate denied on b.test: rule 1", 0), 0u)
      << Text(answer);
  EXPECT_EQ(rpc::Dump(answer).find("Secret inbox"), std::string::npos);
}

TEST_F(PolicyHostTest, AnActionThatLandsOnAnAllowedSiteAnswersAsBeforeWithoutTheMark) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 72, "click", {{"ref", "e1"}});
  const Json request = ExtRequest("page.click");
  const Json text = {{{"type", "text"}, {"text", "clicked; navigated to https://a.test/2"}}};
  SendExt(rpc::MakeResult(request["id"],
                          {{"content", text}, {"_meta", {{ext_method::kNavigatedToMeta, "https://a.test/2"}}}}));
  ASSERT_TRUE(AwaitReply(s, 72));
  EXPECT_EQ(s.inbox.back()["result"], Json({{"content", text}}));
}

// A press whose answer holds the text of the page it landed on names the
// URL of that document with where the press sent the tab (issue 42's R1: a
// slow redirect from an allowed site to a denied one): each is decided.
TEST_F(PolicyHostTest, EveryUrlAnAnswerReadFromIsDecidedTheDocumentReadToo) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 75, "click", {{"ref", "e1"}});
  Json request = ExtRequest("page.click");
  const Json landed = {{{"type", "text"}, {"text", "clicked; navigation to https://a.test/slow started"}},
                       {{"type", "text"}, {"text", "Secret inbox: 3 unread"}}};
  SendExt(rpc::MakeResult(
      request["id"],
      {{"content", landed},
       {"_meta", {{ext_method::kNavigatedToMeta, Json::array({"https://a.test/slow", "https://b.test/inbox"})}}}}));
  ASSERT_TRUE(AwaitReply(s, 75));
  Json answer = s.inbox.back()["result"];
  EXPECT_TRUE(answer["isError"]);
  EXPECT_EQ(Text(answer).rfind("click: the page went to b.test — navigate denied on b.test: rule 1", 0), 0u)
      << Text(answer);
  EXPECT_EQ(rpc::Dump(answer).find("Secret inbox"), std::string::npos);

  // Both allowed: the answer as it was, without the mark.
  StartTool(s, 76, "click", {{"ref", "e1"}});
  request = ExtRequest("page.click");
  SendExt(rpc::MakeResult(
      request["id"],
      {{"content", landed},
       {"_meta", {{ext_method::kNavigatedToMeta, Json::array({"https://a.test/slow", "https://a.test/done"})}}}}));
  ASSERT_TRUE(AwaitReply(s, 76));
  EXPECT_EQ(s.inbox.back()["result"], Json({{"content", landed}}));
}

TEST_F(PolicyHostTest, ANavigatedToMarkTheHostCannotReadAnswersNothingOfThePage) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  int id = 77;
  for (const Json& mark : {Json(42), Json::array({"https://a.test/", 7}), Json::object()}) {
    StartTool(s, id, "click", {{"ref", "e1"}});
    const Json request = ExtRequest("page.click");
    SendExt(rpc::MakeResult(request["id"], {{"content", {{{"type", "text"}, {"text", "Secret inbox"}}}},
                                            {"_meta", {{ext_method::kNavigatedToMeta, mark}}}}));
    ASSERT_TRUE(AwaitReply(s, id));
    const Json answer = s.inbox.back()["result"];
    EXPECT_TRUE(answer["isError"]) << mark;
    EXPECT_EQ(rpc::Dump(answer).find("Secret inbox"), std::string::npos) << mark;
    ++id;
  }
}

TEST_F(PolicyHostTest, ACallTheExtensionFoundOnAnotherSiteIsDecidedThere) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 73, "click", {{"ref", "e1"}});
  Json request = ExtRequest("page.click");
  SendExt(rpc::MakeError(request["id"], rpc::Error{rpc_error::kPageMoved, "moved", {{"url", "https://b.test/"}}}));
  ASSERT_TRUE(AwaitReply(s, 73));
  EXPECT_EQ(Text(s.inbox.back()["result"]).rfind("click denied on b.test", 0), 0u);

  StartTool(s, 74, "click", {{"ref", "e1"}});
  request = ExtRequest("page.click");
  SendExt(rpc::MakeError(request["id"], rpc::Error{rpc_error::kPageMoved, "moved", {{"url", "https://a.test/other"}}}));
  ASSERT_TRUE(AwaitReply(s, 74));
  EXPECT_EQ(Text(s.inbox.back()["result"]),
            "click: the tab moved to a.test before the call ran — nothing was done; call it again");
}

TEST_F(PolicyHostTest, AReadOnlySessionMayReadButNotAct) {
  StartWithTwoSites();
  Peer& s = Session(Json::array(), {{"readOnly", true}});
  CallTool(s, "focus_tab", {{"tabId", 4}});
  const Json click = CallTool(s, "click", {{"ref", "e1"}});
  EXPECT_TRUE(click["isError"]);
  EXPECT_EQ(Text(click), "click denied: this session is read-only (tabbridge --read-only) — it may only read pages");
  EXPECT_TRUE(CallTool(s, "open_tab", {{"url", "https://a.test/"}})["isError"]);
  const auto names = ToolNames(s);
  EXPECT_TRUE(Has(names, "snapshot"));
  EXPECT_FALSE(Has(names, "click"));
  EXPECT_FALSE(Has(names, "open_tab"));
  StartTool(s, 75, "snapshot");
  ExtRequest("page.snapshot");  // reads still go through
}

TEST_F(PolicyHostTest, ASecondHelloCannotUndoReadOnly) {
  StartWithTwoSites();
  Peer& s = Session(Json::array(), {{"readOnly", true}});
  Call(s, shim_method::kHello, {{"protocol", kShimProtocol}, {"readOnly", false}});
  CallTool(s, "focus_tab", {{"tabId", 4}});
  EXPECT_TRUE(CallTool(s, "click", {{"ref", "e1"}})["isError"]);
}

TEST_F(PolicyHostTest, WithoutAFileNothingIsOpenUntilThePersonAnswers) {
  StartHost();  // policy_path_ names no file: the person decides; headless, nobody can
  Hello({TabJson(4, "https://b.test/")});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  const Json denied = CallTool(s, "click", {{"ref", "e1"}});
  EXPECT_TRUE(denied["isError"]);
  EXPECT_EQ(denied["structuredContent"]["denied"]["ask"]["access"], "act");
  const Json tab = CallTool(s, "list_tabs")["structuredContent"]["tabs"][0];
  EXPECT_TRUE(tab["url"].is_null());
  EXPECT_EQ(tab["site"], "b.test");
  // Still listed: a call there is how the person gets asked.
  const auto names = ToolNames(s);
  EXPECT_NE(std::ranges::find(names, "click"), names.end());
}

TEST_F(PolicyHostTest, AMalformedFileDeniesEverything) {
  WritePolicy(R"({"rules": [{"sites": ["*"], "alow": ["read"]}]})");
  StartHost();
  Hello({TabJson(4, "https://a.test/")});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  const Json result = CallTool(s, "snapshot");
  EXPECT_TRUE(result["isError"]);
  EXPECT_NE(Text(result).find("malformed"), std::string::npos) << Text(result);
  EXPECT_TRUE(CallTool(s, "list_tabs")["structuredContent"]["tabs"][0]["url"].is_null());
}

TEST_F(PolicyHostTest, AChangedFileTakesEffectWithoutARestart) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  ASSERT_TRUE(Has(ToolNames(s), "click"));
  const int before = s.ListChanged();
  WritePolicy(R"({"rules": [{"sites": ["a.test"], "allow": ["read"]}]})");
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }));
  EXPECT_FALSE(Has(ToolNames(s), "click"));
  EXPECT_NE(Text(CallTool(s, "click", {{"ref", "e1"}})).find("no rule allows act"), std::string::npos);
}

TEST_F(PolicyHostTest, ConsoleErrorsOfADeniedTabAreNotForwarded) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 5}});
  ExtEvent(ext_event::kConsoleEntry, {{"tabId", 5}, {"level", "error"}, {"text", "secret"}});
  CallTool(s, "focus_tab", {{"tabId", 4}});
  ExtEvent(ext_event::kConsoleEntry, {{"tabId", 4}, {"level", "error"}, {"text", "visible"}});
  ASSERT_TRUE(PumpUntil([&] { return s.CountMethod(mcp::kMessage) == 1; }));
  EXPECT_EQ(rpc::Dump(s.inbox).find("secret"), std::string::npos);
}

// The gate writes the audit line of a call it denies where the call goes,
// with that target (the catalog's url_arg), before the extension hears anything.
TEST_F(PolicyHostTest, ANavigateDeniedWhereItGoesIsAuditedWithItsTarget) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  const Json result = CallTool(s, "navigate", {{"url", "https://b.test/inbox"}});
  EXPECT_TRUE(result.value("isError", false));
  EXPECT_EQ(ext_.CountMethod("page.navigate"), 0);
  const auto entries = audit::Tail(audit_path_, 10);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0]["tool"], "navigate");
  EXPECT_EQ(entries[0]["outcome"], "denied");
  EXPECT_EQ(entries[0]["url"], "https://a.test/");
  EXPECT_EQ(entries[0]["detail"], "to https://b.test/inbox");
}

TEST_F(PolicyHostTest, DownloadFileIsDecidedWhereItsUrlGoes) {
  WritePolicy(R"({"rules": [{"sites": ["b.test"], "deny": ["all"]}, {"sites": ["a.test"], "allow": ["all"]}]})");
  StartHost();
  Hello({TabJson(4, "https://a.test/", "Alpha")});
  Peer& s = Session({"download"});
  CallTool(s, "focus_tab", {{"tabId", 4}});
  const Json result = CallTool(s, "download_file", {{"url", "https://b.test/secret.zip"}});
  EXPECT_TRUE(result.value("isError", false));
  EXPECT_NE(Text(result).find("b.test"), std::string::npos) << result;
  EXPECT_EQ(ext_.CountMethod("page.download_file"), 0);
}

TEST_F(PolicyHostTest, ActingCallsAreAuditedWithTheirOutcomeAndReadsAreNot) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 5}});
  CallTool(s, "click", {{"ref", "e1"}});  // denied
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 77, "snapshot");
  SendExt(rpc::MakeResult(ExtRequest("page.snapshot")["id"], {{"content", Json::array()}}));
  ASSERT_TRUE(AwaitReply(s, 77));
  StartTool(s, 78, "type", {{"ref", "e2"}, {"text", "hunter2"}});
  SendExt(rpc::MakeResult(ExtRequest("page.type")["id"], {{"content", Json::array()}}));
  ASSERT_TRUE(AwaitReply(s, 78));
  const auto entries = audit::Tail(audit_path_, 10);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]["tool"], "click");
  EXPECT_EQ(entries[0]["outcome"], "denied");
  EXPECT_EQ(entries[0]["url"], "https://b.test/inbox");
  EXPECT_NE(entries[0]["rule"].get<std::string>().find("rule 1"), std::string::npos);
  EXPECT_EQ(entries[1]["tool"], "type");
  EXPECT_EQ(entries[1]["outcome"], "ok");
  EXPECT_EQ(entries[1]["client"], "test");
  std::ifstream in(audit_path_);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(all.find("hunter2"), std::string::npos);  // typed text is never logged
  struct stat st {};
  ASSERT_EQ(::stat(audit_path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(PolicyHostTest, ATargetWithoutAHostIsDecidedOnTheTabsSiteAndOneWithTwoSlashesOnItsOwn) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 80, "navigate", {{"url", "/next"}});
  ExtRequest("page.navigate");  // a path stays on a.test
  for (const std::string target : {"//b.test/x", "\\\\b.test/x", " //b.test/"}) {
    const Json result = CallTool(s, "navigate", {{"url", target}});
    EXPECT_EQ(Text(result).rfind("navigate denied on b.test", 0), 0u) << target << ": " << Text(result);
  }
}

TEST_F(PolicyHostTest, AUnicodeHostIsNotTakenForAnotherSite) {
  StartWithTwoSites();
  Peer& s = Session();
  const Json result = CallTool(s, "open_tab", {{"url", "https://ｂ．test/"}});  // full-width: b.test to a browser
  EXPECT_TRUE(result["isError"]);
  EXPECT_NE(Text(result).find("punycode"), std::string::npos) << Text(result);
  EXPECT_EQ(ext_.CountMethod(ext_method::kTabsCreate), 0);
}

TEST_F(PolicyHostTest, AReadOnlySessionIsRefusedEvenOnATabTheHostDoesNotKnow) {
  StartWithTwoSites();
  Peer& s = Session(Json::array(), {{"readOnly", true}});
  EXPECT_NE(Text(CallTool(s, "close_tab", {{"tabId", 999}})).find("read-only"), std::string::npos);
  EXPECT_EQ(ext_.CountMethod(ext_method::kTabsClose), 0);
}

TEST_F(PolicyHostTest, AReadThatWaitedAcrossANavigationNeedsOnlyReadThere) {
  WritePolicy(R"({"rules": [{"sites": ["b.test"], "allow": ["read"]}, {"sites": ["a.test"], "allow": ["all"]}]})");
  StartHost();
  Hello({TabJson(4, "https://a.test/")});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 81, "wait_for", {{"text", "x"}});
  Json request = ExtRequest("page.wait_for");
  const Json text = {{{"type", "text"}, {"text", "found"}}};
  SendExt(rpc::MakeResult(request["id"],
                          {{"content", text}, {"_meta", {{ext_method::kNavigatedToMeta, "https://b.test/"}}}}));
  ASSERT_TRUE(AwaitReply(s, 81));
  EXPECT_EQ(s.inbox.back()["result"], Json({{"content", text}}));  // b.test may be read, not navigated to
  StartTool(s, 82, "click", {{"ref", "e1"}});
  request = ExtRequest("page.click");
  SendExt(rpc::MakeResult(request["id"],
                          {{"content", text}, {"_meta", {{ext_method::kNavigatedToMeta, "https://b.test/"}}}}));
  ASSERT_TRUE(AwaitReply(s, 82));
  EXPECT_EQ(Text(s.inbox.back()["result"]).rfind("click: the page went to b.test — navigate denied on b.test", 0), 0u);
}

TEST_F(PolicyHostTest, TheAuditLineSaysStoppedForAnActionThatLandedOnADeniedSiteAndKeepsNoTypedValues) {
  StartWithTwoSites();
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  StartTool(s, 83, "click", {{"ref", "e1"}});
  SendExt(
      rpc::MakeResult(ExtRequest("page.click")["id"],
                      {{"content", Json::array()}, {"_meta", {{ext_method::kNavigatedToMeta, "https://b.test/"}}}}));
  ASSERT_TRUE(AwaitReply(s, 83));
  StartTool(s, 84, "fill_form", {{"fields", {{{"ref", "e2"}, {"value", "my-secret-text"}}}}});
  const Json error = {
      {"content", {{{"type", "text"}, {"text", "could not fill: filled before it: Email = \"my-secret-text\""}}}},
      {"isError", true}};
  SendExt(rpc::MakeResult(ExtRequest("page.fill_form")["id"], error));
  ASSERT_TRUE(AwaitReply(s, 84));
  const auto entries = audit::Tail(audit_path_, 10);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]["outcome"], "stopped");
  EXPECT_EQ(entries[1]["outcome"], "error");
  EXPECT_EQ(rpc::Dump(entries).find("my-secret-text"), std::string::npos) << rpc::Dump(entries);
}

}  // namespace
}  // namespace tb::testing_host
