// A call that changes the tool list answers only once the client has fetched
// tools/list again, when the client is one that re-fetches (Claude Code by
// name, or one that showed it): its model's next request then already has
// the new tools (mcp_shim/list_catch_up.h). Any other client is answered at
// once. The order of what the shim sent decides each test, not time.
#include <algorithm>

#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

class ListCatchUpTest : public HostTest {
 protected:
  // The state surface: connecting changes the list (a stable one would not).
  fake::McpDriver& Shim(std::string_view client_name) { return ShimOfClient(client_name, {"--surface", "state"}); }
  // Position of `what` among the messages the shim sent so far (-1: not there).
  static long Position(fake::McpDriver& shim, const std::string& what) {
    const auto& seen = shim.rpc().arrivals();
    const auto it = std::ranges::find(seen, what);
    return it == seen.end() ? -1 : it - seen.begin();
  }
  static std::string ResponseTo(std::int64_t id) { return "response " + std::to_string(id); }
  // Sends `name`, waits for its list_changed, then fetches tools/list; both answers.
  static std::pair<std::int64_t, std::int64_t> CallThenFetch(fake::McpDriver& shim, std::string_view name,
                                                             Json arguments) {
    shim.rpc().Drain();
    shim.rpc().TakeNotifications();  // the changes before this call's
    const std::int64_t call = shim.SendCallTool(name, std::move(arguments));
    EXPECT_TRUE(shim.rpc().WaitNotification(mcp::kToolsListChanged, fake::DeadlineIn(kWait)));
    const std::int64_t list = shim.rpc().SendRequest("tools/list");
    EXPECT_TRUE(shim.rpc().WaitResponse(list, fake::DeadlineIn(kWait)));
    EXPECT_TRUE(shim.rpc().WaitResponse(call, fake::DeadlineIn(kWait)));
    return {call, list};
  }
};

TEST_F(ListCatchUpTest, ClaudeCodeGetsConnectBrowsersAnswerAfterItsRefetch) {
  StartServingExtension();
  auto& shim = Shim("claude-code");
  const auto [call, list] = CallThenFetch(shim, "connect_browser", Json::object());
  EXPECT_LT(Position(shim, ResponseTo(list)), Position(shim, ResponseTo(call)))
      << "the list must reach the client before the answer";
}

TEST_F(ListCatchUpTest, AnOpenTabAnswerWaitsForTheRefetchToo) {
  StartServingExtension();
  auto& shim = Shim("claude-code");
  CallThenFetch(shim, "connect_browser", Json::object());
  const auto [call, list] = CallThenFetch(shim, "open_tab", {{"url", "http://127.0.0.1/a"}});
  EXPECT_LT(Position(shim, ResponseTo(list)), Position(shim, ResponseTo(call)));
}

TEST_F(ListCatchUpTest, AClientNotKnownToRefetchIsAnsweredAtOnce) {
  StartServingExtension();
  auto& shim = Shim("some-client");
  const auto [call, list] = CallThenFetch(shim, "connect_browser", Json::object());
  EXPECT_LT(Position(shim, ResponseTo(call)), Position(shim, ResponseTo(list)))
      << "nothing is held for a client that never said it re-fetches";
}

TEST_F(ListCatchUpTest, AClientThatNeverRefetchesIsAnsweredAtTheBoundThenNoLongerWaitedFor) {
  StartServingExtension();
  auto& shim = Shim("claude-code");
  // Two changes without a fetch: each answer comes anyway (after the bound).
  ASSERT_TRUE(shim.CallTool("connect_browser", Json::object(), kWait));
  ASSERT_TRUE(shim.CallTool("open_tab", {{"url", "http://127.0.0.1/a"}}, kWait));
  // From now on the answer comes first.
  shim.rpc().TakeNotifications();
  const auto [call, list] = CallThenFetch(shim, "close_tab", Json::object());
  EXPECT_LT(Position(shim, ResponseTo(call)), Position(shim, ResponseTo(list)))
      << ::testing::PrintToString(shim.rpc().arrivals());
}

TEST_F(ListCatchUpTest, AHeldAnswerOfACancelledCallIsNeverSent) {
  StartServingExtension();
  auto& shim = Shim("claude-code");
  const std::int64_t call = shim.SendCallTool("connect_browser", Json::object());
  ASSERT_TRUE(shim.rpc().WaitNotification(mcp::kToolsListChanged, fake::DeadlineIn(kWait)));
  shim.rpc().SendNotification(mcp::kCancelled, {{"requestId", call}});
  ASSERT_TRUE(shim.rpc().Request("tools/list", nullptr, fake::DeadlineIn(kWait)));
  ASSERT_TRUE(shim.rpc().Request("ping", nullptr, fake::DeadlineIn(kWait)));  // after anything the fetch released
  EXPECT_EQ(Position(shim, ResponseTo(call)), -1);
}

TEST_F(ListCatchUpTest, AListenSubscriberIsWaitedFor) {
  StartServingExtension();
  auto& shim = StartShim(false, {"--surface", "state"});
  const Json meta = {{mcp::kMetaProtocolVersion, "2026-07-28"},
                     {mcp::kMetaClientCapabilities, Json::object()},
                     {mcp::kMetaClientInfo, {{"name", "some-client"}, {"version", "1"}}}};
  shim.rpc().SendLine(Json{{"jsonrpc", "2.0"},
                           {"id", 900},
                           {"method", mcp::kListen},
                           {"params", {{"notifications", {{"toolsListChanged", true}}}, {"_meta", meta}}}}
                          .dump());
  ASSERT_TRUE(shim.rpc().WaitNotification(mcp::kSubscriptionsAcknowledged, fake::DeadlineIn(kWait)));
  const std::int64_t call = shim.rpc().SendRequest(
      "tools/call", {{"name", "connect_browser"}, {"arguments", Json::object()}, {"_meta", meta}});
  ASSERT_TRUE(shim.rpc().WaitNotification(mcp::kToolsListChanged, fake::DeadlineIn(kWait)));
  const std::int64_t list = shim.rpc().SendRequest("tools/list", {{"_meta", meta}});
  ASSERT_TRUE(shim.rpc().WaitResponse(list, fake::DeadlineIn(kWait)));
  ASSERT_TRUE(shim.rpc().WaitResponse(call, fake::DeadlineIn(kWait)));
  EXPECT_LT(Position(shim, ResponseTo(list)), Position(shim, ResponseTo(call)));
}

}  // namespace
}  // namespace tb::test
