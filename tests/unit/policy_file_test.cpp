// policy::Load, DefaultPath and the denial message's path: the policy file
// on disk and the environment that finds it (policy_test.cpp: the rules).
#include "common/policy.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

namespace tb::policy {
namespace {

// The example of issue 9 and docs/policy.md.
constexpr std::string_view kExample = R"({"rules": [{"sites": ["*.mybank.com", "mail.google.com"], "deny": ["all"]}, )"
                                      R"({"sites": ["localhost", "127.0.0.1"], "allow": ["eval", "download"]}, )"
                                      R"({"sites": ["*"], "allow": ["read", "act", "navigate"]}]})";

// Sets (or unsets, with nullopt) an environment variable for one test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      setenv(name, value->c_str(), 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A directory of its own for the files of one test, removed after it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "policy_test.XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string Write(const std::string& name, std::string_view text) const {
    const std::string file = path_ + "/" + name;
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(PolicyDenial, TheIssuesExample) {
  const ScopedEnv home("HOME", "/home/u");
  const Policy policy = Parse(kExample, "/home/u/.config/tabbridge/policy.json");
  const Decision d = Decide(policy, Cap::kAct, "https://mail.google.com/mail/u/0/");
  EXPECT_EQ(DenialMessage(policy, "click", "https://mail.google.com/mail/u/0/", d),
            "click denied on mail.google.com: rule 1 (sites *.mybank.com, mail.google.com; deny all) in "
            "~/.config/tabbridge/policy.json");
}

TEST(PolicyDenial, NoRuleAllows) {
  const ScopedEnv home("HOME", "/home/u");
  const Policy policy = Parse(kExample, "/home/u/.config/tabbridge/policy.json");
  const Decision d = Decide(policy, Cap::kEval, "http://example.com:8080/");
  EXPECT_EQ(DenialMessage(policy, "evaluate", "http://example.com:8080/", d),
            "evaluate denied on example.com:8080: no rule allows eval there (rule 3 matches) in "
            "~/.config/tabbridge/policy.json");
}

TEST(PolicyDenial, MalformedFile) {
  const ScopedEnv home("HOME", "/home/u");
  const Policy policy = Parse("[]", "/etc/tabbridge.json");
  const Decision d = Decide(policy, Cap::kRead, "about:blank");
  EXPECT_EQ(DenialMessage(policy, "snapshot", "about:blank", d),
            "snapshot denied on about:blank: the policy file is malformed (the top level must be an object like "
            "{\"rules\": [...]}, not a list) — everything is denied until it is fixed in /etc/tabbridge.json");
}

TEST(PolicyDenial, UnparsableUrlIsNamedCut) {
  const Policy policy = Parse(R"({"default": "deny"})", "/p.json");
  const std::string url = "garbage " + std::string(200, 'x');
  const std::string message = DenialMessage(policy, "click", url, Decide(policy, Cap::kAct, url));
  EXPECT_TRUE(message.starts_with("click denied on garbage xxx")) << message;
  EXPECT_NE(message.find("…: no rule matches it and the default is deny in /p.json"), std::string::npos) << message;
  EXPECT_LT(message.size(), 160u);
}

// ---- Loading ----------------------------------------------------------------

TEST(PolicyLoad, MissingFileIsNoPolicy) {
  const TempDir dir;
  const Policy policy = Load(dir.path() + "/policy.json");
  EXPECT_EQ(policy.source, Policy::Source::kNone);
  EXPECT_EQ(policy.fallback, tb::policy::Default::kAsk) << "a missing file asks the person";
  EXPECT_EQ(policy.path, dir.path() + "/policy.json");
  EXPECT_TRUE(policy.error.empty());
}

TEST(PolicyLoad, FileIsParsed) {
  const TempDir dir;
  const std::string path = dir.Write("policy.json", kExample);
  const Policy policy = Load(path);
  EXPECT_EQ(policy.source, Policy::Source::kFile) << policy.error;
  EXPECT_EQ(policy.path, path);
  EXPECT_EQ(policy.rules.size(), 3u);
}

// Issue 44: the file is the person's. One another user can write — or
// replace through its directory — is not obeyed (everything denied, said why).
TEST(PolicyLoad, AFileOthersCanWriteIsRefused) {
  const TempDir dir;
  const std::string path = dir.Write("policy.json", kExample);
  ASSERT_EQ(::chmod(path.c_str(), 0666), 0);
  const Policy policy = Load(path);
  EXPECT_EQ(policy.source, Policy::Source::kMalformed);
  EXPECT_EQ(policy.error, "it can be written by every user (mode 0666): chmod o-w it");
  ASSERT_EQ(::chmod(path.c_str(), 0664), 0);  // our own group: a user's private group
  ASSERT_EQ(::chown(path.c_str(), static_cast<uid_t>(-1), ::getegid()), 0);
  EXPECT_EQ(Load(path).source, Policy::Source::kFile) << Load(path).error;
}

TEST(PolicyLoad, ADirectoryOthersCanWriteIsRefusedUnlessSticky) {
  const TempDir dir;
  const std::string path = dir.Write("policy.json", kExample);
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0);
  const Policy policy = Load(path);
  EXPECT_EQ(policy.source, Policy::Source::kMalformed);
  EXPECT_EQ(policy.error, "its directory " + dir.path() + " can be written by every user (mode 0777): chmod o-w it");
  ASSERT_EQ(::chmod(dir.path().c_str(), 01777), 0);  // as /tmp: others cannot replace what is ours
  EXPECT_EQ(Load(path).source, Policy::Source::kFile) << Load(path).error;
}

TEST(PolicyLoad, AnotherUsersFileIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "only root can give a file away";
  const TempDir dir;
  const std::string path = dir.Write("policy.json", kExample);
  ASSERT_EQ(::chown(path.c_str(), 4242, static_cast<gid_t>(-1)), 0);
  const Policy policy = Load(path);
  EXPECT_EQ(policy.source, Policy::Source::kMalformed);
  EXPECT_EQ(policy.error, "it belongs to another user (uid 4242): only your own file is obeyed");
}

TEST(PolicyLoad, BadFileIsMalformed) {
  const TempDir dir;
  const Policy policy = Load(dir.Write("policy.json", R"({"rules": [{"sites": ["*"], "alow": ["read"]}]})"));
  EXPECT_EQ(policy.source, Policy::Source::kMalformed);
  EXPECT_EQ(policy.error, R"(rule 1: unknown key "alow" (expected "sites", "allow" or "deny"))");
}

TEST(PolicyLoad, DirectoryIsMalformed) {
  const TempDir dir;
  const Policy policy = Load(dir.path());
  EXPECT_EQ(policy.source, Policy::Source::kMalformed);
  EXPECT_EQ(policy.error, "it is a directory, not a file");
}

TEST(PolicyLoad, UnreadableFileIsMalformed) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads any file";
  const TempDir dir;
  const std::string path = dir.Write("policy.json", kExample);
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  const Policy policy = Load(path);
  EXPECT_EQ(policy.source, Policy::Source::kMalformed);
  EXPECT_EQ(policy.error, "cannot open it: Permission denied");
}

TEST(PolicyLoad, PathThroughAFileIsMalformed) {
  const TempDir dir;
  const std::string file = dir.Write("config", "");
  const Policy policy = Load(file + "/policy.json");
  EXPECT_EQ(policy.source, Policy::Source::kMalformed);
  EXPECT_EQ(policy.error, "cannot open it: Not a directory");
}

TEST(PolicyLoad, FifoIsMalformedWithoutWaiting) {
  const TempDir dir;
  const std::string path = dir.path() + "/policy.json";
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  const Policy policy = Load(path);
  EXPECT_EQ(policy.source, Policy::Source::kMalformed);
  EXPECT_EQ(policy.error, "it is not a regular file");
}

TEST(PolicyLoad, DanglingSymlinkIsMalformed) {
  const TempDir dir;
  const std::string path = dir.path() + "/policy.json";
  ASSERT_EQ(symlink((dir.path() + "/elsewhere.json").c_str(), path.c_str()), 0);
  const Policy policy = Load(path);
  EXPECT_EQ(policy.source, Policy::Source::kMalformed);
  EXPECT_EQ(policy.error, "it is a symbolic link to a file that does not exist");
}

TEST(PolicyLoad, TooLargeIsMalformed) {
  const TempDir dir;
  const Policy policy = Load(dir.Write("policy.json", "{}" + std::string(std::size_t{1} << 20, ' ')));
  EXPECT_EQ(policy.source, Policy::Source::kMalformed);
  EXPECT_EQ(policy.error, "too large (over 1 MiB)");
}

// ---- Where the file is ------------------------------------------------------

TEST(PolicyDefaultPath, TabbridgePolicyWins) {
  const ScopedEnv policy("TABBRIDGE_POLICY", "/srv/p.json");
  const ScopedEnv config("XDG_CONFIG_HOME", "/xdg");
  EXPECT_EQ(DefaultPath(), "/srv/p.json");
}

TEST(PolicyDefaultPath, EmptyTabbridgePolicyIsUnset) {
  const ScopedEnv policy("TABBRIDGE_POLICY", "");
  const ScopedEnv config("XDG_CONFIG_HOME", "/xdg");
  EXPECT_EQ(DefaultPath(), "/xdg/tabbridge/policy.json");
}

TEST(PolicyDefaultPath, XdgConfigHome) {
  const ScopedEnv policy("TABBRIDGE_POLICY", std::nullopt);
  const ScopedEnv config("XDG_CONFIG_HOME", "/xdg/");
  EXPECT_EQ(DefaultPath(), "/xdg/tabbridge/policy.json");
}

TEST(PolicyDefaultPath, RelativeXdgConfigHomeIsIgnored) {
  const ScopedEnv policy("TABBRIDGE_POLICY", std::nullopt);
  const ScopedEnv config("XDG_CONFIG_HOME", "xdg");
  const ScopedEnv home("HOME", "/home/u");
  EXPECT_EQ(DefaultPath(), "/home/u/.config/tabbridge/policy.json");
}

TEST(PolicyDefaultPath, HomeWhenNothingElseIsSet) {
  const ScopedEnv policy("TABBRIDGE_POLICY", std::nullopt);
  const ScopedEnv config("XDG_CONFIG_HOME", std::nullopt);
  const ScopedEnv home("HOME", "/home/u");
  EXPECT_EQ(DefaultPath(), "/home/u/.config/tabbridge/policy.json");
}

TEST(PolicyDefaultPath, PasswordDatabaseWithoutHome) {
  const ScopedEnv policy("TABBRIDGE_POLICY", std::nullopt);
  const ScopedEnv config("XDG_CONFIG_HOME", std::nullopt);
  const ScopedEnv home("HOME", std::nullopt);
  const std::string path = DefaultPath();
  EXPECT_TRUE(path.ends_with("/.config/tabbridge/policy.json")) << path;
  EXPECT_TRUE(path.starts_with("/")) << path;
}

TEST(PolicyShortPath, HomeIsATilde) {
  const ScopedEnv home("HOME", "/home/u");
  EXPECT_EQ(ShortPath("/home/u/.config/tabbridge/policy.json"), "~/.config/tabbridge/policy.json");
}

TEST(PolicyShortPath, OtherPathsStay) {
  const ScopedEnv home("HOME", "/home/u");
  EXPECT_EQ(ShortPath("/home/u2/policy.json"), "/home/u2/policy.json");
  EXPECT_EQ(ShortPath("/etc/policy.json"), "/etc/policy.json");
  EXPECT_EQ(ShortPath("relative/policy.json"), "relative/policy.json");
}

TEST(PolicyShortPath, RootHomeIsNoTilde) {
  const ScopedEnv home("HOME", "/");
  EXPECT_EQ(ShortPath("/etc/policy.json"), "/etc/policy.json");
}

}  // namespace
}  // namespace tb::policy
