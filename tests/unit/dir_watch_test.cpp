// DirWatch (common/uv_util): a change in a directory calls back, also for a
// directory that appears only after the watch began (the first host makes
// the socket directory while connect_browser waits for it).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <uv.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "common/uv_util.h"
#include "tests/unit/loop_pump.h"

namespace tb {
namespace {

namespace fs = std::filesystem;

class DirWatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    uv_loop_init(&loop_);
    char tmpl[] = "/tmp/tb-watch-XXXXXX";
    root_ = ::mkdtemp(tmpl);
  }
  void TearDown() override {
    uv_run(&loop_, UV_RUN_DEFAULT);
    uv_loop_close(&loop_);
    fs::remove_all(root_);
  }
  bool PumpUntil(const std::function<bool()>& done) { return test_loop::PumpLoopUntil(&loop_, done); }
  static void Touch(const fs::path& file) { std::ofstream(file) << "x"; }

  uv_loop_t loop_{};
  std::string root_;
};

TEST_F(DirWatchTest, CallsBackWhenAnEntryIsMade) {
  int changes = 0;
  {
    DirWatch watch(&loop_);
    ASSERT_TRUE(watch.Start(root_, [&] { ++changes; }));
    Touch(fs::path(root_) / "browser-0.sock");
    EXPECT_TRUE(PumpUntil([&] { return changes > 0; }));
  }
}

TEST_F(DirWatchTest, WaitsInTheParentForADirectoryNotThereYet) {
  const fs::path dir = fs::path(root_) / "tabbridge";
  int changes = 0;
  {
    DirWatch watch(&loop_);
    ASSERT_TRUE(watch.Start(dir.string(), [&] { ++changes; })) << "a missing directory is waited for, not given up on";
    fs::create_directory(dir);
    ASSERT_TRUE(PumpUntil([&] { return changes > 0; })) << "its appearance is a change";
    // From then on, its own entries are watched.
    const int before = changes;
    Touch(dir / "browser-0.sock");
    EXPECT_TRUE(PumpUntil([&] { return changes > before; })) << "a socket made in the new directory is seen";
  }
}

// While the directory is awaited, other entries made in its parent (/tmp is
// anyone's) are not changes of it: no probe round for each.
TEST_F(DirWatchTest, OtherEntriesOfTheParentAreNotAChange) {
  const fs::path dir = fs::path(root_) / "tabbridge";
  int changes = 0;
  int witnessed = 0;
  {
    DirWatch watch(&loop_);
    DirWatch witness(&loop_);  // the parent's own watch: its event comes in the same inotify read
    ASSERT_TRUE(watch.Start(dir.string(), [&] { ++changes; }));
    ASSERT_TRUE(witness.Start(root_, [&] { ++witnessed; }));
    Touch(fs::path(root_) / "unrelated");
    ASSERT_TRUE(PumpUntil([&] { return witnessed > 0; }));
    EXPECT_EQ(changes, 0) << "another entry of the parent counted as the directory's change";
    fs::create_directory(dir);
    EXPECT_TRUE(PumpUntil([&] { return changes > 0; }));
  }
}

TEST_F(DirWatchTest, FailsWhereNeitherTheDirectoryNorItsParentExists) {
  DirWatch watch(&loop_);
  EXPECT_FALSE(watch.Start(root_ + "/missing/tabbridge", [] {}));
}

}  // namespace
}  // namespace tb
