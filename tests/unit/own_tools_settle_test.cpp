// One change, told once, in time (issue 41): a navigation of a session's
// focused tab is one list_changed, sent once the new page found its tools
// (the extension's clear at the commit says `settled: false`, the page's
// report ends it) or the settle time is over — whatever else changed the
// session's list meanwhile (the tab's URL under the policy, the tab's place
// in list_tabs) goes with it — and navigate's is sent right before its answer,
// as is that of every call that may take the tab to another page (a click, the
// page's own tools, run_steps).
#include <fstream>

#include "tests/unit/host_fixture.h"

namespace tb {
namespace {

using namespace testing_host;

Json OwnTool(std::string name) {
  return {{"name", std::move(name)},
          {"source", "native"},
          {"description", "a tool"},
          {"inputSchema", {{"type", "object"}, {"properties", Json::object()}}}};
}

class OwnToolsSettleTest : public HostTest {
 protected:
  void TearDown() override {
    HostTest::TearDown();
    if (!files_.empty()) std::filesystem::remove_all(files_);
  }
  // a.test may do anything; b.test anything but eval.
  void StartWithPolicy() {
    char tmpl[] = "/tmp/tb-settle-XXXXXX";
    files_ = ::mkdtemp(tmpl);
    policy_path_ = files_ + "/policy.json";
    std::ofstream(policy_path_)
        << R"({"default": "allow", "rules": [{"sites": ["b.test"], "allow": ["read", "act", "navigate"]}]})";
    StartHost();
  }
  // The extension's report of tab `tab`'s document; settled false: the clear at its commit.
  void Report(std::int64_t tab, std::string document, Json tools, const std::string& url, bool settled = true) {
    const std::size_t total = tools.size();
    ExtEvent(ext_event::kOwnTools, {{"tabId", tab},
                                    {"documentId", std::move(document)},
                                    {"url", url},
                                    {"api", "native"},
                                    {"total", total},
                                    {"tools", std::move(tools)},
                                    {"settled", settled}});
  }
  void Clear(std::int64_t tab, std::string document, const std::string& url) {
    Report(tab, std::move(document), Json::array(), url, /*settled=*/false);
  }
  bool HasTool(Peer& peer, const std::string& name) {
    const auto names = ToolNames(peer);
    return std::ranges::find(names, name) != names.end();
  }
  // tabbridge/tabs (hello tellTabs) is sent right after the sessions' tool
  // lists were refreshed: once it shows `url` for tab `tab`, the host has
  // handled the tab events before it and told what it was going to tell.
  bool ToldTabUrl(Peer& peer, std::int64_t tab, const std::string& url) {
    return PumpUntil([&] {
      for (auto it = peer.inbox.rbegin(); it != peer.inbox.rend(); ++it) {
        if (it->value("method", "") != shim_method::kSessionTabs) continue;
        for (const auto& t : (*it)["params"]["tabs"]) {
          if (t["id"] == tab) return t["url"] == url;
        }
        return false;
      }
      return false;
    });
  }
  bool ToldTabGone(Peer& peer, std::int64_t tab) {
    return PumpUntil([&] {
      for (auto it = peer.inbox.rbegin(); it != peer.inbox.rend(); ++it) {
        if (it->value("method", "") != shim_method::kSessionTabs) continue;
        return std::ranges::none_of((*it)["params"]["tabs"], [&](const Json& t) { return t["id"] == tab; });
      }
      return false;
    });
  }
  // The extension's side of a navigation of tab `tab` to `url`: the clear at
  // the commit, the new document's report, then the tab's new URL.
  void Navigated(std::int64_t tab, const std::string& document, Json tools, const std::string& url) {
    Clear(tab, document, url);
    Report(tab, document, std::move(tools), url);
    ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(tab, url, "T")}});
  }
  void Answer(const Json& request, const std::string& text) {
    SendExt(rpc::MakeResult(request["id"], {{"content", {{{"type", "text"}, {"text", text}}}}}));
  }
  // Past the coalescing of tab `tab`'s events (a probe session told of a
  // later one): `s` has heard all it will hear.
  void Quiet(std::int64_t tab, const std::string& url) {
    Peer& probe = Session(Json::array(), {{"tellTabs", true}});
    CallTool(probe, "focus_tab", {{"tabId", tab}});
    ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(tab, url, "T")}});
    ASSERT_TRUE(ToldTabUrl(probe, tab, url));
  }
  // Since inbox message `from`, `s` heard exactly one list_changed, and it
  // came before the answer to request `id`.
  static void ExpectOneChangeBeforeAnswer(const Peer& s, int id, int from) {
    const auto is_change = [](const Json& m) { return m.value("method", "") == mcp::kToolsListChanged; };
    const int change = IndexOf(s, is_change, from);
    const int answer = IndexOf(
        s, [id](const Json& m) { return !m.contains("method") && m.value("id", 0) == id; }, from);
    ASSERT_GE(change, 0) << "no list_changed";
    ASSERT_GE(answer, 0) << "no answer";
    EXPECT_LT(change, answer) << "the list_changed comes before the answer";
    EXPECT_EQ(IndexOf(s, is_change, change + 1), -1) << "one list_changed for the navigation";
  }
  // Where in the session's inbox the first message matching `pred` is (-1: none).
  static int IndexOf(const Peer& peer, const std::function<bool(const Json&)>& pred, int from = 0) {
    for (int i = from; i < static_cast<int>(peer.inbox.size()); ++i) {
      if (pred(peer.inbox[i])) return i;
    }
    return -1;
  }

  std::string files_;
};

constexpr const char* kA = "https://a.test/";
constexpr const char* kB = "https://b.test/";

// The tab's place in list_tabs names its tools (page1 → page0 when the tab
// before it closes): told with the navigation, not on its own before it.
TEST_F(OwnToolsSettleTest, WhatChangedWhileTheNewPageFoundItsToolsIsToldWithTheNavigation) {
  StartHost();
  Hello({TabJson(2, "http://127.0.0.1:8000/first"), TabJson(4, "http://127.0.0.1:8000/todo")});
  Peer& s = Session(Json::array(), {{"tellTabs", true}});
  CallTool(s, "focus_tab", {{"tabId", 2}});  // one of the session's tabs: tabbridge/tabs tells of it
  CallTool(s, "focus_tab", {{"tabId", 4}});
  Report(4, "D1", {OwnTool("add")}, "http://127.0.0.1:8000/todo");
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_localhost_8000_page1_add"); }));
  const int before = s.ListChanged();
  Clear(4, "D2", "http://127.0.0.1:8000/next");
  ExtEvent(ext_event::kTabRemoved, {{"tabId", 2}});
  ASSERT_TRUE(ToldTabGone(s, 2));
  EXPECT_EQ(s.ListChanged(), before) << "told while the new page had not reported its tools";
  Report(4, "D2", {OwnTool("add"), OwnTool("search")}, "http://127.0.0.1:8000/next");
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }));
  EXPECT_TRUE(HasTool(s, "webmcp_localhost_8000_page0_search"));
  EXPECT_EQ(s.ListChanged(), before + 1);
}

// From a page without tools of its own too: the tab's new URL takes
// `evaluate` away (the policy), the new page brings a tool — one change.
TEST_F(OwnToolsSettleTest, ANavigationFromAPageWithoutToolsIsOneChangeToo) {
  StartWithPolicy();
  Hello({TabJson(4, kA)});
  Peer& s = Session(Json::array({"eval"}), {{"tellTabs", true}});
  CallTool(s, "focus_tab", {{"tabId", 4}});
  ASSERT_TRUE(HasTool(s, "evaluate"));
  const int before = s.ListChanged();
  Clear(4, "D2", kB);
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(4, kB)}});
  ASSERT_TRUE(ToldTabUrl(s, 4, kB));
  EXPECT_EQ(s.ListChanged(), before) << "the URL's change was told before the page's tools";
  EXPECT_FALSE(HasTool(s, "evaluate"));  // a client fetching meanwhile sees it already
  Report(4, "D2", {OwnTool("search")}, kB);
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }));
  EXPECT_TRUE(HasTool(s, "webmcp_b_test_page0_search"));
  EXPECT_EQ(s.ListChanged(), before + 1);
}

// A page that never reports (our scripts do not run there) holds nothing
// longer than the settle time.
TEST_F(OwnToolsSettleTest, ANewPageThatNeverReportsIsToldWhenTheSettleTimeIsOver) {
  settle_ms_ = 300;
  StartWithPolicy();
  Hello({TabJson(4, kA)});
  Peer& s = Session(Json::array({"eval"}), {{"tellTabs", true}});
  CallTool(s, "focus_tab", {{"tabId", 4}});
  const int before = s.ListChanged();
  Clear(4, "D2", kB);
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(4, kB)}});
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }));
  EXPECT_FALSE(HasTool(s, "evaluate"));
}

// A document whose scripts never report (a file: page) is cleared as settled:
// its tools are none at once, not after the settle time.
TEST_F(OwnToolsSettleTest, ASettledClearTakesThePagesToolsAwayAtOnce) {
  settle_ms_ = 600'000;
  StartHost();
  Hello({TabJson(4, "http://127.0.0.1:8000/todo")});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  Report(4, "D1", {OwnTool("add")}, "http://127.0.0.1:8000/todo");
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_localhost_8000_page0_add"); }));
  const int before = s.ListChanged();
  Report(4, "D2", Json::array(), "file:///tmp/page.html", /*settled=*/true);
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; }));
  EXPECT_FALSE(HasTool(s, "webmcp_localhost_8000_page0_add"));
}

// Focusing a tab is the session's own change: told before focus_tab's
// answer, also while that tab's page finds its tools.
TEST_F(OwnToolsSettleTest, FocusingATabWhosePageSettlesIsToldBeforeTheAnswer) {
  settle_ms_ = 600'000;
  StartHost();
  Hello({TabJson(4, "http://127.0.0.1:8000/todo"), TabJson(9, "http://127.0.0.1:8000/other")});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 9}});
  Report(4, "D1", {OwnTool("add")}, "http://127.0.0.1:8000/todo");
  Clear(4, "D2", "http://127.0.0.1:8000/next");
  Peer& probe = Session();  // the extension's messages arrive in order: once the probe sees D1's tool, the clear is in
  CallTool(probe, "focus_tab", {{"tabId", 4}});
  ASSERT_TRUE(PumpUntil([&] { return HasTool(probe, "webmcp_localhost_8000_page0_add"); }));
  const int before = s.ListChanged();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  EXPECT_EQ(s.ListChanged(), before + 1);
}

// navigate answers once the new page reported; what the navigation changed —
// the page's tools and, a moment later, what the tab's new URL allows — is
// one list_changed, before the answer.
TEST_F(OwnToolsSettleTest, NavigateIsOneListChangedBeforeItsAnswer) {
  StartWithPolicy();
  Hello({TabJson(4, kA)});
  Peer& s = Session(Json::array({"eval"}));
  CallTool(s, "focus_tab", {{"tabId", 4}});
  Report(4, "D1", {OwnTool("add")}, kA);
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_a_test_page0_add"); }));
  const int from = static_cast<int>(s.inbox.size());
  StartTool(s, 61, "navigate", {{"url", kB}});
  const Json request = ExtRequest("page.navigate");
  Clear(4, "D2", kB);
  Report(4, "D2", {OwnTool("search")}, kB);
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(4, kB, "B")}});
  SendExt(rpc::MakeResult(request["id"], {{"content", {{{"type", "text"}, {"text", "navigated"}}}}}));
  ASSERT_TRUE(AwaitReply(s, 61));
  // Past the coalescing of the tab's events: nothing more comes.
  Peer& probe = Session(Json::array(), {{"tellTabs", true}});
  CallTool(probe, "focus_tab", {{"tabId", 4}});
  ExtEvent(ext_event::kTabUpdated, {{"tab", TabJson(4, "https://b.test/later", "B")}});
  ASSERT_TRUE(ToldTabUrl(probe, 4, "https://b.test/later"));
  const auto is_change = [](const Json& m) { return m.value("method", "") == mcp::kToolsListChanged; };
  const int change = IndexOf(s, is_change, from);
  const int answer = IndexOf(
      s, [](const Json& m) { return m.value("id", 0) == 61; }, from);
  ASSERT_GE(change, 0);
  EXPECT_LT(change, answer) << "the list_changed comes before the answer";
  EXPECT_EQ(IndexOf(s, is_change, change + 1), -1) << "one list_changed for the navigation";
  EXPECT_TRUE(HasTool(s, "webmcp_b_test_page0_search"));
  EXPECT_FALSE(HasTool(s, "evaluate"));
}

// Every call that may take the tab to another page holds the session's
// notifications until its answer, as navigate does (the extension answers
// once the new page reported): a click on a link — the new page's tools, a
// moment later the tab's new URL (what the policy allows there) — is one
// list_changed, before the answer.
TEST_F(OwnToolsSettleTest, AClickThatNavigatesIsOneListChangedBeforeItsAnswer) {
  StartWithPolicy();
  Hello({TabJson(4, kA)});
  Peer& s = Session(Json::array({"eval"}));
  CallTool(s, "focus_tab", {{"tabId", 4}});
  Report(4, "D1", {OwnTool("add")}, kA);
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_a_test_page0_add"); }));
  const int from = static_cast<int>(s.inbox.size());
  StartTool(s, 71, "click", {{"selector", "a#out"}});
  const Json request = ExtRequest("page.click");
  Navigated(4, "D2", {OwnTool("search")}, kB);
  Answer(request, "clicked link; navigated to https://b.test/");
  ASSERT_TRUE(AwaitReply(s, 71));
  Quiet(4, "https://b.test/later");
  ExpectOneChangeBeforeAnswer(s, 71, from);
  EXPECT_TRUE(HasTool(s, "webmcp_b_test_page0_search"));
  EXPECT_FALSE(HasTool(s, "evaluate"));
}

// The same for the page's own tools (a form's submit, a button's press).
TEST_F(OwnToolsSettleTest, AnOwnToolWhosePressNavigatesIsOneListChangedBeforeItsAnswer) {
  StartWithPolicy();
  Hello({TabJson(4, kA)});
  Peer& s = Session(Json::array({"eval"}));
  CallTool(s, "focus_tab", {{"tabId", 4}});
  Report(4, "D1", {OwnTool("add")}, kA);
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_a_test_page0_add"); }));
  const int from = static_cast<int>(s.inbox.size());
  StartTool(s, 72, "webmcp_a_test_page0_add");
  const Json request = ExtRequest(ext_method::kOwnToolCall);
  Navigated(4, "D2", {OwnTool("search")}, kB);
  Answer(request, "added; the tab went to b.test");
  ASSERT_TRUE(AwaitReply(s, 72));
  Quiet(4, "https://b.test/later");
  ExpectOneChangeBeforeAnswer(s, 72, from);
  EXPECT_TRUE(HasTool(s, "webmcp_b_test_page0_search"));
  EXPECT_FALSE(HasTool(s, "webmcp_a_test_page0_add"));
}

// run_steps holds them for the whole run: two steps that each land on
// another page are one list_changed, right before the run's answer.
TEST_F(OwnToolsSettleTest, ARunWhoseStepsNavigateIsOneListChangedBeforeItsAnswer) {
  StartHost();
  Hello({TabJson(4, kA)});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  Report(4, "D1", {OwnTool("add")}, kA);
  ASSERT_TRUE(PumpUntil([&] { return HasTool(s, "webmcp_a_test_page0_add"); }));
  const int from = static_cast<int>(s.inbox.size());
  StartTool(s, 73, "run_steps",
            {{"steps",
              {{{"tool", "click"}, {"arguments", {{"selector", "a#two"}}}},
               {{"tool", "click"}, {"arguments", {{"selector", "a#three"}}}}}}});
  const Json first = ExtRequest("page.click");
  Navigated(4, "D2", {OwnTool("search")}, "https://a.test/two");
  Answer(first, "clicked link; navigated to https://a.test/two");
  const Json second = ExtRequest("page.click");
  Navigated(4, "D3", {OwnTool("book")}, "https://a.test/three");
  Answer(second, "clicked link; navigated to https://a.test/three");
  ASSERT_TRUE(AwaitReply(s, 73));
  EXPECT_FALSE(s.inbox.back()["result"].value("isError", false)) << s.inbox.back();
  Quiet(4, "https://a.test/later");
  ExpectOneChangeBeforeAnswer(s, 73, from);
  EXPECT_TRUE(HasTool(s, "webmcp_a_test_page0_book"));
}

// A cancelled call (or run) holds nothing back: what changed meanwhile is
// told once it is cancelled.
TEST_F(OwnToolsSettleTest, ACancelledCallOrRunHoldsNothingBack) {
  StartHost();
  Hello({TabJson(4, kA)});
  Peer& s = Session();
  CallTool(s, "focus_tab", {{"tabId", 4}});
  const auto cancel = [&](int id) {
    s.Write(LineFramer::Encode(rpc::Dump(rpc::MakeNotification(mcp::kCancelled, {{"requestId", id}}))));
  };
  int before = s.ListChanged();
  StartTool(s, 74, "click", {{"selector", "a#two"}});
  ExtRequest("page.click");
  Navigated(4, "D2", {OwnTool("search")}, "https://a.test/two");
  cancel(74);
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; })) << "a cancelled click kept the change back";
  EXPECT_TRUE(HasTool(s, "webmcp_a_test_page0_search"));

  before = s.ListChanged();
  StartTool(s, 75, "run_steps", {{"steps", {{{"tool", "click"}, {"arguments", {{"selector", "a#three"}}}}}}});
  ExtRequest("page.click");
  Navigated(4, "D3", {OwnTool("book")}, "https://a.test/three");
  cancel(75);
  ASSERT_TRUE(PumpUntil([&] { return s.ListChanged() == before + 1; })) << "a cancelled run kept the change back";
  EXPECT_TRUE(HasTool(s, "webmcp_a_test_page0_book"));
}

}  // namespace
}  // namespace tb
