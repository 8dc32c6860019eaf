// Bad input on the shim socket (docs/protocol.md §2): each kind gets its
// JSON-RPC error code, the connection survives what it can, and other
// sessions on the same host are served throughout.
#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

using ::testing::HasSubstr;

struct BadLine {
  std::string name;
  std::string line;
  int code;
};

void PrintTo(const BadLine& line, std::ostream* out) { *out << line.name; }

std::vector<BadLine> BadLines() {
  return {
      {"NotJson", "this is not json", rpc_error::kParseError},
      {"TruncatedJson", R"({"jsonrpc":"2.0","id":1,"method":)", rpc_error::kParseError},
      {"ObjectWithoutJsonRpc", R"({"hello":"world"})", rpc_error::kInvalidRequest},
      {"JsonArray", "[1,2,3]", rpc_error::kInvalidRequest},
      {"JsonNumber", "42", rpc_error::kInvalidRequest},
      {"WrongJsonRpcVersion", R"({"jsonrpc":"1.0","method":"ping"})", rpc_error::kInvalidRequest},
      {"ObjectId", R"({"jsonrpc":"2.0","id":{"x":1},"method":"ping"})", rpc_error::kInvalidRequest},
      {"NumericMethod", R"({"jsonrpc":"2.0","method":7})", rpc_error::kInvalidRequest},
  };
}

class BadLineTest : public HostTest, public ::testing::WithParamInterface<BadLine> {};

TEST_P(BadLineTest, GetsItsErrorCodeWithANullId) {
  StartServingExtension();
  auto& client = RawClient(0, /*hello=*/false);
  ASSERT_TRUE(client.rpc().SendLine(GetParam().line));
  const auto error = client.rpc().WaitResponse(nullptr, fake::DeadlineIn(kWait));
  ASSERT_TRUE(error) << "no error response with id null";
  EXPECT_EQ(error->value("error", Json::object()).value("code", 0), GetParam().code) << error->dump();
}

INSTANTIATE_TEST_SUITE_P(Lines, BadLineTest, ::testing::ValuesIn(BadLines()),
                         [](const ::testing::TestParamInfo<BadLine>& p) { return p.param.name; });

class SocketProtocolTest : public HostTest {};

// Neither a request nor a response, but the sender waits on its id: it is answered on that id.
TEST_F(SocketProtocolTest, AnIdWithoutMethodResultOrErrorIsAnsweredInvalidRequest) {
  StartServingExtension();
  auto& client = RawClient(0, /*hello=*/false);
  ASSERT_TRUE(client.rpc().SendLine(R"({"jsonrpc":"2.0","id":77})"));
  const auto error = client.rpc().WaitResponse(77, fake::DeadlineIn(kWait));
  ASSERT_TRUE(error) << "no answer on id 77";
  EXPECT_EQ(error->value("error", Json::object()).value("code", 0), rpc_error::kInvalidRequest) << error->dump();
}

TEST_F(SocketProtocolTest, RequestBeforeHelloIsAnInvalidRequest) {
  StartServingExtension();
  auto& client = RawClient(0, /*hello=*/false);
  const auto response = client.rpc().Request("tools/list", Json::object(), fake::DeadlineIn(kWait));
  ASSERT_TRUE(response);
  EXPECT_EQ(response->value("error", Json::object()).value("code", 0), rpc_error::kInvalidRequest) << response->dump();
}

TEST_F(SocketProtocolTest, HelloWithAnotherProtocolIsRefusedNamingBothVersions) {
  StartServingExtension();
  auto& client = RawClient(0, /*hello=*/false);
  const auto response = client.Hello(kWait, /*protocol=*/kShimProtocol + 41);
  ASSERT_TRUE(response);
  const Json error = response->value("error", Json::object());
  EXPECT_EQ(error.value("code", 0), rpc_error::kInvalidRequest) << response->dump();
  EXPECT_THAT(error.value("message", ""), HasSubstr(std::to_string(kShimProtocol)));
  EXPECT_THAT(error.value("message", ""), HasSubstr(std::to_string(kShimProtocol + 41)));
}

TEST_F(SocketProtocolTest, ConnectionStillWorksAfterBadLines) {
  StartServingExtension();
  auto& client = RawClient(0, /*hello=*/false);
  for (const auto& bad : BadLines()) ASSERT_TRUE(client.rpc().SendLine(bad.line));
  ASSERT_TRUE(client.Hello(kWait, kShimProtocol + 1));  // refused, but answered
  const auto hello = client.Hello(kWait);
  ASSERT_TRUE(hello);
  EXPECT_TRUE(hello->contains("result")) << hello->dump();
  const auto tools = client.rpc().Request("tools/list", Json::object(), fake::DeadlineIn(kWait));
  ASSERT_TRUE(tools);
  EXPECT_FALSE(ToolNames(*tools).empty()) << tools->dump();
}

TEST_F(SocketProtocolTest, WellBehavedSessionIsServedWhileAnotherMisbehaves) {
  StartServingExtension();
  auto& good = RawClient(0);
  auto& bad = RawClient(0, /*hello=*/false);
  for (int round = 0; round < 3; ++round) {
    for (const auto& line : BadLines()) ASSERT_TRUE(bad.rpc().SendLine(line.line));
    const auto tools = good.rpc().Request("tools/list", Json::object(), fake::DeadlineIn(kWait));
    ASSERT_TRUE(tools) << "round " << round;
    EXPECT_THAT(ToolNames(*tools), ::testing::Contains("list_tabs"));
  }
}

TEST_F(SocketProtocolTest, LineOverTheLimitDisconnectsOnlyThatPeer) {
  StartServingExtension();
  auto& good = RawClient(0);
  auto& flooder = RawClient(0);
  const std::string flood(kMaxLineBytes + 64 * 1024, 'x');  // no newline anywhere
  flooder.rpc().SendBytes(flood);                           // may stop part-way once the host hangs up
  EXPECT_TRUE(flooder.rpc().WaitEof(fake::DeadlineIn(kWait))) << "the host kept a peer past the line limit";

  const auto tools = good.rpc().Request("tools/list", Json::object(), fake::DeadlineIn(kWait));
  ASSERT_TRUE(tools);
  EXPECT_FALSE(ToolNames(*tools).empty());
}

TEST_F(SocketProtocolTest, UnknownMethodAfterHelloIsMethodNotFound) {
  StartServingExtension();
  auto& client = RawClient(0);
  const auto response = client.rpc().Request("resources/list", Json::object(), fake::DeadlineIn(kWait));
  ASSERT_TRUE(response);
  EXPECT_EQ(response->value("error", Json::object()).value("code", 0), rpc_error::kMethodNotFound) << response->dump();
}

}  // namespace
}  // namespace tb::test
