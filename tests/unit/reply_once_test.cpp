// One answer per call: the first answer counts, a dropped call answers at
// once (instead of leaving the client to its 150 s deadline), and wrappers
// pass both on.
#include "host/reply_once.h"

#include <gtest/gtest.h>

namespace tb {
namespace {

struct Sent {
  std::vector<Json> answers;
  ReplyOnce::Send Sink() {
    return [this](Json r) { answers.push_back(std::move(r)); };
  }
};

const Json kDropped = {{"isError", true}, {"dropped", true}};

TEST(ReplyOnce, AHandlerThatDropsItAnswersAtOnce) {
  Sent sent;
  {
    ReplyOnce reply(sent.Sink(), kDropped);
    auto handler = [reply] {};  // a handler that holds it, then forgets it
    handler();
  }
  ASSERT_EQ(sent.answers.size(), 1u);
  EXPECT_EQ(sent.answers[0], kDropped);
}

TEST(ReplyOnce, OnlyTheFirstAnswerCounts) {
  Sent sent;
  {
    ReplyOnce reply(sent.Sink(), kDropped);
    ReplyOnce copy = reply;
    reply(Json{{"n", 1}});
    copy(Json{{"n", 2}});
    EXPECT_TRUE(copy.answered());
  }
  ASSERT_EQ(sent.answers.size(), 1u) << "no second answer, and no 'dropped' after an answer";
  EXPECT_EQ(sent.answers[0]["n"], 1);
}

TEST(ReplyOnce, CopiesShareOneAnswerUntilTheLastGoes) {
  Sent sent;
  auto outer = std::make_unique<ReplyOnce>(sent.Sink(), kDropped);
  ReplyOnce kept = *outer;
  outer.reset();
  EXPECT_TRUE(sent.answers.empty()) << "a copy still holds it";
  kept(Json{{"ok", true}});
  ASSERT_EQ(sent.answers.size(), 1u);
}

TEST(ReplyOnce, AWrapperPassesTheAnswerOn) {
  Sent sent;
  {
    ReplyOnce inner(sent.Sink(), kDropped);
    ReplyOnce wrapper = [inner](Json r) {
      r["audited"] = true;
      inner(std::move(r));
    };
    wrapper(Json{{"ok", true}});
  }
  ASSERT_EQ(sent.answers.size(), 1u);
  EXPECT_EQ(sent.answers[0]["audited"], true);
}

TEST(ReplyOnce, ADroppedWrapperDropsTheCallItHolds) {
  Sent sent;
  {
    ReplyOnce inner(sent.Sink(), kDropped);
    ReplyOnce wrapper = [inner](Json r) { inner(std::move(r)); };
  }
  ASSERT_EQ(sent.answers.size(), 1u);
  EXPECT_EQ(sent.answers[0], kDropped);
}

TEST(ReplyOnce, AnEmptyOneDoesNothing) {
  ReplyOnce none;
  none(Json{{"ok", true}});
  EXPECT_FALSE(none.answered());
}

}  // namespace
}  // namespace tb
