// RpcPeer's answers: a success answer for a call that relays text reaches it
// unparsed (rpc::PeekResult's shape, validated), everything else is parsed —
// and a malformed one is never relayed. The peer's other end is a plain
// socket the test writes lines to.
#include "common/rpc_peer.h"

#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <uv.h>

#include "common/jsonrpc.h"
#include "common/protocol.h"
#include "common/uv_util.h"

namespace tb {
namespace {

constexpr auto kDeadline = std::chrono::seconds(10);

class RpcPeerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    uv_loop_init(&loop_);
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    far_ = fds[1];
    auto* pipe = NewHandle<uv_pipe_t>();
    uv_pipe_init(&loop_, pipe, 0);
    ASSERT_EQ(uv_pipe_open(pipe, fds[0]), 0);
    auto* stream = reinterpret_cast<uv_stream_t*>(pipe);
    peer_ =
        std::make_unique<RpcPeer>(&loop_, std::make_unique<Transport>(stream, stream, Framing::kLine, kMaxLineBytes),
                                  RpcPeer::Options{.name = "the test peer",
                                                   .cancel_message =
                                                       [](std::int64_t id, std::string_view) {
                                                         return rpc::MakeNotification("cancel", {{"id", id}});
                                                       },
                                                   .split = {}});
    peer_->Start({.on_notification = {}, .on_close = [this](std::string_view) { lost_ = true; }});
  }
  void TearDown() override {
    peer_.reset();
    ::close(far_);
    uv_run(&loop_, UV_RUN_DEFAULT);  // lets the closed handles go
    uv_loop_close(&loop_);
  }

  // Runs the loop until `done` or the deadline.
  template <typename Done>
  bool RunUntil(Done done) {
    const auto end = std::chrono::steady_clock::now() + kDeadline;
    while (!done()) {
      if (std::chrono::steady_clock::now() > end) return false;
      uv_run(&loop_, UV_RUN_ONCE);
    }
    return true;
  }
  void Answer(const std::string& line) {
    const std::string text = line + "\n";
    ASSERT_EQ(::write(far_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }

  uv_loop_t loop_{};
  int far_ = -1;
  std::unique_ptr<RpcPeer> peer_;
  bool lost_ = false;
  std::optional<std::expected<Json, rpc::Error>> parsed_;
  std::optional<std::string> relayed_;  // the raw answer under id "client-7"
};

TEST_F(RpcPeerTest, RelaysASuccessAnswerAsTextUnderAnotherId) {
  const auto id = peer_->Request(
      "m", Json::object(), 10000, [this](auto outcome) { parsed_ = std::move(outcome); },
      [this](const rpc::ResultPrefix& answer) { relayed_ = rpc::WithId(answer, "client-7"); });
  const std::string answer = rpc::Dump(rpc::MakeResult(id, {{"text", "é\n\"x\""}, {"n", 1}}));
  Answer(answer);
  ASSERT_TRUE(RunUntil([&] { return relayed_ || parsed_; }));
  ASSERT_TRUE(relayed_.has_value());
  EXPECT_EQ(*relayed_, rpc::Dump(rpc::MakeResult("client-7", {{"text", "é\n\"x\""}, {"n", 1}})));
  EXPECT_FALSE(parsed_.has_value());
}

TEST_F(RpcPeerTest, ParsesAnAnswerInAnotherKeyOrder) {
  const auto id = peer_->Request(
      "m", Json::object(), 10000, [this](auto outcome) { parsed_ = std::move(outcome); },
      [this](const rpc::ResultPrefix& answer) { relayed_ = rpc::WithId(answer, 1); });
  Answer(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"result":{"ok":true}})");
  ASSERT_TRUE(RunUntil([&] { return relayed_ || parsed_; }));
  ASSERT_TRUE(parsed_.has_value() && parsed_->has_value());
  EXPECT_EQ((**parsed_)["ok"], true);
}

TEST_F(RpcPeerTest, GivesAnErrorAnswerToTheParsedReply) {
  const auto id = peer_->Request(
      "m", Json::object(), 10000, [this](auto outcome) { parsed_ = std::move(outcome); },
      [this](const rpc::ResultPrefix& answer) { relayed_ = rpc::WithId(answer, 1); });
  Answer(rpc::Dump(rpc::MakeError(id, -32001, "tab 4 is gone")));
  ASSERT_TRUE(RunUntil([&] { return relayed_ || parsed_; }));
  ASSERT_TRUE(parsed_.has_value() && !parsed_->has_value());
  EXPECT_EQ(parsed_->error().code, -32001);
}

// Dropped, not relayed; the call fails at once, and the link stays up.
TEST_F(RpcPeerTest, NeverRelaysAMalformedAnswer) {
  const auto id = peer_->Request(
      "m", Json::object(), 10000, [this](auto outcome) { parsed_ = std::move(outcome); },
      [this](const rpc::ResultPrefix& answer) { relayed_ = rpc::WithId(answer, 1); });
  Answer(R"({"id":)" + std::to_string(id) + R"(,"jsonrpc":"2.0","result":{"a":}})");
  ASSERT_TRUE(RunUntil([&] { return relayed_ || parsed_; }));
  EXPECT_FALSE(relayed_.has_value());
  ASSERT_TRUE(parsed_.has_value() && !parsed_->has_value());
  EXPECT_EQ(parsed_->error().code, rpc_error::kParseError);
  EXPECT_FALSE(lost_);
}

// A line that is not a message is dropped and the link stays up: the next
// answer is still read (issue 29: page text must not close a link).
TEST_F(RpcPeerTest, DropsAnUnreadableLineAndReadsTheNext) {
  const auto id = peer_->Request("m", Json::object(), 10000, [this](auto outcome) { parsed_ = std::move(outcome); });
  Answer("{not json");
  Answer("[1,2]");
  Answer(R"({"jsonrpc":"2.0","method":"n","params":7})");
  Answer(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"result":{"t":"half \ud83d"}})");
  ASSERT_TRUE(RunUntil([&] { return parsed_.has_value(); }));
  ASSERT_TRUE(parsed_->has_value());
  EXPECT_EQ((**parsed_)["t"], "half \xEF\xBF\xBD");
  EXPECT_FALSE(lost_);
}

TEST_F(RpcPeerTest, ParsesTheAnswerOfACallWithoutRawReply) {
  const auto id = peer_->Request("m", Json::object(), 10000, [this](auto outcome) { parsed_ = std::move(outcome); });
  Answer(rpc::Dump(rpc::MakeResult(id, {{"ok", true}})));
  ASSERT_TRUE(RunUntil([&] { return parsed_.has_value(); }));
  ASSERT_TRUE(parsed_->has_value());
  EXPECT_EQ((**parsed_)["ok"], true);
}

TEST(JsonRpcPeekResult, ReadsTheIdOfOurOwnSuccessAnswers) {
  const auto text = rpc::Dump(rpc::MakeResult(42, {{"a", 1}}));
  const auto answer = rpc::PeekResult(text);
  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(answer->id, 42);
  EXPECT_EQ(rpc::WithId(*answer, "x"), rpc::Dump(rpc::MakeResult("x", {{"a", 1}})));
}

TEST(JsonRpcPeekResult, LeavesEverythingElseToTheParser) {
  for (const std::string text : {
           R"({"id":"7","jsonrpc":"2.0","result":{}})",  // a string id is not one of ours
           R"({"id":0,"jsonrpc":"2.0","result":{}})",    // ours count from 1
           R"({"id":07,"jsonrpc":"2.0","result":{}})",   // not JSON
           R"({"id":-3,"jsonrpc":"2.0","result":{}})",
           R"({"id":1234567890123456789,"jsonrpc":"2.0","result":{}})",  // 19 digits
           R"({"id":5,"jsonrpc":"1.0","result":{}})",
           R"({"error":{"code":1,"message":"m"},"id":5,"jsonrpc":"2.0"})",
           R"({"jsonrpc":"2.0","method":"x"})",
           R"({"id":)",
           "",
       }) {
    EXPECT_FALSE(rpc::PeekResult(text).has_value()) << text;
  }
}

}  // namespace
}  // namespace tb
