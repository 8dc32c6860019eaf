#include "common/jsonrpc.h"

#include <string>

#include <gtest/gtest.h>

#include "common/argument_order.h"
#include "common/protocol.h"

namespace tb {
namespace {

TEST(JsonRpcParse, ClassifiesARequest) {
  auto msg = rpc::Parse(R"({"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}})");
  ASSERT_TRUE(msg);
  EXPECT_EQ(msg->kind, rpc::Kind::kRequest);
  EXPECT_EQ(msg->id, 7);
  EXPECT_EQ(msg->method, "tools/list");
}

TEST(JsonRpcParse, ClassifiesANotification) {
  auto msg = rpc::Parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  ASSERT_TRUE(msg);
  EXPECT_EQ(msg->kind, rpc::Kind::kNotification);
}

TEST(JsonRpcParse, ClassifiesResultsAndErrors) {
  auto ok = rpc::Parse(R"({"jsonrpc":"2.0","id":"a","result":{"x":1}})");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->kind, rpc::Kind::kResponse);
  EXPECT_FALSE(ok->is_error);
  EXPECT_EQ(ok->result["x"], 1);
  auto err = rpc::Parse(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no tab"}})");
  ASSERT_TRUE(err);
  EXPECT_TRUE(err->is_error);
  EXPECT_EQ(err->error.code, -32001);
  EXPECT_EQ(err->error.message, "no tab");
}

TEST(JsonRpcParse, InvalidJsonIsAParseError) {
  auto msg = rpc::Parse("{not json");
  ASSERT_FALSE(msg);
  EXPECT_EQ(msg.error().error.code, rpc_error::kParseError);
  EXPECT_TRUE(msg.error().id.is_null());
}

TEST(JsonRpcParse, ANonObjectIsAnInvalidRequest) {
  auto msg = rpc::Parse("[1,2,3]");
  ASSERT_FALSE(msg);
  EXPECT_EQ(msg.error().error.code, rpc_error::kInvalidRequest);
}

TEST(JsonRpcParse, AMissingVersionIsAnInvalidRequestThatKeepsTheId) {
  auto msg = rpc::Parse(R"({"id":3,"method":"ping"})");
  ASSERT_FALSE(msg);
  EXPECT_EQ(msg.error().error.code, rpc_error::kInvalidRequest);
  EXPECT_EQ(msg.error().id, 3);
}

TEST(JsonRpcParse, AnObjectIdIsAnInvalidRequest) {
  auto msg = rpc::Parse(R"({"jsonrpc":"2.0","id":{},"method":"ping"})");
  ASSERT_FALSE(msg);
  EXPECT_EQ(msg.error().error.code, rpc_error::kInvalidRequest);
}

TEST(JsonRpcParse, ANonStringMethodIsAnInvalidRequest) {
  auto msg = rpc::Parse(R"({"jsonrpc":"2.0","id":1,"method":42})");
  ASSERT_FALSE(msg);
  EXPECT_EQ(msg.error().error.code, rpc_error::kInvalidRequest);
}

TEST(JsonRpcParse, ScalarParamsAreAnInvalidRequest) {
  auto msg = rpc::Parse(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":5})");
  ASSERT_FALSE(msg);
  EXPECT_EQ(msg.error().error.code, rpc_error::kInvalidRequest);
}

TEST(JsonRpcParse, AnIdWithoutMethodResultOrErrorIsAnInvalidRequestThatIsAnswered) {
  auto msg = rpc::Parse(R"({"jsonrpc":"2.0","id":1})");
  ASSERT_FALSE(msg);
  EXPECT_EQ(msg.error().error.code, rpc_error::kInvalidRequest);
  EXPECT_EQ(msg.error().id, 1);
  EXPECT_FALSE(msg.error().response) << "the sender waits on id 1: it gets an answer";
}

TEST(JsonRpcParse, AMalformedResponseIsNotAnswered) {
  auto msg = rpc::Parse(R"({"jsonrpc":"2.0","id":1,"error":"boom"})");
  ASSERT_FALSE(msg);
  EXPECT_TRUE(msg.error().response);
}

TEST(JsonRpcParse, RefusesDeepNestingBeforeParsing) {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  auto msg = rpc::Parse(deep);
  ASSERT_FALSE(msg);
  EXPECT_EQ(msg.error().error.code, rpc_error::kParseError);
}

TEST(JsonRpcParse, BracketsInsideStringsDoNotCountAsNesting) {
  const std::string text = R"({"jsonrpc":"2.0","method":"m","params":{"s":")" + std::string(1000, '[') + R"("}})";
  EXPECT_TRUE(rpc::Parse(text));
}

TEST(JsonRpcDump, ReplacesInvalidUtf8InsteadOfThrowing) {
  const Json message = rpc::MakeNotification("m", {{"text", std::string("bad \xff byte")}});
  std::string dumped;
  EXPECT_NO_THROW(dumped = rpc::Dump(message));
  EXPECT_NE(dumped.find("bad"), std::string::npos);
}

TEST(JsonRpcBuild, ErrorsCarryCodeMessageAndData) {
  const Json error = rpc::MakeError(5, -32602, "Unknown tool: x", {{"hint", 1}});
  EXPECT_EQ(error["id"], 5);
  EXPECT_EQ(error["error"]["code"], -32602);
  EXPECT_EQ(error["error"]["data"]["hint"], 1);
}

// MCP 2026-07-28 wants resultType in every result: it is spliced into a
// relayed answer, which stays valid JSON with everything it had.
TEST(JsonRpcRelay, WithIdAndMembersPutsThemFirstInTheResult) {
  const std::string full = rpc::Dump(rpc::MakeResult(12, {{"content", Json::array({{{"type", "text"}}})}, {"z", 1}}));
  const auto prefix = rpc::PeekResult(full);
  ASSERT_TRUE(prefix);
  const auto spliced = rpc::WithIdAndMembers(*prefix, "client-1", R"("resultType":"complete")");
  ASSERT_TRUE(spliced);
  ASSERT_TRUE(Json::accept(*spliced)) << *spliced;
  const Json parsed = Json::parse(*spliced);
  EXPECT_EQ(parsed["id"], "client-1");
  EXPECT_EQ(parsed["result"]["resultType"], "complete");
  EXPECT_EQ(parsed["result"]["z"], 1);
  EXPECT_EQ(parsed["result"]["content"][0]["type"], "text");

  const std::string empty = rpc::Dump(rpc::MakeResult(3, Json::object()));
  const auto spliced_empty = rpc::WithIdAndMembers(*rpc::PeekResult(empty), 4, R"("a":1,"b":2)");
  ASSERT_TRUE(spliced_empty);
  EXPECT_EQ(Json::parse(*spliced_empty)["result"], Json({{"a", 1}, {"b", 2}})) << *spliced_empty;

  const std::string array = rpc::Dump(rpc::MakeResult(5, Json::array()));
  EXPECT_FALSE(rpc::WithIdAndMembers(*rpc::PeekResult(array), 6, R"("a":1)")) << "not an object: no splice";
}

// Json sorts keys; the shim reads the client's order of a call's arguments
// from the text it came as (common/argument_order.h).
TEST(ArgumentsInOrder, KeepsTheOrderTheSenderWroteNestedToo) {
  const auto text = rpc::ArgumentsInOrder(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"zeta":1,"alpha":{"y":true,"b":[{"q":1,"a":2}]}}}})");
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, R"({"zeta":1,"alpha":{"y":true,"b":[{"q":1,"a":2}]}})");
  EXPECT_FALSE(rpc::ArgumentsInOrder(R"({"params":{"name":"t"}})"));
  EXPECT_FALSE(rpc::ArgumentsInOrder(R"({"params":{"arguments":[1,2]}})"));
  EXPECT_FALSE(rpc::ArgumentsInOrder("not json"));
}

}  // namespace
}  // namespace tb

// Issue 29: page text that is not well-formed must not decide whether a message
// can be read. U+FFFD (EF BF BD) stands in for what is not Unicode.
namespace tb::wellformed {
constexpr std::string_view kFffd = "\xEF\xBF\xBD";

TEST(JsonRpcWellFormed, WellFormedTextIsLeftAlone) {
  EXPECT_FALSE(rpc::WellFormedText(R"({"s":"\ud83d\ude00 é \u00e9 \\ud83d"})"));
  EXPECT_FALSE(rpc::WellFormedText("{\"s\":\"\xF0\x9F\x98\x80\"}"));
}

TEST(JsonRpcWellFormed, ALoneSurrogateEscapeBecomesAReplacementCharacter) {
  EXPECT_EQ(rpc::WellFormedText(R"({"s":"a\ud83d"})"), R"({"s":"a\ufffd"})");
  EXPECT_EQ(rpc::WellFormedText(R"({"s":"\uDE00b","t":"\ud83d\ud83d\ude00"})"),
            R"({"s":"\ufffdb","t":"\ufffd\ud83d\ude00"})");
}

TEST(JsonRpcWellFormed, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  EXPECT_EQ(rpc::WellFormedText("{\"s\":\"a\xff\"}"), "{\"s\":\"a" + std::string(kFffd) + "\"}");
  EXPECT_EQ(rpc::WellFormedText("{\"s\":\"\xC0\xAF\"}"), "{\"s\":\"" + std::string(kFffd) + std::string(kFffd) + "\"}");
  EXPECT_EQ(rpc::WellFormedText("{\"s\":\"\xED\xA0\xBD\"}"),
            "{\"s\":\"" + std::string(kFffd) + std::string(kFffd) + std::string(kFffd) + "\"}");
}

TEST(JsonRpcWellFormed, ParseReadsSuchTextAndSaysSo) {
  auto msg = rpc::Parse(R"({"jsonrpc":"2.0","method":"tab.updated","params":{"title":"x\ud83d"}})");
  ASSERT_TRUE(msg) << msg.error().error.message;
  EXPECT_TRUE(msg->repaired);
  EXPECT_EQ(msg->params["title"], "x" + std::string(kFffd));
  EXPECT_EQ(rpc::Dump(msg->params), "{\"title\":\"x" + std::string(kFffd) + "\"}");
  auto bytes = rpc::Parse("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"t\":\"\xff\"}}");
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->params["t"], std::string(kFffd));
  auto fine = rpc::Parse(R"({"jsonrpc":"2.0","method":"m"})");
  ASSERT_TRUE(fine);
  EXPECT_FALSE(fine->repaired);
}

TEST(JsonRpcWellFormed, InvalidJsonStaysInvalid) {
  auto msg = rpc::Parse("{\"jsonrpc\":\"2.0\",\xff\"method\":\"m\"}");
  ASSERT_FALSE(msg);
  EXPECT_EQ(msg.error().error.code, rpc_error::kParseError);
}
}  // namespace tb::wellformed
