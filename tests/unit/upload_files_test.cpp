// The shim's reading of upload_file's paths (mcp_shim/upload_files.h) and the
// base64 its bytes travel in.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/base64.h"
#include "common/protocol.h"
#include "mcp_shim/upload_files.h"

namespace tb {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(Base64, EncodesEveryLengthAndDecodesItBack) {
  EXPECT_EQ(base64::Encode(""), "");
  EXPECT_EQ(base64::Encode("f"), "Zg==");
  EXPECT_EQ(base64::Encode("fo"), "Zm8=");
  EXPECT_EQ(base64::Encode("foo"), "Zm9v");
  EXPECT_EQ(base64::Encode("foob"), "Zm9vYg==");
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  for (std::size_t n = 0; n <= all.size(); n += 37) {
    const auto back = base64::Decode(base64::Encode(all.substr(0, n)));
    ASSERT_TRUE(back);
    EXPECT_EQ(std::string(back->begin(), back->end()), all.substr(0, n));
  }
}

TEST(Base64, RefusesCharactersOutsideTheAlphabet) { EXPECT_FALSE(base64::Decode("Zm9v*")); }

class UploadFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tb-upload-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }
  fs::path dir_;
};

TEST_F(UploadFilesTest, ReadsNameSizeModificationTimeAndBytes) {
  const std::string bytes("x\0y", 3);
  const auto files = ReadUploadFiles({Write("a.bin", bytes)});
  ASSERT_TRUE(files) << files.error();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0]["name"], "a.bin");
  EXPECT_EQ((*files)[0]["size"], 3);
  EXPECT_EQ((*files)[0]["data"], base64::Encode(bytes));
  EXPECT_GT((*files)[0]["lastModified"].get<std::int64_t>(), 0);
}

TEST_F(UploadFilesTest, ARelativePathIsTheWorkingDirectorys) {
  Write("rel.txt", "r");
  const fs::path before = fs::current_path();
  fs::current_path(dir_);
  const auto files = ReadUploadFiles({"./rel.txt"});
  fs::current_path(before);
  ASSERT_TRUE(files) << files.error();
  EXPECT_EQ((*files)[0]["name"], "rel.txt");
}

TEST_F(UploadFilesTest, TildeIsTheHomeDirectory) {
  Write("home.txt", "h");
  const char* old = std::getenv("HOME");
  const std::string saved = old ? old : "";
  ::setenv("HOME", dir_.c_str(), 1);
  const auto files = ReadUploadFiles({"~/home.txt"});
  ::setenv("HOME", saved.c_str(), 1);
  ASSERT_TRUE(files) << files.error();
  EXPECT_EQ((*files)[0]["name"], "home.txt");
}

TEST_F(UploadFilesTest, AMissingFileIsNamed) {
  const auto files = ReadUploadFiles({(dir_ / "gone.txt").string()});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("no such file: " + (dir_ / "gone.txt").string()));
}

TEST_F(UploadFilesTest, ADirectoryIsRefused) {
  const auto files = ReadUploadFiles({dir_.string()});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("is a directory"));
}

// A FIFO would block a plain open until a writer came: it is refused at once.
TEST_F(UploadFilesTest, AFifoIsRefusedWithoutWaitingOnIt) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto files = ReadUploadFiles({fifo.string()});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("is not a regular file"));
}

// A device is refused by its type, before it is opened (opening some does something).
TEST_F(UploadFilesTest, ADeviceIsRefusedUnopened) {
  const auto files = ReadUploadFiles({"/dev/null"});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("is not a regular file"));
}

// /proc files say they are empty and are not: read to the end, not to st_size.
TEST_F(UploadFilesTest, AFileThatSaysItIsEmptyIsReadToItsEnd) {
  const auto files = ReadUploadFiles({"/proc/self/status"});
  ASSERT_TRUE(files) << files.error();
  EXPECT_GT((*files)[0]["size"].get<std::size_t>(), 0u);
  const auto bytes = base64::Decode((*files)[0]["data"].get<std::string>());
  ASSERT_TRUE(bytes);
  EXPECT_THAT(std::string(bytes->begin(), bytes->end()), HasSubstr("Pid:"));
}

TEST_F(UploadFilesTest, FilesOverTheLimitTogetherAreRefused) {
  const std::string half = Write("half.bin", "");
  fs::resize_file(half, kMaxUploadBytes / 2 + 1);  // sparse: no disk used
  ASSERT_TRUE(ReadUploadFiles({half}));
  const auto files = ReadUploadFiles({half, half});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("more than 16 MiB"));
}

TEST_F(UploadFilesTest, AnEmptyPathIsRefused) {
  const auto files = ReadUploadFiles({""});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("each path"));
}

}  // namespace
}  // namespace tb
