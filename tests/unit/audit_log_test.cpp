// The audit log: one whole JSON line per call, private files, bounded size,
// several hosts appending at once, and `tabbridge audit` reading it back.
#include "common/audit_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mcp_shim/audit_command.h"

namespace tb::audit {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void WriteAll(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

unsigned Mode(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 0xFFFF;
  return st.st_mode & 07777;
}

Entry Sample(int i = 0) {
  Entry entry;
  entry.time = "2026-11-23T21:40:12.345Z";
  entry.session = 3;
  entry.client = "claude-code 2.1";
  entry.tool = "click";
  entry.url = "https://x.com/page/" + std::to_string(i);
  entry.outcome = "ok";
  return entry;
}

// Sets (or unsets, with nullopt) a variable for one test and puts it back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) saved_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (saved_)
      ::setenv(name_, saved_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tb-audit-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    path_ = dir_ + "/state/tabbridge/audit.jsonl";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // Appends n sample lines from a child process.
  pid_t AppendInChild(const std::string& path, int n, std::size_t max_bytes, int tag) {
    const pid_t child = ::fork();
    if (child == 0) {
      Log log(path, max_bytes);
      int failures = 0;
      for (int i = 0; i < n; ++i) {
        Entry entry = Sample(i);
        entry.session = tag;
        entry.detail = std::string(static_cast<std::size_t>(20 + i % 50), static_cast<char>('a' + tag));
        if (!log.Append(entry)) ++failures;
      }
      ::_exit(failures == 0 ? 0 : 1);
    }
    return child;
  }
  static int ExitCode(pid_t child) {
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  std::string dir_;
  std::string path_;
};

using AuditLog = TempDir;
using AuditTail = TempDir;
using AuditCommand = TempDir;

// --- the line ---------------------------------------------------------------

TEST_F(AuditLog, LineHasTheKeysInOrderAndNoEmptyRuleOrDetail) {
  ASSERT_TRUE(Log(path_).Append(Sample()));
  const auto lines = ReadLines(path_);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], R"({"time":"2026-11-23T21:40:12.345Z","session":3,"client":"claude-code 2.1","tool":"click",)"
                      R"("url":"https://x.com/page/0","outcome":"ok"})");
}

TEST_F(AuditLog, RuleAndDetailAreWrittenWhenSet) {
  Entry entry = Sample();
  entry.outcome = "denied";
  entry.rule = "rule 1 (sites *.mybank.com; deny all) in ~/.config/tabbridge/policy.json";
  entry.detail = "https://bank.example/";
  ASSERT_TRUE(Log(path_).Append(entry));
  const Json line = Json::parse(ReadLines(path_).at(0));
  EXPECT_EQ(line["rule"], entry.rule);
  EXPECT_EQ(line["detail"], entry.detail);
  EXPECT_EQ(line["outcome"], "denied");
}

TEST_F(AuditLog, EmptyTimeIsFilledAsUtcWithMilliseconds) {
  Entry entry = Sample();
  entry.time.clear();
  ASSERT_TRUE(Log(path_).Append(entry));
  const std::string time = Json::parse(ReadLines(path_).at(0))["time"];
  EXPECT_TRUE(std::regex_match(time, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"))) << time;
}

TEST_F(AuditLog, NewlinesInFieldsStayInsideOneLine) {
  Entry entry = Sample();
  entry.outcome = "error";
  entry.detail = "first\nsecond";
  ASSERT_TRUE(Log(path_).Append(entry));
  const auto lines = ReadLines(path_);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(Json::parse(lines[0])["detail"], "first\nsecond");
}

TEST_F(AuditLog, InvalidUtf8BecomesReplacementCharacter) {
  Entry entry = Sample();
  entry.url = "https://x.com/\xff";
  ASSERT_TRUE(Log(path_).Append(entry));
  EXPECT_EQ(Json::parse(ReadLines(path_).at(0))["url"], "https://x.com/\xEF\xBF\xBD");
}

TEST_F(AuditLog, LongFieldsAreCut) {
  Entry entry = Sample();
  entry.url = "data:text/plain," + std::string(100000, 'x');
  ASSERT_TRUE(Log(path_).Append(entry));
  const std::string url = Json::parse(ReadLines(path_).at(0))["url"];
  EXPECT_LE(url.size(), kMaxFieldBytes);
  EXPECT_TRUE(url.ends_with("…"));
}

TEST(AuditErrorDetail, KeepsTheFirstLineCutTo200Characters) {
  EXPECT_EQ(ErrorDetail("no such element\n  at stack"), "no such element");
  const std::string exact(kMaxDetailChars, 'e');
  EXPECT_EQ(ErrorDetail(exact), exact);
  std::string long_message;
  for (int i = 0; i < 300; ++i) long_message += "é";  // two bytes each
  const std::string cut = ErrorDetail(long_message);
  std::string expected;
  for (std::size_t i = 0; i + 1 < kMaxDetailChars; ++i) expected += "é";
  EXPECT_EQ(cut, expected + "…");
}

// --- files and modes ---------------------------------------------------------

TEST_F(AuditLog, FileIsCreated0600) {
  ASSERT_TRUE(Log(path_).Append(Sample()));
  EXPECT_EQ(Mode(path_), 0600u);
}

TEST_F(AuditLog, MissingDirectoriesAreCreated0700) {
  ASSERT_TRUE(Log(path_).Append(Sample()));
  EXPECT_EQ(Mode(dir_ + "/state"), 0700u);
  EXPECT_EQ(Mode(dir_ + "/state/tabbridge"), 0700u);
}

TEST_F(AuditLog, ExistingDirectoryModeIsLeftAlone) {
  fs::create_directories(dir_ + "/state/tabbridge");
  ::chmod((dir_ + "/state").c_str(), 0755);
  ASSERT_TRUE(Log(path_).Append(Sample()));
  EXPECT_EQ(Mode(dir_ + "/state"), 0755u);
}

TEST_F(AuditLog, WiderModeIsNarrowedTo0600) {
  fs::create_directories(dir_ + "/state/tabbridge");
  WriteAll(path_, "");
  ::chmod(path_.c_str(), 0644);
  ASSERT_TRUE(Log(path_).Append(Sample()));
  EXPECT_EQ(Mode(path_), 0600u);
}

TEST_F(AuditLog, AppendsToExistingLines) {
  Log log(path_);
  ASSERT_TRUE(log.Append(Sample(1)));
  ASSERT_TRUE(Log(path_).Append(Sample(2)));
  EXPECT_EQ(ReadLines(path_).size(), 2u);
  EXPECT_EQ(log.path(), path_);
}

// A parent that is a file: mkdir fails even for root.
TEST_F(AuditLog, UnwritableLocationIsAnErrorNotACrash) {
  WriteAll(dir_ + "/file", "x");
  const auto appended = Log(dir_ + "/file/tabbridge/audit.jsonl").Append(Sample());
  ASSERT_FALSE(appended);
  EXPECT_NE(appended.error().find(dir_ + "/file"), std::string::npos) << appended.error();
}

TEST_F(AuditLog, DirectoryAtThePathIsAnError) {
  fs::create_directories(path_);
  EXPECT_FALSE(Log(path_).Append(Sample()));
}

// A FIFO planted at the path neither blocks the host nor receives the line.
TEST_F(AuditLog, FifoAtThePathIsAnErrorWithoutBlocking) {
  fs::create_directories(dir_ + "/state/tabbridge");
  ASSERT_EQ(::mkfifo(path_.c_str(), 0600), 0);
  EXPECT_FALSE(Log(path_).Append(Sample()));
}

// --- rotation -----------------------------------------------------------------

TEST_F(AuditLog, RotationKeepsTwoFilesEachUnderTheCapWithWholeLines) {
  constexpr std::size_t kCap = 1000;
  Log log(path_, kCap);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(log.Append(Sample(i)));
  EXPECT_FALSE(fs::exists(RotatedPath(path_, kKeptFiles + 1)));
  int next = 99;  // newest first: the current file, then .1, then .2
  for (int i = 0; i <= kKeptFiles; ++i) {
    const std::string file = RotatedPath(path_, i);
    ASSERT_TRUE(fs::exists(file)) << file;
    EXPECT_LE(fs::file_size(file), kCap) << file;
    EXPECT_EQ(Mode(file), 0600u) << file;
    const auto lines = ReadLines(file);
    for (auto line = lines.rbegin(); line != lines.rend(); ++line) {
      const Json entry = Json::parse(*line, nullptr, false);
      ASSERT_TRUE(entry.is_object()) << *line;
      EXPECT_EQ(entry["url"], "https://x.com/page/" + std::to_string(next--));
    }
  }
}

TEST_F(AuditLog, LineLongerThanTheCapGetsAFileOfItsOwn) {
  Log log(path_, 100);
  ASSERT_TRUE(log.Append(Sample(1)));
  ASSERT_TRUE(log.Append(Sample(2)));
  EXPECT_EQ(ReadLines(path_).size(), 1u);
  EXPECT_EQ(ReadLines(RotatedPath(path_, 1)).size(), 1u);
}

// --- several hosts at once ------------------------------------------------------

TEST_F(AuditLog, ConcurrentAppendersDoNotInterleave) {
  Log(path_).Append(Sample());  // the directory exists before both start
  const pid_t a = AppendInChild(path_, 500, kMaxBytes, 1);
  const pid_t b = AppendInChild(path_, 500, kMaxBytes, 2);
  ASSERT_EQ(ExitCode(a), 0);
  ASSERT_EQ(ExitCode(b), 0);
  const auto lines = ReadLines(path_);
  ASSERT_EQ(lines.size(), 1001u);
  int per_session[3] = {};
  for (const auto& line : lines) {
    const Json entry = Json::parse(line, nullptr, false);
    ASSERT_TRUE(entry.is_object()) << line;
    ++per_session[entry["session"].get<int>() % 3];
  }
  EXPECT_EQ(per_session[1], 500);
  EXPECT_EQ(per_session[2], 500);
}

TEST_F(AuditLog, ConcurrentRotationKeepsTheFileAndWholeLines) {
  Log(path_).Append(Sample());
  const pid_t a = AppendInChild(path_, 500, 4000, 1);
  const pid_t b = AppendInChild(path_, 500, 4000, 2);
  ASSERT_EQ(ExitCode(a), 0);
  ASSERT_EQ(ExitCode(b), 0);
  for (int i = 0; i <= kKeptFiles; ++i) {
    const std::string file = RotatedPath(path_, i);
    ASSERT_TRUE(fs::exists(file)) << file;
    for (const auto& line : ReadLines(file)) EXPECT_TRUE(Json::parse(line, nullptr, false).is_object()) << line;
  }
  EXPECT_FALSE(fs::exists(RotatedPath(path_, kKeptFiles + 1)));
}

// --- Tail ------------------------------------------------------------------------

TEST_F(AuditTail, ReadsAcrossRotatedFilesOldestFirst) {
  Log log(path_, 1000);
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(log.Append(Sample(i)));
  ASSERT_TRUE(fs::exists(RotatedPath(path_, 1)));
  const std::size_t in_current = ReadLines(path_).size();
  const std::size_t want = in_current + 3;  // reaches into .1
  const auto entries = Tail(path_, want);
  ASSERT_EQ(entries.size(), want);
  for (std::size_t i = 0; i < want; ++i) {
    EXPECT_EQ(entries[i]["url"], "https://x.com/page/" + std::to_string(30 - want + i));
  }
}

TEST_F(AuditTail, ReturnsEverythingWhenAskedForMore) {
  Log log(path_);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(log.Append(Sample(i)));
  const auto entries = Tail(path_, 100);
  ASSERT_EQ(entries.size(), 5u);
  EXPECT_EQ(entries.front()["url"], "https://x.com/page/0");
  EXPECT_EQ(entries.back()["url"], "https://x.com/page/4");
}

TEST_F(AuditTail, SkipsLinesThatAreNotJsonObjects) {
  fs::create_directories(dir_ + "/state/tabbridge");
  WriteAll(path_, R"({"tool":"a"})"
                  "\n"
                  "garbage\n"
                  "[1,2]\n"
                  "\n"
                  R"({"tool":"b"})"
                  "\r\n"
                  R"({"tool":"c", broken)"
                  "\n"
                  R"({"tool":"d"})");
  const auto entries = Tail(path_, 10);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0]["tool"], "a");
  EXPECT_EQ(entries[1]["tool"], "b");
  EXPECT_EQ(entries[2]["tool"], "d");
}

TEST_F(AuditTail, MissingFileIsEmpty) {
  EXPECT_TRUE(Tail(path_, 20).empty());
  EXPECT_TRUE(TailLines(dir_ + "/nowhere/audit.jsonl", 20).empty());
}

TEST_F(AuditTail, ZeroEntriesIsEmpty) {
  ASSERT_TRUE(Log(path_).Append(Sample()));
  EXPECT_TRUE(Tail(path_, 0).empty());
}

TEST_F(AuditTail, LinesAcrossReadChunksStayWhole) {
  Log log(path_);
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(log.Append(Sample(i)));  // ~ 400 KB: several chunks
  const auto lines = TailLines(path_, 2500);
  ASSERT_EQ(lines.size(), 2500u);
  const auto all = ReadLines(path_);
  for (std::size_t i = 0; i < lines.size(); ++i) ASSERT_EQ(lines[i], all[500 + i]);
}

TEST_F(AuditTail, SkipsALineLongerThanTheBound) {
  fs::create_directories(dir_ + "/state/tabbridge");
  WriteAll(path_, R"({"tool":"a"})"
                  "\n{\"x\":\"" +
                      std::string(kMaxLineBytes + 10, 'x') +
                      "\"}\n"
                      R"({"tool":"b"})"
                      "\n");
  const auto entries = Tail(path_, 10);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]["tool"], "a");
  EXPECT_EQ(entries[1]["tool"], "b");
}

// --- Format ----------------------------------------------------------------------

TEST(AuditFormat, DeniedLine) {
  const Json entry = {{"time", "2026-11-23T21:40:12.345Z"},
                      {"session", 3},
                      {"client", "claude-code 2.1"},
                      {"tool", "click"},
                      {"url", "https://x.com/"},
                      {"outcome", "denied"},
                      {"rule", "rule 1 (sites *.x.com; deny all) in p.json"}};
  EXPECT_EQ(Format(entry),
            "2026-11-23T21:40:12.345Z  session 3 (claude-code 2.1)  click  https://x.com/  denied  "
            "rule 1 (sites *.x.com; deny all) in p.json");
}

TEST(AuditFormat, EmptyFieldsAreLeftOut) {
  const Json entry = {{"time", "T"}, {"session", 1},       {"client", ""},         {"tool", "open_tab"},
                      {"url", ""},   {"outcome", "error"}, {"detail", "timed out"}};
  EXPECT_EQ(Format(entry), "T  session 1  open_tab  error  timed out");
}

TEST(AuditFormat, ControlCharactersAreEscaped) {
  const Json entry = {{"tool", "click"}, {"detail", "\x1b[31mred\n\xC2\x9b"}};
  EXPECT_EQ(Format(entry), "click  \\u001b[31mred\\u000a\\u009b");
}

TEST(AuditFormat, OddTypesDoNotThrow) {
  EXPECT_EQ(Format(Json{{"session", "x"}, {"tool", 5}, {"url", nullptr}}), "session x  5");
  EXPECT_EQ(Format(Json::array({1})), "[1]");
}

// --- DefaultPath -------------------------------------------------------------------

TEST(AuditDefaultPath, XdgStateHomeWins) {
  ScopedEnv state("XDG_STATE_HOME", "/s");
  ScopedEnv home("HOME", "/h");
  EXPECT_EQ(DefaultPath(), "/s/tabbridge/audit.jsonl");
}

TEST(AuditDefaultPath, RelativeOrEmptyXdgStateHomeIsIgnored) {
  ScopedEnv home("HOME", "/h");
  {
    ScopedEnv state("XDG_STATE_HOME", "relative");
    EXPECT_EQ(DefaultPath(), "/h/.local/state/tabbridge/audit.jsonl");
  }
  ScopedEnv state("XDG_STATE_HOME", "");
  EXPECT_EQ(DefaultPath(), "/h/.local/state/tabbridge/audit.jsonl");
}

TEST(AuditDefaultPath, WithoutHomeUsesThePasswdEntry) {
  ScopedEnv state("XDG_STATE_HOME", std::nullopt);
  ScopedEnv home("HOME", std::nullopt);
  const std::string path = DefaultPath();
  EXPECT_TRUE(path.ends_with("/.local/state/tabbridge/audit.jsonl")) << path;
  EXPECT_EQ(path.front(), '/');
}

// --- tabbridge audit ----------------------------------------------------------------

TEST_F(AuditCommand, PrintsTheLastEntriesFormatted) {
  ScopedEnv state("XDG_STATE_HOME", dir_ + "/state");
  Log log(DefaultPath());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(log.Append(Sample(i)));
  ::testing::internal::CaptureStdout();
  const int code = RunAudit({"-n", "2"});
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(code, 0);
  EXPECT_EQ(out, Format(Tail(DefaultPath(), 2)[0]) + "\n" + Format(Tail(DefaultPath(), 2)[1]) + "\n");
  EXPECT_NE(out.find("https://x.com/page/3"), std::string::npos);
}

TEST_F(AuditCommand, JsonPrintsTheLinesAsWritten) {
  ScopedEnv state("XDG_STATE_HOME", dir_ + "/state");
  Log log(DefaultPath());
  for (int i = 0; i < 25; ++i) ASSERT_TRUE(log.Append(Sample(i)));
  ::testing::internal::CaptureStdout();
  const int code = RunAudit({"--json"});
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(code, 0);
  const auto all = ReadLines(DefaultPath());
  std::string expected;
  for (std::size_t i = 5; i < 25; ++i) expected += all[i] + "\n";  // the default 20
  EXPECT_EQ(out, expected);
}

TEST_F(AuditCommand, SaysSoWhenThereAreNoEntries) {
  ScopedEnv state("XDG_STATE_HOME", dir_ + "/state");
  ::testing::internal::CaptureStdout();
  const int code = RunAudit({});
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(code, 0);
  EXPECT_EQ(out, "no audit entries yet (" + DefaultPath() + ")\n");
}

TEST_F(AuditCommand, BadOptionsAreUsageErrors) {
  ScopedEnv state("XDG_STATE_HOME", dir_ + "/state");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"-n"}, {"-n", "0"}, {"-n", "x"}, {"-n", "-3"}, {"-n", "5x"}, {"--bogus"}, {"extra"}}) {
    ::testing::internal::CaptureStderr();
    const int code = RunAudit(args);
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(code, 2) << args.front();
    EXPECT_NE(err.find("usage: tabbridge audit"), std::string::npos) << err;
  }
}

}  // namespace
}  // namespace tb::audit
