// The shim's reading of upload_file's paths (mcp_shim/upload_files.h): the
// roots, what is refused under any root, links and owners; and the base64
// its bytes travel in.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

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

// Sets environment variables for one test and puts them back after it.
class ScopedEnv {
 public:
  void Set(const char* name, const std::string& value) {
    if (!saved_.contains(name)) {
      const char* old = std::getenv(name);
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

// Each test has its own directory with a home in it (HOME and the XDG
// directories point there), and that directory as its one upload root.
class UploadFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tb-upload-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "home");
    env_.Set("HOME", (dir_ / "home").string());
    for (const char* xdg : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "TABBRIDGE_PROFILE_DIR",
                            "TABBRIDGE_POLICY", "TABBRIDGE_LOG_FILE"}) {
      env_.Set(xdg, "");
    }
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    const fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }
  UploadScope Roots(std::vector<fs::path> dirs = {}) const {
    if (dirs.empty()) dirs = {dir_};
    UploadScope scope;
    for (const auto& d : dirs) scope.roots.push_back({fs::canonical(d).string(), UploadRoot::Source::kFlag});
    return scope;
  }
  std::expected<Json, std::string> Read(const Json& paths) const { return ReadUploadFiles(paths, Roots()); }
  fs::path dir_;
  ScopedEnv env_;
};

TEST_F(UploadFilesTest, ReadsNameSizeModificationTimeAndBytes) {
  const std::string bytes("x\0y", 3);
  const std::string path = Write("a.bin", bytes);
  const auto files = Read({path});
  ASSERT_TRUE(files) << files.error();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0]["name"], "a.bin");
  EXPECT_EQ((*files)[0]["path"], fs::canonical(path).string());
  EXPECT_EQ((*files)[0]["size"], 3);
  EXPECT_EQ((*files)[0]["data"], base64::Encode(bytes));
  EXPECT_GT((*files)[0]["lastModified"].get<std::int64_t>(), 0);
}

TEST_F(UploadFilesTest, ARelativePathIsTheWorkingDirectorys) {
  Write("rel.txt", "r");
  const fs::path before = fs::current_path();
  fs::current_path(dir_);
  const auto files = Read({"./rel.txt"});
  fs::current_path(before);
  ASSERT_TRUE(files) << files.error();
  EXPECT_EQ((*files)[0]["name"], "rel.txt");
}

TEST_F(UploadFilesTest, TildeIsTheHomeDirectory) {
  Write("home/docs/home.txt", "h");
  const auto files = Read({"~/docs/home.txt"});
  ASSERT_TRUE(files) << files.error();
  EXPECT_EQ((*files)[0]["name"], "home.txt");
}

TEST_F(UploadFilesTest, AMissingFileIsNamed) {
  const auto files = Read({(dir_ / "gone.txt").string()});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("no such file: " + (dir_ / "gone.txt").string()));
}

TEST_F(UploadFilesTest, ADirectoryIsRefused) {
  const auto files = Read({(dir_ / "home").string()});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("is a directory"));
}

// A FIFO would block a plain open until a writer came: it is refused at once.
TEST_F(UploadFilesTest, AFifoIsRefusedWithoutWaitingOnIt) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto files = Read({fifo.string()});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("is not a regular file"));
}

TEST_F(UploadFilesTest, FilesOverTheLimitTogetherAreRefused) {
  const std::string half = Write("half.bin", "");
  fs::resize_file(half, kMaxUploadBytes / 2 + 1);  // sparse: no disk used
  ASSERT_TRUE(Read({half}));
  const auto files = Read({half, half});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("more than 16 MiB"));
}

TEST_F(UploadFilesTest, AnEmptyPathIsRefused) {
  const auto files = Read({""});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("each path"));
}

// --- the roots ---------------------------------------------------------------

TEST_F(UploadFilesTest, AFileOutsideTheRootsIsRefusedWithTheWayToAllowIt) {
  Write("in/ok.txt", "ok");
  const std::string outside = Write("out/secret.txt", "s");
  const auto scope = Roots({dir_ / "in"});
  ASSERT_TRUE(ReadUploadFiles({(dir_ / "in/ok.txt").string()}, scope));
  const auto files = ReadUploadFiles({outside}, scope);
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr(outside + " is outside the upload roots (" +
                                       fs::canonical(dir_ / "in").string() + " (--upload-root))"));
  EXPECT_THAT(files.error(), HasSubstr("add that folder as a root in your MCP client"));
  EXPECT_THAT(files.error(), HasSubstr("start tabbridge with --upload-root DIR"));
  // One bad path among good ones: nothing is read.
  EXPECT_FALSE(ReadUploadFiles({(dir_ / "in/ok.txt").string(), outside}, scope));
  // A missing file outside says "outside", not whether it exists.
  EXPECT_THAT(ReadUploadFiles({(dir_ / "out/none").string()}, scope).error(), HasSubstr("outside the upload roots"));
}

TEST_F(UploadFilesTest, WithoutARootNothingIsRead) {
  UploadScope none;
  none.note = "your MCP client declares no roots";
  const auto files = ReadUploadFiles({Write("a.txt", "a")}, none);
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("outside the upload roots (there are none); your MCP client declares no roots"));
}

TEST_F(UploadFilesTest, ASymlinkOutOfTheRootsIsJudgedByWhereItLeads) {
  const std::string outside = Write("out/secret.txt", "s");
  fs::create_directories(dir_ / "in");
  fs::create_symlink(outside, dir_ / "in/innocent.txt");
  const auto files = ReadUploadFiles({(dir_ / "in/innocent.txt").string()}, Roots({dir_ / "in"}));
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("(" + fs::canonical(outside).string() + ") is outside the upload roots"));
}

TEST_F(UploadFilesTest, ASymlinkWithinTheRootsIsReadUnderItsOwnName) {
  Write("in/real.txt", "r");
  fs::create_symlink("real.txt", dir_ / "in/alias.txt");
  const auto files = ReadUploadFiles({(dir_ / "in/alias.txt").string()}, Roots({dir_ / "in"}));
  ASSERT_TRUE(files) << files.error();
  EXPECT_EQ((*files)[0]["name"], "alias.txt");
  EXPECT_EQ((*files)[0]["path"], fs::canonical(dir_ / "in/real.txt").string());
}

TEST(UploadScope, TheClientsRootsElseTheWorkingDirectoryThenTheFlags) {
  const fs::path base = fs::canonical(fs::temp_directory_path());
  const fs::path a = base / ("tb-scope-a-" + std::to_string(::getpid()));
  const fs::path b = base / ("tb-scope-b-" + std::to_string(::getpid()));
  fs::create_directories(a);
  fs::create_directories(b);
  const auto dirs = [](const UploadScope& scope) {
    std::vector<std::string> out;
    for (const auto& root : scope.roots) out.push_back(root.dir);
    return out;
  };
  // The client declared roots: they, not the working directory; a missing one is left out.
  EXPECT_EQ(dirs(MakeUploadScope({a.string(), (a / "gone").string()}, true, {b.string()}, "/work")),
            (std::vector<std::string>{a.string(), b.string()}));
  // Declared, none given: the flags alone, and the refusal will say why.
  const auto none = MakeUploadScope({}, true, {}, a.string());
  EXPECT_TRUE(none.roots.empty());
  EXPECT_THAT(none.note, HasSubstr("declares no roots"));
  // Not declared: the working directory — but never "/", which would be every file.
  EXPECT_EQ(dirs(MakeUploadScope({}, false, {}, a.string())), (std::vector<std::string>{a.string()}));
  EXPECT_EQ(MakeUploadScope({}, false, {}, a.string()).roots[0].source, UploadRoot::Source::kWorkingDirectory);
  EXPECT_TRUE(MakeUploadScope({}, false, {}, "/").roots.empty());
  fs::remove_all(a);
  fs::remove_all(b);
}

TEST(UploadScope, AFileUriIsALocalPath) {
  EXPECT_EQ(PathOfFileUri("file:///home/ann/my%20project"), "/home/ann/my project");
  EXPECT_EQ(PathOfFileUri("file://localhost/srv/x"), "/srv/x");
  EXPECT_EQ(PathOfFileUri("FILE:///a"), "/a");
  EXPECT_EQ(PathOfFileUri("https://example.com/x"), std::nullopt);
  EXPECT_EQ(PathOfFileUri("file://otherhost/x"), std::nullopt);
  EXPECT_EQ(PathOfFileUri("file:///a%2"), std::nullopt);
  EXPECT_EQ(PathOfFileUri("file:///a%00b"), std::nullopt);
}

// --- refused even under a root ------------------------------------------------

TEST_F(UploadFilesTest, HiddenFilesAndDirectoriesOfTheHomeAreRefusedUnderARoot) {
  const std::string key = Write("home/.ssh/id_ed25519", "KEY");
  const std::string env = Write("home/project/.env", "API_KEY=1");
  const auto scope = Roots({dir_ / "home"});
  auto files = ReadUploadFiles({"~/.ssh/id_ed25519"}, scope);
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("~/.ssh/id_ed25519 (" + key +
                                       ") is refused: it is hidden under your home "
                                       "directory (" +
                                       (dir_ / "home/.ssh").string() + ")"));
  EXPECT_THAT(files.error(), HasSubstr("whatever the roots"));
  files = ReadUploadFiles({env}, scope);
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("is hidden under your home directory"));
  // A dot-directory elsewhere is not the home's: only the roots decide there.
  EXPECT_TRUE(ReadUploadFiles({Write("data/.cache/f.txt", "f")}, Roots()));
}

TEST_F(UploadFilesTest, ALinkIntoAHiddenDirectoryIsRefused) {
  Write("home/.aws/credentials", "secret");
  fs::create_directories(dir_ / "proj");
  fs::create_symlink(dir_ / "home/.aws/credentials", dir_ / "proj/report.txt");
  const auto files = ReadUploadFiles({(dir_ / "proj/report.txt").string()}, Roots({dir_ / "proj"}));
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("is hidden under your home directory"));
}

TEST_F(UploadFilesTest, ProcSysAndDevAreRefusedEvenUnderTheRootOfAll) {
  UploadScope all;
  all.roots.push_back({"/", UploadRoot::Source::kFlag});
  for (const std::string path : {"/proc/self/environ", "/proc/self/status", "/sys/kernel/hostname", "/dev/null"}) {
    const auto files = ReadUploadFiles({path}, all);
    ASSERT_FALSE(files) << path;
    EXPECT_THAT(files.error(), HasSubstr(path + " is refused: it is in /" + path.substr(1, 3))) << files.error();
  }
}

TEST_F(UploadFilesTest, BrowserProfilesAreRefused) {
  env_.Set("XDG_CONFIG_HOME", (dir_ / "config").string());
  const std::string cookies = Write("config/chromium/Default/Cookies", "SQLite format 3");
  auto files = Read({cookies});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("is refused: it is in Chromium's profile"));
  // The profile tabbridge launches.
  env_.Set("TABBRIDGE_PROFILE_DIR", (dir_ / "launch").string());
  files = Read({Write("launch/Default/Login Data", "x")});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("the browser profile tabbridge launches"));
  // Any Chromium profile, wherever it is: its directory holds "Local State".
  Write("elsewhere/Local State", "{}");
  files = Read({Write("elsewhere/Profile 1/Cookies", "x")});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("it is in the browser profile " + (dir_ / "elsewhere").string()));
}

TEST_F(UploadFilesTest, TabbridgesOwnConfigurationAndStateAreRefused) {
  env_.Set("XDG_CONFIG_HOME", (dir_ / "config").string());
  env_.Set("XDG_STATE_HOME", (dir_ / "state").string());
  env_.Set("TABBRIDGE_LOG_FILE", (dir_ / "logs/tb.log").string());
  auto files = Read({Write("config/tabbridge/policy.json", "{}")});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("tabbridge's configuration"));
  files = Read({Write("state/tabbridge/audit.jsonl", "{}")});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("tabbridge's state"));
  files = Read({Write("logs/tb.log", "log")});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("tabbridge's log file"));
}

// --- another user's file or link (root alone can make one here) ---------------

constexpr uid_t kNobody = 65534;

TEST_F(UploadFilesTest, AFileOfAnotherUserIsRefused) {
  if (::getuid() != 0) GTEST_SKIP() << "needs root, to give a file away";
  const std::string path = Write("theirs.txt", "t");
  ASSERT_EQ(::chown(path.c_str(), kNobody, kNobody), 0);
  const auto files = Read({path});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr(path + " is refused: it belongs to another user (uid 65534)"));
}

// The review's exploit: `nobody` planted a link in /tmp to a file only root
// reads, and the shim (root) uploaded that file.
TEST_F(UploadFilesTest, ASymlinkOfAnotherUserInThePathIsRefused) {
  if (::getuid() != 0) GTEST_SKIP() << "needs root, to give a link away";
  const std::string target = Write("root-only.txt", "mine");
  ::chmod(target.c_str(), 0600);
  const fs::path link = dir_ / "planted.txt";
  fs::create_symlink(target, link);
  ASSERT_EQ(::lchown(link.c_str(), kNobody, kNobody), 0);
  auto files = Read({link.string()});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("the symlink " + link.string() +
                                       " on its way belongs to another user "
                                       "(uid 65534)"));
  // A link to a directory, further up the path, likewise.
  fs::create_symlink(dir_, dir_ / "via");
  ASSERT_EQ(::lchown((dir_ / "via").c_str(), kNobody, kNobody), 0);
  files = Read({(dir_ / "via/root-only.txt").string()});
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error(), HasSubstr("the symlink " + (dir_ / "via").string()));
}

}  // namespace
}  // namespace tb
