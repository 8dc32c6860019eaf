// Well-formed JSON-RPC with fields of the wrong type, at each boundary: the
// MCP client → shim (stdin), shim → host (socket), extension → host (native
// port). Each line gets its error (or, for a malformed answer, nothing), the
// process lives on, and every other session keeps being served.
#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

// What a line must get back.
enum class Expect { kNoReply, kResult, kToolError, kInvalidRequest, kInvalidParams };

struct TypedLine {
  std::string name;
  std::string line;  // its id, when it has one, is 9001
  Expect expect;
};

void PrintTo(const TypedLine& line, std::ostream* out) { *out << line.name; }

const Json kBadLineId = 9001;

int ErrorCode(const Json& response) {
  const auto error = response.find("error");
  return error != response.end() && error->is_object() ? error->value("code", 0) : 0;
}

std::string Call(const std::string& params) {
  return R"({"jsonrpc":"2.0","id":9001,"method":"tools/call","params":)" + params + "}";
}

// Checks the answer to the line with id 9001, then that the channel still
// answers a ping (a reply to the bad line would have come before it).
void ExpectAnswered(fake::RpcChannel& rpc, Expect expect) {
  const auto pong = rpc.Request("ping", Json::object(), fake::DeadlineIn(kWait));
  ASSERT_TRUE(pong) << "no answer to a ping after the line: the peer died or hangs";
  EXPECT_TRUE(pong->contains("result")) << pong->dump();
  const auto answer = rpc.WaitResponse(kBadLineId, fake::DeadlineIn(std::chrono::milliseconds(0)));
  if (expect == Expect::kNoReply) {
    EXPECT_FALSE(answer) << "a malformed answer was answered: " << answer->dump();
    return;
  }
  ASSERT_TRUE(answer) << "no answer to the line before the ping's";
  const int code = ErrorCode(*answer);
  switch (expect) {
    case Expect::kInvalidRequest:
      EXPECT_EQ(code, rpc_error::kInvalidRequest) << answer->dump();
      break;
    case Expect::kInvalidParams:
      EXPECT_EQ(code, rpc_error::kInvalidParams) << answer->dump();
      break;
    case Expect::kToolError:
      EXPECT_TRUE(fake::IsToolError(*answer)) << answer->dump();
      break;
    case Expect::kResult:
      EXPECT_TRUE(answer->contains("result")) << answer->dump();
      break;
    case Expect::kNoReply:
      break;
  }
}

// --- MCP client → shim -------------------------------------------------------------

std::vector<TypedLine> ShimLines() {
  return {
      {"InitializeProtocolVersionIsANumber",
       R"({"jsonrpc":"2.0","id":9001,"method":"initialize","params":{"protocolVersion":1,"capabilities":{},"clientInfo":{"name":"x","version":"1"}}})",
       Expect::kInvalidParams},
      {"InitializeClientInfoIsAString",
       R"({"jsonrpc":"2.0","id":9001,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":"x"}})",
       Expect::kResult},
      {"InitializeParamsIsAnArray", R"({"jsonrpc":"2.0","id":9001,"method":"initialize","params":[1]})",
       Expect::kResult},
      {"ErrorResponseWithWrongTypes", R"({"jsonrpc":"2.0","id":9001,"error":{"code":"x","message":1}})",
       Expect::kNoReply},
      {"ErrorResponseWithAFloatCode", R"({"jsonrpc":"2.0","id":9001,"error":{"code":1.5,"message":"m"}})",
       Expect::kNoReply},
      {"ErrorResponseThatIsAString", R"({"jsonrpc":"2.0","id":9001,"error":"boom"})", Expect::kNoReply},
      {"ResultResponseToNothing", R"({"jsonrpc":"2.0","id":9001,"result":5})", Expect::kNoReply},
      {"IdIsAFloat", R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})", Expect::kNoReply},  // answered with id null
      {"ToolsCallNameIsANumber", Call(R"({"name":5})"), Expect::kInvalidParams},
      {"ToolsCallNameIsNull", Call(R"({"name":null})"), Expect::kInvalidParams},
      {"ToolsCallParamsIsAnArray", Call(R"(["connect_browser"])"), Expect::kInvalidParams},
      {"ToolsCallArgumentsIsAString", Call(R"({"name":"connect_browser","arguments":"x"})"), Expect::kToolError},
      {"ToolsCallArgumentsIsAnArray", Call(R"({"name":"connect_browser","arguments":[1]})"), Expect::kToolError},
      {"ConnectBrowserLaunchIsAString", Call(R"({"name":"connect_browser","arguments":{"launch":"yes"}})"),
       Expect::kToolError},
      {"ConnectBrowserBrowserIsANumber", Call(R"({"name":"connect_browser","arguments":{"browser":5}})"),
       Expect::kToolError},
      {"ProgressTokenIsAnObject", Call(R"({"name":"list_tabs","_meta":{"progressToken":{"a":1}}})"),
       Expect::kToolError},
      {"MetaIsAString", Call(R"({"name":"list_tabs","_meta":"x"})"),
       Expect::kInvalidParams},  // the envelope (mcp_server.cpp)
      {"SetLevelLevelIsANumber", R"({"jsonrpc":"2.0","id":9001,"method":"logging/setLevel","params":{"level":3}})",
       Expect::kInvalidParams},
      {"CancelledRequestIdIsAnObject",
       R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":1},"reason":5}})",
       Expect::kNoReply},
      {"CancelledParamsIsAnArray", R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]})",
       Expect::kNoReply},
  };
}

class ShimTypedFieldTest : public HostTest, public ::testing::WithParamInterface<TypedLine> {};

TEST_P(ShimTypedFieldTest, GetsItsAnswerAndTheShimLivesOn) {
  auto& shim = StartShim();
  ASSERT_TRUE(shim.rpc().SendLine(GetParam().line));
  ExpectAnswered(shim.rpc(), GetParam().expect);
  EXPECT_TRUE(shim.ListToolNames(kWait)) << "tools/list stopped working";
}

INSTANTIATE_TEST_SUITE_P(Lines, ShimTypedFieldTest, ::testing::ValuesIn(ShimLines()),
                         [](const ::testing::TestParamInfo<TypedLine>& p) { return p.param.name; });

// The same lines on a connected shim reach the host too.
TEST_P(ShimTypedFieldTest, ConnectedShimAndItsHostLiveOn) {
  StartServingExtension();
  auto& shim = ConnectedShim();
  auto& other = ConnectedShim();
  ASSERT_TRUE(shim.rpc().SendLine(GetParam().line));
  const auto pong = shim.rpc().Request("ping", Json::object(), fake::DeadlineIn(kWait));
  ASSERT_TRUE(pong) << "the shim died or hangs";
  const auto tools = other.ListToolNames(kWait);
  ASSERT_TRUE(tools) << "another session stopped being served";
  EXPECT_THAT(*tools, ::testing::Contains("list_tabs"));
}

// --- shim → host (the socket) --------------------------------------------------------

std::vector<TypedLine> SocketLines() {
  return {
      {"ErrorResponseWithWrongTypes", R"({"jsonrpc":"2.0","id":9001,"error":{"code":"x","message":1}})",
       Expect::kNoReply},
      {"ResultResponseToNothing", R"({"jsonrpc":"2.0","id":9001,"result":{}})", Expect::kNoReply},
      {"HelloAgainWithAStringProtocol",
       R"({"jsonrpc":"2.0","id":9001,"method":"tabbridge/hello","params":{"protocol":"1"}})", Expect::kInvalidParams},
      {"ToolsCallNameIsANumber", Call(R"({"name":5})"), Expect::kInvalidParams},
      {"ToolsCallParamsIsAnArray", Call(R"([1])"), Expect::kInvalidParams},
      {"ToolsCallArgumentsIsAString", Call(R"({"name":"list_tabs","arguments":"x"})"), Expect::kToolError},
      {"FocusTabIdIsAString", Call(R"({"name":"focus_tab","arguments":{"tabId":"1"}})"), Expect::kToolError},
      {"FocusTabIdIsHuge", Call(R"({"name":"focus_tab","arguments":{"tabId":1e300}})"), Expect::kToolError},
      {"FocusTabIdIsPastInt64", Call(R"({"name":"focus_tab","arguments":{"tabId":18446744073709551615}})"),
       Expect::kToolError},
      {"FocusTabIdIsAFraction", Call(R"({"name":"focus_tab","arguments":{"tabId":1.5}})"), Expect::kToolError},
      {"OpenTabUrlIsANumber", Call(R"({"name":"open_tab","arguments":{"url":5}})"), Expect::kToolError},
      {"OpenTabFocusIsAString", Call(R"({"name":"open_tab","arguments":{"url":"http://127.0.0.1/","focus":"no"}})"),
       Expect::kToolError},
      {"CloseTabIdIsAnObject", Call(R"({"name":"close_tab","arguments":{"tabId":{}}})"), Expect::kToolError},
      {"ClickRefIsANumber", Call(R"({"name":"click","arguments":{"ref":5}})"), Expect::kToolError},
      {"NavigateTimeoutIsAString",
       Call(R"({"name":"navigate","arguments":{"url":"http://127.0.0.1/","timeoutMs":"5"}})"), Expect::kToolError},
      {"CallWebMcpToolNameIsANumber", Call(R"({"name":"call_webmcp_tool","arguments":{"name":5}})"),
       Expect::kToolError},
      {"ListWebMcpToolsNameIsAnArray", Call(R"({"name":"list_webmcp_tools","arguments":{"name":[]}})"),
       Expect::kToolError},
      {"ProgressTokenIsAnArray", Call(R"({"name":"list_tabs","_meta":{"progressToken":[1]}})"), Expect::kResult},
      {"UnknownPageShapedTool", Call(R"({"name":"webmcp_x_page0_y","arguments":{"a":1}})"), Expect::kToolError},
      {"CancelledRequestIdIsAnArray",
       R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[]}})", Expect::kNoReply},
  };
}

class SocketTypedFieldTest : public HostTest, public ::testing::WithParamInterface<TypedLine> {};

TEST_P(SocketTypedFieldTest, GetsItsAnswerAndEverySessionLivesOn) {
  auto& extension = StartServingExtension();
  auto& client = RawClient();
  auto& other = RawClient();
  ASSERT_TRUE(client.rpc().SendLine(GetParam().line));
  ExpectAnswered(client.rpc(), GetParam().expect);
  const auto list = other.rpc().Request("tools/list", Json::object(), fake::DeadlineIn(kWait));
  ASSERT_TRUE(list) << "another session stopped being served";
  EXPECT_FALSE(ToolNames(*list).empty()) << list->dump();
  EXPECT_FALSE(extension.host_exit_status()) << "the host exited";
}

INSTANTIATE_TEST_SUITE_P(Lines, SocketTypedFieldTest, ::testing::ValuesIn(SocketLines()),
                         [](const ::testing::TestParamInfo<TypedLine>& p) { return p.param.name; });

class HelloTypedFieldTest : public HostTest, public ::testing::WithParamInterface<TypedLine> {};

TEST_P(HelloTypedFieldTest, IsAnsweredAndTheHostServesOthers) {
  StartServingExtension();
  auto& client = RawClient(0, /*hello=*/false);
  auto& other = RawClient();
  ASSERT_TRUE(client.rpc().SendLine(GetParam().line));
  const auto answer = client.rpc().WaitResponse(kBadLineId, fake::DeadlineIn(kWait));
  ASSERT_TRUE(answer) << "hello went unanswered";
  if (GetParam().expect == Expect::kResult) {
    EXPECT_TRUE(answer->contains("result")) << answer->dump();
  } else {
    EXPECT_EQ(ErrorCode(*answer), rpc_error::kInvalidParams) << answer->dump();
  }
  EXPECT_TRUE(other.rpc().Request("tools/list", Json::object(), fake::DeadlineIn(kWait)));
}

std::string Hello(const std::string& params) {
  return R"({"jsonrpc":"2.0","id":9001,"method":"tabbridge/hello","params":)" + params + "}";
}

INSTANTIATE_TEST_SUITE_P(
    Hellos, HelloTypedFieldTest,
    ::testing::Values(TypedLine{"ProtocolIsAString", Hello(R"({"protocol":"1"})"), Expect::kInvalidParams},
                      TypedLine{"ProtocolIsHuge", Hello(R"({"protocol":1e300})"), Expect::kInvalidParams},
                      TypedLine{"ProtocolIsMissing", Hello(R"({"client":{}})"), Expect::kInvalidParams},
                      TypedLine{"ParamsIsAnArray", Hello(R"([1])"), Expect::kInvalidParams},
                      TypedLine{"CapsIsAString", Hello(R"({"protocol":2,"caps":"eval"})"), Expect::kResult},
                      TypedLine{"CapsHoldsNumbers", Hello(R"({"protocol":2,"caps":[1,null,"eval"]})"), Expect::kResult},
                      TypedLine{"OwnToolsIsAString", Hello(R"({"protocol":2,"ownTools":"no"})"), Expect::kResult},
                      TypedLine{"ClientIsANumber", Hello(R"({"protocol":2,"client":5})"), Expect::kResult}),
    [](const ::testing::TestParamInfo<TypedLine>& p) { return p.param.name; });

// --- extension → host (the native port) ------------------------------------------------

struct TypedEvent {
  std::string name;
  std::string method;
  std::string params;  // JSON text
};

void PrintTo(const TypedEvent& event, std::ostream* out) { *out << event.name; }

class ExtensionTypedFieldTest : public HostTest, public ::testing::WithParamInterface<TypedEvent> {};

TEST_P(ExtensionTypedFieldTest, IsIgnoredAndTheHostServesOn) {
  auto& extension = StartServingExtension();
  auto& client = RawClient();
  const std::string frame =
      R"({"jsonrpc":"2.0","method":")" + GetParam().method + R"(","params":)" + GetParam().params + "}";
  ASSERT_TRUE(extension.SendFrame(frame));
  // A call that goes through the extension, after the event (the port is ordered).
  const auto tabs = client.rpc().Request("tools/call", {{"name", "list_tabs"}, {"arguments", Json::object()}},
                                         fake::DeadlineIn(kWait));
  ASSERT_TRUE(tabs) << "the host died or hangs";
  EXPECT_TRUE(tabs->contains("result")) << tabs->dump();
  EXPECT_FALSE(extension.host_exit_status()) << "the host exited";
}

INSTANTIATE_TEST_SUITE_P(
    Events, ExtensionTypedFieldTest,
    ::testing::Values(
        TypedEvent{"TabCreatedTabIsAString", "tab.created", R"({"tab":"x"})"},
        TypedEvent{"TabCreatedIdIsAString", "tab.created", R"({"tab":{"id":"5","url":"http://127.0.0.1/"}})"},
        TypedEvent{"TabCreatedIdIsHuge", "tab.created", R"({"tab":{"id":1e300,"url":"http://127.0.0.1/"}})"},
        TypedEvent{"TabUpdatedFieldsOfEveryWrongType", "tab.updated",
                   R"({"tab":{"id":1,"url":["x"],"title":5,"status":{},"windowId":"w","active":"yes"}})"},
        TypedEvent{"TabRemovedIdIsAString", "tab.removed", R"({"tabId":"1"})"},
        TypedEvent{"TabRemovedParamsIsAnArray", "tab.removed", R"([1])"},
        TypedEvent{"OwnToolsToolsIsAString", "owntools.changed", R"({"tabId":1,"tools":"x"})"},
        TypedEvent{"OwnToolsNameIsANumber", "owntools.changed", R"({"tabId":1,"documentId":"d","tools":[{"name":5}]})"},
        TypedEvent{
            "OwnToolsFieldsOfEveryWrongType", "owntools.changed",
            R"({"tabId":1,"documentId":5,"url":[],"api":{},"native":"yes","total":-1,"tools":[{"name":"a","source":"native","description":7,"inputSchema":"x","readOnly":"yes","schemaDropped":1}]})"},
        TypedEvent{
            "OwnToolsSchemaOfWrongTypes", "owntools.changed",
            R"({"tabId":1,"documentId":"d","tools":[{"name":"a","source":"native","inputSchema":{"type":"object","properties":{"q":5,"r":{"type":7,"enum":"x","minimum":"0"}},"required":"q"}}]})"},
        TypedEvent{"ConsoleEntryFieldsOfWrongTypes", "console.entry", R"({"tabId":1,"level":5,"text":{},"url":[]})"},
        TypedEvent{"PageProgressFieldsOfWrongTypes", "page.progress", R"({"id":"x","progress":"half","total":"all"})"},
        TypedEvent{"HelloAgainWithFieldsOfWrongTypes", "hello",
                   R"({"protocol":2,"browser":"x","extension":5,"tabs":"none"})"},
        TypedEvent{"UnknownEvent", "tab.exploded", R"({"tabId":{}})"}),
    [](const ::testing::TestParamInfo<TypedEvent>& p) { return p.param.name; });

// A second hello restates the session's capabilities instead of adding to them.
TEST_F(SocketTypedFieldTest, ASecondHelloReplacesTheCapabilities) {
  StartServingExtension();
  auto& client = RawClient(0, /*hello=*/false);
  auto hello = [&](Json caps) {
    const auto answer = client.rpc().Request(
        "tabbridge/hello", {{"protocol", kShimProtocol}, {"caps", std::move(caps)}}, fake::DeadlineIn(kWait));
    ASSERT_TRUE(answer && answer->contains("result"));
  };
  hello({"eval"});
  hello(Json::array());
  ASSERT_TRUE(client.rpc().Request("tools/call", {{"name", "focus_tab"}, {"arguments", {{"tabId", 1}}}},
                                   fake::DeadlineIn(kWait)));
  const auto list = client.rpc().Request("tools/list", Json::object(), fake::DeadlineIn(kWait));
  ASSERT_TRUE(list);
  EXPECT_THAT(ToolNames(*list), ::testing::Not(::testing::Contains("evaluate")));
}

class ExtensionLinkTest : public HostTest {};

// An answer with fields of the wrong types is dropped with a log line and the
// link stays up (issue 29: a message must not cost the browser its link):
// malformed_frames_test.cpp, UnreadableMessageTest/AnswerWithWrongTypes.

TEST_F(ExtensionLinkTest, HelloWithAStringProtocolEndsTheHostWithAnError) {
  fake::FakeExtensionOptions options;
  options.send_hello = false;
  auto& extension = StartExtension(options);
  extension.SendFrame(R"({"jsonrpc":"2.0","method":"hello","params":{"protocol":"1","tabs":[]}})");
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status);
  EXPECT_TRUE(status->exited) << status->Describe();
  EXPECT_EQ(status->code, 1);
}

}  // namespace
}  // namespace tb::test
