// The Host's small parts on their own, on a real libuv loop: each does its
// one job and, once closed, nothing more.
#include <uv.h>

#include <gtest/gtest.h>

#include "common/protocol.h"
#include "host/coalescer.h"
#include "host/state_publisher.h"

namespace tb {
namespace {

class HostPartsTest : public ::testing::Test {
 protected:
  void SetUp() override { uv_loop_init(&loop_); }
  void TearDown() override {
    uv_run(&loop_, UV_RUN_DEFAULT);  // lets closed handles go
    uv_loop_close(&loop_);
  }
  // Runs the loop until nothing is pending (every armed timer fired).
  void RunDry() { uv_run(&loop_, UV_RUN_DEFAULT); }
  uv_loop_t loop_{};
};

TEST_F(HostPartsTest, ABurstOfNotesIsOneAction) {
  int acted = 0;
  Coalescer coalescer(&loop_, 5, [&] { ++acted; });
  for (int i = 0; i < 10; ++i) coalescer.Note();
  EXPECT_TRUE(coalescer.pending());
  RunDry();
  EXPECT_EQ(acted, 1);
  coalescer.Note();  // a later note is news again
  RunDry();
  EXPECT_EQ(acted, 2);
}

TEST_F(HostPartsTest, AClosedCoalescerDropsWhatWasPendingAndLaterNotes) {
  int acted = 0;
  Coalescer coalescer(&loop_, 5, [&] { ++acted; });
  coalescer.Note();
  coalescer.Close();
  coalescer.Note();
  RunDry();
  EXPECT_EQ(acted, 0);
}

TEST_F(HostPartsTest, StateIsPublishedOnlyAfterStartAndOnlyWhenItChanged) {
  int version = 1;
  std::vector<Json> sent;
  StatePublisher publisher(
      &loop_,
      [&] {
        return Json{{"v", version}};
      },
      [&](Json state) { sent.push_back(std::move(state)); });
  publisher.NoteChanged();  // before hello: the extension cannot hear it
  RunDry();
  EXPECT_TRUE(sent.empty());
  publisher.Start();
  publisher.Publish(/*always=*/true);
  publisher.NoteChanged();  // nothing changed: nothing sent
  RunDry();
  ASSERT_EQ(sent.size(), 1u);
  version = 2;
  publisher.NoteChanged();
  publisher.NoteChanged();
  RunDry();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent.back()["v"], 2);
  publisher.Close();
  version = 3;
  publisher.Publish(/*always=*/true);
  EXPECT_EQ(sent.size(), 2u) << "a closed publisher sends nothing";
}

}  // namespace
}  // namespace tb
