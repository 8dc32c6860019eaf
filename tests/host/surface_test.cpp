// The surface a session gets (tools::Surface, docs/clients.md): a client that
// defers tools (Claude Code) gets tabbridge's tools listed and pinned in
// every state, so connecting changes nothing and open_tab connects by
// itself; any other client gets the state table; --surface decides for both.
#include <algorithm>

#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

class SurfaceTest : public HostTest {
 protected:
  fake::McpDriver& Shim(std::string_view client_name, std::vector<std::string> args = {}) {
    return ShimOfClient(client_name, std::move(args));
  }
  static Json Tools(fake::McpDriver& shim) {
    const auto response = shim.rpc().Request("tools/list", nullptr, fake::DeadlineIn(kWait));
    return response ? (*response)["result"]["tools"] : Json();
  }
  static const Json* Named(const Json& tools, std::string_view name) {
    for (const auto& tool : tools) {
      if (tool["name"] == name) return &tool;
    }
    return nullptr;
  }
};

TEST_F(SurfaceTest, ClaudeCodeSeesEveryToolBeforeAnyBrowserTheCommonOnesPinned) {
  auto& shim = Shim("claude-code");
  const Json tools = Tools(shim);
  for (const std::string_view name :
       {"connect_browser", "open_tab", "list_tabs", "focus_tab", "snapshot", "click", "call_webmcp_tool"}) {
    ASSERT_NE(Named(tools, name), nullptr) << name << " is not listed: " << tools.dump();
  }
  for (const std::string_view name : {"open_tab", "snapshot", "click", "call_webmcp_tool"}) {
    EXPECT_EQ((*Named(tools, name))["_meta"][mcp::kMetaAlwaysLoad], true) << name;
  }
  EXPECT_FALSE((*Named(tools, "console_logs"))["_meta"].contains(mcp::kMetaAlwaysLoad))
      << "a rare tool is searched for";
}

TEST_F(SurfaceTest, StablePinsEveryTool) {
  const Json tools = Tools(Shim("some-client", {"--surface", "stable"}));
  for (const Json& tool : tools) EXPECT_EQ(tool["_meta"][mcp::kMetaAlwaysLoad], true) << tool["name"];
  EXPECT_EQ(Named(tools, "call_webmcp_tool"), nullptr) << "stable lists the page's tools themselves";
}

TEST_F(SurfaceTest, AnotherClientSeesConnectBrowserAloneUnpinned) {
  auto& shim = Shim("some-client");
  const Json tools = Tools(shim);
  ASSERT_EQ(tools.size(), 1u) << tools.dump();
  EXPECT_EQ(tools[0]["name"], "connect_browser");
  EXPECT_FALSE(tools[0].contains("_meta") && tools[0]["_meta"].contains(mcp::kMetaAlwaysLoad));
  EXPECT_TRUE(tools[0]["_meta"].contains(mcp::kMetaSearchHint)) << "every tool has a search hint";
}

TEST_F(SurfaceTest, TheFlagDecidesForAnyClient) {
  EXPECT_EQ(Tools(Shim("claude-code", {"--surface", "state"})).size(), 1u);
  EXPECT_NE(Named(Tools(Shim("some-client", {"--surface=stable"})), "snapshot"), nullptr);
}

TEST_F(SurfaceTest, APageToolCalledBeforeAnyBrowserSaysToConnect) {
  auto& shim = Shim("claude-code");
  const auto response = shim.CallTool("snapshot", Json::object(), kWait);
  ASSERT_TRUE(response);
  EXPECT_TRUE(fake::IsToolError(*response));
  EXPECT_THAT(fake::ToolText(*response), HasSubstr("connect_browser"));
}

TEST_F(SurfaceTest, ConnectingChangesNothingOnAStableSurface) {
  StartServingExtension();
  auto& shim = Shim("claude-code");
  const Json before = Tools(shim);
  const auto connected = shim.CallTool("connect_browser", Json::object(), kWait);
  ASSERT_TRUE(connected && !fake::IsToolError(*connected)) << (connected ? connected->dump() : "");
  EXPECT_EQ(Tools(shim), before) << "the same list connected or not";
  ASSERT_TRUE(shim.rpc().Request("ping", nullptr, fake::DeadlineIn(kWait)));
  shim.rpc().Drain();
  for (const Json& n : shim.rpc().TakeNotifications()) EXPECT_NE(n["method"], mcp::kToolsListChanged);
}

TEST_F(SurfaceTest, OpenTabBeforeAnyBrowserConnectsFirst) {
  StartServingExtension();
  auto& shim = Shim("claude-code");
  const auto opened = shim.CallTool("open_tab", {{"url", "http://127.0.0.1/a"}}, kWait);
  ASSERT_TRUE(opened);
  ASSERT_FALSE(fake::IsToolError(*opened)) << opened->dump();
  EXPECT_THAT(opened->dump(), HasSubstr("connected first to FakeChromium"));
  const auto tabs = shim.CallTool("list_tabs", Json::object(), kWait);
  ASSERT_TRUE(tabs && !fake::IsToolError(*tabs)) << (tabs ? tabs->dump() : "");
}

TEST_F(SurfaceTest, OpenTabOnTheStateSurfaceDoesNotConnect) {
  StartServingExtension();
  auto& shim = Shim("some-client");
  const auto opened = shim.CallTool("open_tab", {{"url", "http://127.0.0.1/a"}}, kWait);
  ASSERT_TRUE(opened);
  EXPECT_TRUE(fake::IsToolError(*opened));
  EXPECT_THAT(fake::ToolText(*opened), HasSubstr("call connect_browser first"));
}

TEST_F(SurfaceTest, HintsAreHonest) {
  auto& shim = Shim("claude-code");
  const Json tools = Tools(shim);
  EXPECT_EQ((*Named(tools, "snapshot"))["annotations"]["readOnlyHint"], true);
  EXPECT_EQ((*Named(tools, "open_tab"))["annotations"]["destructiveHint"], false);
  // click may submit or delete: MCP's default (destructive) stands.
  EXPECT_FALSE((*Named(tools, "click")).contains("annotations"));
  EXPECT_THAT(tools, Not(Contains(::testing::Truly([](const Json& t) {
                return t.contains("annotations") && t["annotations"].value("readOnlyHint", false) &&
                       t["name"] == "close_tab";
              }))));
}

}  // namespace
}  // namespace tb::test
