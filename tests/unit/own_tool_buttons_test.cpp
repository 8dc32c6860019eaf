// Button tools (issue 33, seed 000's star_repo): a page's prominent button
// is offered as press_{its label}, named by tabbridge behind a mark the page
// cannot drop, described as a button with the page's words marked, and at
// most kMaxListedButtonTools of them a page within the page's budget.
#include <gtest/gtest.h>

#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "host/own_tool_names.h"
#include "host/own_tools.h"

namespace tb::own_tools {
namespace {

std::set<std::string> Reserved() {
  const auto& reserved = tools::ReservedNames();
  return {reserved.begin(), reserved.end()};
}

Json Button(std::string name, std::string label = "Star") {
  return {{"name", std::move(name)},
          {"source", "buttons"},
          {"description", "Press the button \"" + label + "\" (a trusted click)"},
          {"inputSchema", {{"type", "object"}, {"properties", Json::object()}}},
          {"readOnly", false}};
}

Json Form(std::string name) {
  return {{"name", std::move(name)},
          {"source", "form"},
          {"description", "Fill and submit"},
          {"inputSchema", {{"type", "object"}, {"properties", {{"q", {{"type", "string"}}}}}}}};
}

Json Event(Json tools) {
  return {{"tabId", 5}, {"documentId", "D1"},    {"url", "http://127.0.0.1:8000/repo"},
          {"api", ""},  {"total", tools.size()}, {"tools", std::move(tools)}};
}

TEST(ButtonToolName, KeepsTheExtensionsSuggestionBehindTheMark) {
  const auto taken = Reserved();
  EXPECT_EQ(ButtonName("press_star", taken), "press_star");
  EXPECT_EQ(ButtonName("press_fork", taken), "press_fork");
  EXPECT_EQ(ButtonName("Press__Watch_", taken), "press_watch");
  EXPECT_EQ(ButtonName("", taken), "press_1");
}

TEST(ButtonToolName, APageCannotNameAButtonLikeATool) {
  const auto taken = Reserved();
  for (const auto& core : tools::ReservedNames()) {
    const std::string got = ButtonName(core, taken);
    EXPECT_TRUE(got.starts_with("press_")) << core << " -> " << got;
    EXPECT_FALSE(taken.contains(got)) << core << " -> " << got;
  }
  // press_key is ours: a button labelled "Key" does not take its name.
  const std::string key = ButtonName("press_key", taken);
  EXPECT_NE(key, "press_key");
  EXPECT_TRUE(key.starts_with("press_key_")) << key;
  EXPECT_EQ(ButtonName("take_screenshot", taken), "press_take_screenshot");
}

TEST(ButtonToolName, TwoButtonsOfOneNameAreNumberedWithinTheLimit) {
  std::set<std::string> taken = {"press_star"};
  EXPECT_EQ(ButtonName("press_star", taken), "press_star_2");
  EXPECT_LE(ButtonName(std::string(100, 'a'), taken).size(), kMaxToolNameChars);
}

TEST(OfferButtonTools, AreParsedNamedAndDescribedAsButtons) {
  auto parsed = ParseOwnToolsEvent(Event({Button("press_star")}));
  ASSERT_TRUE(parsed) << parsed.error();
  EXPECT_TRUE(parsed->set.tools[0].is_button());
  const auto offered = Offer(parsed->set, 1, Reserved(), true);
  ASSERT_EQ(offered.size(), 1u);
  EXPECT_EQ(offered[0].mcp_name, "press_star");
  EXPECT_EQ(offered[0].mcp_tool["description"],
            "[Button • localhost:8000 • Page 1] Press the button \"Star\" (a trusted click) (untrusted page text)");
  EXPECT_FALSE(offered[0].mcp_tool.contains("annotations"));
  EXPECT_TRUE(offered[0].listed);
}

TEST(OfferButtonTools, APageListsAtMostItsButtonBudgetAndTheFormsAfterThemStillFit) {
  Json tools = Json::array();
  for (int i = 0; i < 20; ++i) tools.push_back(Button("press_b" + std::to_string(i), "B" + std::to_string(i)));
  tools.push_back(Form("search"));
  auto parsed = ParseOwnToolsEvent(Event(tools));
  ASSERT_TRUE(parsed) << parsed.error();
  const auto offered = Offer(parsed->set, 0, Reserved(), true);
  ASSERT_EQ(offered.size(), 21u);
  std::size_t buttons = 0;
  for (const auto& o : offered) {
    EXPECT_FALSE(o.mcp_name.empty());
    if (o.listed && o.tool->is_button()) ++buttons;
  }
  EXPECT_EQ(buttons, kMaxListedButtonTools);
  EXPECT_TRUE(offered[0].listed);
  EXPECT_FALSE(offered[kMaxListedButtonTools].listed);  // named (call_webmcp_tool reaches it), not listed
  EXPECT_EQ(offered.back().mcp_name, "form_search");
  EXPECT_TRUE(offered.back().listed);
}

TEST(OfferButtonTools, APagesButtonsStayWithinTheOwnToolsBytes) {
  Json tools = Json::array();
  for (int i = 0; i < 6; ++i) tools.push_back(Button("press_b" + std::to_string(i), std::string(300, 'x')));
  auto parsed = ParseOwnToolsEvent(Event(tools));
  ASSERT_TRUE(parsed) << parsed.error();
  std::size_t bytes = 0;
  for (const auto& o : Offer(parsed->set, 0, Reserved(), true)) {
    if (o.listed) bytes += rpc::Dump(o.mcp_tool).size();
  }
  EXPECT_LE(bytes, kMaxListedOwnToolBytes);
}

}  // namespace
}  // namespace tb::own_tools
