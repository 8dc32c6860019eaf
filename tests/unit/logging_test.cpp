// The log file names pages and calls: it is created 0600, and an older one
// that was 0644 is made 0600 too.
#include "common/logging.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

namespace tb {
namespace {

mode_t ModeOf(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 0777) : 0;
}

class LogFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tb-log-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    path_ = dir_ + "/tabbridge.log";
    ::setenv("TABBRIDGE_LOG_FILE", path_.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("TABBRIDGE_LOG_FILE");
    InitLogging("tabbridge_unit_tests", "warn");  // back to stderr alone
    std::filesystem::remove_all(dir_);
  }
  std::string dir_, path_;
};

TEST_F(LogFileTest, IsCreatedForItsOwnerOnly) {
  InitLogging("tabbridge_unit_tests", "info");
  spdlog::info("a line");
  EXPECT_EQ(ModeOf(path_), 0600u);
}

TEST_F(LogFileTest, AnOpenOneIsMadeOwnerOnly) {
  std::ofstream(path_) << "older line\n";
  ASSERT_EQ(::chmod(path_.c_str(), 0644), 0);
  InitLogging("tabbridge_unit_tests", "info");
  spdlog::info("a line");
  EXPECT_EQ(ModeOf(path_), 0600u);
  std::ifstream in(path_);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "older line") << "the log is appended to, not replaced";
}

}  // namespace
}  // namespace tb
