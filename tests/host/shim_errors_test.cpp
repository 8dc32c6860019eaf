// Protocol misuse through the shim gets JSON-RPC errors; a real tool called
// badly gets a tool result with isError that names the argument (SEP-1303,
// docs/protocol.md §3).
#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

using ::testing::HasSubstr;

int ErrorCode(const Json& response) { return response.value("error", Json::object()).value("code", 0); }

class ShimErrorsTest : public HostTest {};

// Neither a request nor a response, but the client waits on its id: answered -32600 on that id.
TEST_F(ShimErrorsTest, AnIdWithoutMethodResultOrErrorIsAnsweredInvalidRequest) {
  auto& shim = StartShim();
  ASSERT_TRUE(shim.rpc().SendLine(R"({"jsonrpc":"2.0","id":"lonely"})"));
  const auto response = shim.rpc().WaitResponse("lonely", fake::DeadlineIn(kWait));
  ASSERT_TRUE(response) << "no answer on id \"lonely\"";
  EXPECT_EQ(ErrorCode(*response), rpc_error::kInvalidRequest) << response->dump();
}

TEST_F(ShimErrorsTest, UnknownToolWhileConnectedIsInvalidParams) {
  StartServingExtension();
  auto& shim = ConnectedShim();
  const auto response = shim.CallTool("no_such_tool", Json::object(), kWait);
  ASSERT_TRUE(response);
  EXPECT_EQ(ErrorCode(*response), rpc_error::kInvalidParams) << response->dump();
}

TEST_F(ShimErrorsTest, UnknownToolWhileDisconnectedIsInvalidParams) {
  auto& shim = StartShim();
  const auto response = shim.CallTool("no_such_tool", Json::object(), kWait);
  ASSERT_TRUE(response);
  EXPECT_EQ(ErrorCode(*response), rpc_error::kInvalidParams) << response->dump();
}

TEST_F(ShimErrorsTest, StringArgumentGivenANumberIsAToolErrorNamingIt) {
  StartServingExtension();
  auto& shim = ConnectedShim();
  const auto response = shim.CallTool("open_tab", {{"url", 42}}, kWait);
  ASSERT_TRUE(response);
  EXPECT_TRUE(fake::IsToolError(*response)) << response->dump();
  EXPECT_THAT(fake::ToolText(*response), HasSubstr("url"));
}

TEST_F(ShimErrorsTest, IntegerArgumentGivenAStringIsAToolErrorNamingIt) {
  StartServingExtension();
  auto& shim = ConnectedShim();
  const auto response = shim.CallTool("focus_tab", {{"tabId", "1"}}, kWait);
  ASSERT_TRUE(response);
  EXPECT_TRUE(fake::IsToolError(*response)) << response->dump();
  EXPECT_THAT(fake::ToolText(*response), HasSubstr("tabId"));
}

TEST_F(ShimErrorsTest, MissingRequiredArgumentIsAToolErrorNamingIt) {
  StartServingExtension();
  auto& shim = ConnectedShim();
  const auto response = shim.CallTool("open_tab", Json::object(), kWait);
  ASSERT_TRUE(response);
  EXPECT_TRUE(fake::IsToolError(*response)) << response->dump();
  EXPECT_THAT(fake::ToolText(*response), HasSubstr("url"));
}

TEST_F(ShimErrorsTest, UnknownArgumentIsAToolErrorNamingIt) {
  StartServingExtension();
  auto& shim = ConnectedShim();
  const auto response = shim.CallTool("list_tabs", {{"verbose", true}}, kWait);
  ASSERT_TRUE(response);
  EXPECT_TRUE(fake::IsToolError(*response)) << response->dump();
  EXPECT_THAT(fake::ToolText(*response), HasSubstr("verbose"));
}

TEST_F(ShimErrorsTest, BadArgumentsNeverReachTheBrowser) {
  auto& extension = StartServingExtension();
  auto& shim = ConnectedShim();
  ASSERT_TRUE(shim.CallTool("open_tab", {{"url", 42}}, kWait));
  ASSERT_TRUE(shim.CallTool("open_tab", {{"url", "javascript:alert(1)"}}, kWait));
  for (const auto& received : extension.messages()) {
    EXPECT_FALSE(IsRequest(received.message, ext_method::kTabsCreate)) << received.message.dump();
  }
}

}  // namespace
}  // namespace tb::test
