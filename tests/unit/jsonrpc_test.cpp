#include "common/jsonrpc.h"

#include <string>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tb
