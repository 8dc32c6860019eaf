// What the policy decides a call on, read from the tool's declaration
// (host/call_targets.h): the targets of issue 42, with no tool named in the host.
#include "host/call_targets.h"

#include <gtest/gtest.h>

namespace tb {
namespace {

// Tab 7 is on a.test; tab 9 on b.test.
std::optional<std::string> UrlOf(std::int64_t id) {
  if (id == 7) return "https://a.test/page";
  if (id == 9) return "https://b.test/";
  return std::nullopt;
}

CallTargets Of(std::string_view tool, const Json& args, std::optional<std::int64_t> focused = 7) {
  auto targets = TargetsOf(tools::PolicyOf(tool)->targets, args, focused, UrlOf);
  EXPECT_TRUE(targets) << tool;
  return targets.value_or(CallTargets{});
}

TEST(CallTargets, AToolThatDeclaresNothingIsRefused) {
  const tools::PolicyTargets nothing{};
  const auto targets = TargetsOf(nothing, {{"url", "https://evil.test/"}}, 7, UrlOf);
  ASSERT_FALSE(targets);
  EXPECT_NE(targets.error().find("declares no policy targets"), std::string::npos) << targets.error();
}

TEST(CallTargets, NavigateIsDecidedOnTheTabAndWhereItGoes) {
  const auto targets = Of("navigate", {{"url", "https://b.test/x"}});
  EXPECT_EQ(targets.urls, (std::vector<std::string>{"https://a.test/page", "https://b.test/x"}));
  EXPECT_EQ(targets.tab_url, "https://a.test/page");
  EXPECT_EQ(targets.goes_to, "https://b.test/x");
}

TEST(CallTargets, ARelativeTargetStaysOnTheTabsSite) {
  EXPECT_EQ(Of("navigate", {{"url", "/other"}}).goes_to, "https://a.test/page");
  EXPECT_EQ(Of("navigate", {{"url", "//b.test/x"}}).goes_to, "https://b.test/x");
}

TEST(CallTargets, DownloadFileIsDecidedWhereItsUrlGoes) {
  EXPECT_EQ(Of("download_file", {{"url", "https://b.test/f.zip"}}).urls,
            (std::vector<std::string>{"https://a.test/page", "https://b.test/f.zip"}));
}

TEST(CallTargets, OpenTabIsDecidedOnlyWhereItGoes) {
  const auto targets = Of("open_tab", {{"url", "https://b.test/"}});
  EXPECT_EQ(targets.urls, (std::vector<std::string>{"https://b.test/"}));
  EXPECT_EQ(targets.tab_url, "");
}

TEST(CallTargets, CloseTabIsDecidedOnTheTabItNamesElseTheFocusedOne) {
  EXPECT_EQ(Of("close_tab", {{"tabId", 9}}).urls, (std::vector<std::string>{"https://b.test/"}));
  EXPECT_EQ(Of("close_tab", Json::object()).urls, (std::vector<std::string>{"https://a.test/page"}));
}

TEST(CallTargets, APageToolWithoutAFocusedTabHasNoUrlForItsToolToRefuse) {
  EXPECT_TRUE(Of("click", Json::object(), std::nullopt).urls.empty());
}

TEST(CallTargets, ATabToolWithoutATargetIsNotDecided) { EXPECT_TRUE(Of("list_tabs", Json::object()).urls.empty()); }

}  // namespace
}  // namespace tb
