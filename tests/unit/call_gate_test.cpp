// The call gate on its own (host/call_gate.h), with a session whose host is a
// stand-in (SessionHost): a tool's declaration alone decides what is checked,
// and one that declares nothing never runs.
#include "host/call_gate.h"

#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <optional>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "common/protocol.h"
#include "common/uv_util.h"

namespace tb {
namespace {

// A session's host that has nothing: the gate asks it nothing it needs.
class NoHost final : public SessionHost {
 public:
  Json HelloResult() const override { return Json::object(); }
  void NoteLaunchedHeadless(long) override {}
  void NoteLaunched(long, std::uint64_t, bool) override {}
  Json ToolsFor(const Session&) const override { return Json::array(); }
  std::string FocusedDocument(const Session&) const override { return ""; }
  bool Settling(std::int64_t) const override { return false; }
  std::optional<Session::ShownPage> ShownPage(const Session&, bool) const override { return std::nullopt; }
  Json TabUrls(const std::set<std::int64_t>&) const override { return Json::array(); }
  void CallTool(Session&, ToolCall, Reply) override {}
  bool CallOwnTool(Session&, const ToolCall&, Reply&, std::optional<Session::ShownPage>) override { return false; }
  Session* FindSession(std::int64_t) override { return nullptr; }
  std::optional<std::string> FocusedUrl(const Session&) const override { return std::nullopt; }
  Json WithOwnToolsTold(Session&, Json result) override { return result; }
  std::weak_ptr<bool> AliveToken() const override { return alive_; }
  std::expected<Json, rpc::Error> GrantFromClient(Session&, const Json&) override { return Json::object(); }
  void NoteStateChanged() override {}
  void PublishStateNow() override {}
  void RemoveSession(std::int64_t) override {}

 private:
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

class CallGateTest : public ::testing::Test {
 protected:
  void SetUp() override { uv_loop_init(&loop_); }
  void TearDown() override {
    gate_.reset();
    session_.reset();
    link_.reset();
    asks_.reset();
    policy_.reset();
    uv_run(&loop_, UV_RUN_DEFAULT);
    uv_loop_close(&loop_);
    for (int fd : fds_) ::close(fd);
  }

  // A transport over one end of a socketpair (nobody reads the other).
  std::unique_ptr<Transport> Pipe(Framing framing, std::size_t max) {
    int pair[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
    fds_.push_back(pair[1]);
    auto* pipe = NewHandle<uv_pipe_t>();
    uv_pipe_init(&loop_, pipe, 0);
    uv_pipe_open(pipe, pair[0]);
    auto* stream = reinterpret_cast<uv_stream_t*>(pipe);
    return std::make_unique<Transport>(stream, stream, framing, max);
  }

  void Start() {
    policy_ = std::make_unique<PolicyGate>(&loop_, "", "");
    asks_ = std::make_unique<PersonAsks>(&loop_, [](std::string_view, Json) {});
    link_ = std::make_unique<ExtensionLink>(&loop_, Pipe(Framing::kNative, kMaxFrameFromExtension),
                                            ExtensionLink::Callbacks{}, 1000);
    session_ = std::make_unique<Session>(host_, 1, Pipe(Framing::kLine, kMaxLineBytes));
    gate_ =
        std::make_unique<CallGate>(*policy_, tabs_, *asks_, *link_,
                                   CallGate::Options{.grant_ask_ms = 1000,
                                                     .find_session = [this](std::int64_t) { return session_.get(); },
                                                     .person_can_answer = [] { return false; },
                                                     .after_person_answered = [] {}});
  }

  // Passes a call of a tool declared `declared` through the gate: what it answered, and whether its part ran.
  std::pair<Json, bool> Through(const tools::ToolPolicy& declared) {
    Json answer;
    bool ran = false;
    gate_->Decide(
        *session_, ToolCall{.session_id = 1, .key = "1", .name = "made_up_tool", .args = {{"url", "https://x.test/"}}},
        declared,
        [&](Session&, const ToolCall&, CallGate::Reply reply) {
          ran = true;
          reply(tools::Result({{"ran", true}}));
        },
        CallGate::Reply([&](Json result) { answer = std::move(result); }));
    return {answer, ran};
  }

  uv_loop_t loop_{};
  std::vector<int> fds_;
  NoHost host_;
  TabTable tabs_;
  std::unique_ptr<PolicyGate> policy_;
  std::unique_ptr<PersonAsks> asks_;
  std::unique_ptr<ExtensionLink> link_;
  std::unique_ptr<Session> session_;
  std::unique_ptr<CallGate> gate_;
};

// Issue 42: a tool added without saying what the policy checks is refused,
// whatever it takes (here a url), instead of being checked on the tab's URL.
TEST_F(CallGateTest, AToolThatDeclaresNoTargetsIsRefusedAndItsPartNeverRuns) {
  Start();
  const auto [answer, ran] = Through(tools::ToolPolicy{.cap = policy::Cap::kNavigate});
  EXPECT_FALSE(ran);
  EXPECT_TRUE(answer.value("isError", false));
  EXPECT_NE(answer["content"][0].value("text", "").find("made_up_tool: declares no policy targets"), std::string::npos)
      << answer;
}

TEST_F(CallGateTest, AToolThatTouchesNoPageAndSaysSoRunsItsPart) {
  Start();
  const auto [answer, ran] = Through(tools::ToolPolicy{.targets = {.untargeted = "a test's tool"}});
  EXPECT_TRUE(ran);
  EXPECT_EQ(answer["structuredContent"]["ran"], true);
}

}  // namespace
}  // namespace tb
