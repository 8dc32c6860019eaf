// The pure decisions of a dead browser's recovery (mcp_shim/session_tabs.h):
// what the session had, what to reopen, and the words the model reads.
#include "mcp_shim/session_tabs.h"

#include <gtest/gtest.h>

namespace tb {
namespace {

using namespace std::chrono_literals;

TEST(SessionTabs, ParsesTheHostsReport) {
  const auto tabs = ParseSessionTabs(
      Json::parse(R"({"tabs":[{"id":4,"url":"http://a.test/"},{"id":7,"url":"http://b.test/x"}],"focusedTabId":7})"));
  ASSERT_TRUE(tabs);
  ASSERT_EQ(tabs->tabs.size(), 2u);
  EXPECT_EQ(tabs->tabs[1].url, "http://b.test/x");
  EXPECT_EQ(tabs->focused, 7);
  const auto none = ParseSessionTabs(Json::parse(R"({"tabs":[],"focusedTabId":null})"));
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->focused);
}

TEST(SessionTabs, RefusesAMalformedReport) {
  EXPECT_FALSE(ParseSessionTabs(Json::parse(R"({"focusedTabId":1})")));
  EXPECT_FALSE(ParseSessionTabs(Json::parse(R"({"tabs":[{"id":"4","url":"http://a.test/"}]})")));
  EXPECT_FALSE(ParseSessionTabs(Json::parse(R"({"tabs":[{"id":4}]})")));
}

TEST(SessionTabs, ARestartedBrowserReopensEveryTab) {
  const SessionTabs had{{{4, "http://a.test/"}, {7, "http://b.test/"}}, 7};
  const auto steps = PlanRestore(had, {});
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_FALSE(steps[0].found);
  EXPECT_FALSE(steps[1].found);
  EXPECT_EQ(steps[1].was.url, "http://b.test/");
}

TEST(SessionTabs, AHostRestartFindsTheSameTabs) {
  // The browser lived: the same ids at the same URLs are the session's tabs.
  const SessionTabs had{{{4, "http://a.test/"}, {7, "http://b.test/"}}, 7};
  const auto steps = PlanRestore(had, {{4, "http://a.test/"}, {7, "http://b.test/"}, {9, "http://c.test/"}});
  EXPECT_EQ(steps[0].found, 4);
  EXPECT_EQ(steps[1].found, 7);
}

TEST(SessionTabs, ATabAtTheSameUrlIsTakenOnce) {
  // A tab that navigated elsewhere under the same id is not the session's;
  // one open tab at a URL serves one remembered tab only.
  const SessionTabs had{{{4, "http://a.test/"}, {5, "http://a.test/"}}, std::nullopt};
  const auto steps = PlanRestore(had, {{4, "http://elsewhere.test/"}, {12, "http://a.test/"}});
  EXPECT_EQ(steps[0].found, 12);
  EXPECT_FALSE(steps[1].found);
}

TEST(SessionTabs, SaysHowTheBrowserEnded) {
  EXPECT_EQ(HowItEnded({0, 9}), "had crashed (signal 9)");
  EXPECT_EQ(HowItEnded({0, 4}), "had crashed (signal 4)");
  EXPECT_EQ(HowItEnded({1, 0}), "had exited (status 1)");
  EXPECT_EQ(HowItEnded({0, 0}), "had been closed (status 0)");
  EXPECT_TRUE(Crashed({0, 9}));
  EXPECT_TRUE(Crashed({21, 0}));
  EXPECT_FALSE(Crashed({0, 0}));  // closed: the next call starts it, not the shim on its own
}

TEST(SessionTabs, SaysWhenInUtcAndHowLongAgo) {
  const auto at = std::chrono::system_clock::from_time_t(0) + 15h + 58min + 1s;
  EXPECT_EQ(WhenSaid(at, at + 12s), "15:58:01 UTC (12 s ago)");
  EXPECT_EQ(WhenSaid(at, at - 1s), "15:58:01 UTC (0 s ago)");
}

TEST(SessionTabs, ABrowserWeDidNotLaunchWentAway) {
  const auto at = std::chrono::system_clock::from_time_t(0) + 1h;
  const std::string note = GoneNote("Chromium 156.0", 4242, at, at + 3s);
  EXPECT_NE(note.find("the browser (Chromium 156.0, pid 4242) went away at 01:00:00 UTC (3 s ago)"), std::string::npos)
      << note;
  EXPECT_NE(note.find("does not start it again"), std::string::npos) << note;
  EXPECT_EQ(GoneNote("", 0, at, at).rfind("the browser went away at", 0), 0u);
}

TEST(SessionTabs, SummarisesWhatCameBack) {
  EXPECT_EQ(RestoreSummary({}, std::nullopt), "");
  EXPECT_EQ(RestoreSummary({{{4, "http://a.test/"}, 9, ""}}, 9),
            "this session's tab: tab 4 is now tab 9; focus is on tab 9 again");
  const std::string both =
      RestoreSummary({{{4, "http://a.test/"}, 4, ""}, {{5, "http://secret.test/"}, std::nullopt, "denied"}}, 4);
  EXPECT_EQ(both,
            "this session's tabs: tab 4 is still open; tab 5 could not be reopened: denied; focus is on tab 4 again");
  EXPECT_EQ(both.find("secret"), std::string::npos);  // no URL: the policy may withhold it from the model
}

}  // namespace
}  // namespace tb
