// The Windows side of common/'s POSIX files, run under Wine:
// policy_load_windows.cpp and user_dirs_windows.cpp.
#include <windows.h>  // GetACP

#include <stdlib.h>  // _putenv_s

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "common/policy.h"
#include "common/socket_dir.h"
#include "common/user_dirs.h"
#include "common/windows_names.h"
#include "common/windows_pipe.h"
#include "common/windows_sid.h"

namespace tb {
namespace {

// Sets (or, with nullopt, unsets) an environment variable for one test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    Set(value);
  }
  ~ScopedEnv() { Set(old_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  void Set(const std::optional<std::string>& value) { _putenv_s(name_, value ? value->c_str() : ""); }
  const char* name_;
  std::optional<std::string> old_;
};

// A directory of its own for the files of one test, removed after it.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> count{0};
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    path_ = std::filesystem::temp_directory_path() /
            ("tabbridge_test_" + std::to_string(stamp) + "_" + std::to_string(count++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string Write(const std::string& name, std::string_view text) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

constexpr std::string_view kPolicy = R"({"rules": [{"sites": ["*"], "allow": ["read"]}]})";

TEST(WindowsPolicyLoad, MissingFileIsNoPolicy) {
  const TempDir dir;
  const policy::Policy loaded = policy::Load(dir.path() + "\\policy.json");
  EXPECT_EQ(loaded.source, policy::Policy::Source::kNone);
  EXPECT_TRUE(loaded.error.empty());
}

TEST(WindowsPolicyLoad, FileIsParsed) {
  const TempDir dir;
  const std::string path = dir.Write("policy.json", kPolicy);
  const policy::Policy loaded = policy::Load(path);
  EXPECT_EQ(loaded.source, policy::Policy::Source::kFile) << loaded.error;
  EXPECT_EQ(loaded.path, path);
  EXPECT_EQ(loaded.rules.size(), 1u);
}

TEST(WindowsPolicyLoad, BadFileIsMalformed) {
  const TempDir dir;
  const policy::Policy loaded = policy::Load(dir.Write("policy.json", R"({"rules": [{"sites": ["*"], "alow": []}]})"));
  EXPECT_EQ(loaded.source, policy::Policy::Source::kMalformed);
  EXPECT_EQ(loaded.error, R"(rule 1: unknown key "alow" (expected "sites", "allow" or "deny"))");
}

TEST(WindowsPolicyLoad, DirectoryIsMalformed) {
  const TempDir dir;
  const policy::Policy loaded = policy::Load(dir.path());
  EXPECT_EQ(loaded.source, policy::Policy::Source::kMalformed);
  EXPECT_EQ(loaded.error, "it is a directory, not a file");
}

TEST(WindowsPolicyLoad, TooLargeIsMalformed) {
  const TempDir dir;
  const policy::Policy loaded = policy::Load(dir.Write("policy.json", "{}" + std::string(policy::kMaxFileBytes, ' ')));
  EXPECT_EQ(loaded.source, policy::Policy::Source::kMalformed);
  EXPECT_EQ(loaded.error, "too large (over 1 MiB)");
}

TEST(WindowsUserDirs, HomeWins) {
  const ScopedEnv home("HOME", "C:\\msys\\home\\u\\");
  const ScopedEnv profile("USERPROFILE", "C:\\Users\\u");
  EXPECT_EQ(HomeDir(), "C:\\msys\\home\\u");
}

TEST(WindowsUserDirs, UserProfileWithoutHome) {
  const ScopedEnv home("HOME", std::nullopt);
  const ScopedEnv profile("USERPROFILE", "C:\\Users\\u");
  EXPECT_EQ(HomeDir(), "C:\\Users\\u");
}

TEST(WindowsUserDirs, XdgDirTakesADrivePath) {
  const ScopedEnv config("XDG_CONFIG_HOME", "D:\\config");
  EXPECT_EQ(XdgDir("XDG_CONFIG_HOME", ".config"), "D:\\config");
}

TEST(WindowsUserDirs, RelativeXdgDirIsIgnored) {
  const ScopedEnv config("XDG_CONFIG_HOME", "config");
  const ScopedEnv app_data("APPDATA", "C:\\Users\\u\\AppData\\Roaming");
  EXPECT_EQ(XdgDir("XDG_CONFIG_HOME", ".config"), "C:\\Users\\u\\AppData\\Roaming");
}

// The policy file lives in %APPDATA%\tabbridge, as Windows settings do.
TEST(WindowsUserDirs, ConfigIsAppData) {
  const ScopedEnv config("XDG_CONFIG_HOME", std::nullopt);
  const ScopedEnv app_data("APPDATA", "C:\\Users\\u\\AppData\\Roaming\\");
  EXPECT_EQ(XdgDir("XDG_CONFIG_HOME", ".config"), "C:\\Users\\u\\AppData\\Roaming");
}

// State and data (the audit log, the profile) stay on the machine.
TEST(WindowsUserDirs, StateAndDataAreLocalAppData) {
  const ScopedEnv state("XDG_STATE_HOME", std::nullopt);
  const ScopedEnv data("XDG_DATA_HOME", std::nullopt);
  const ScopedEnv local("LOCALAPPDATA", "C:\\Users\\u\\AppData\\Local");
  EXPECT_EQ(XdgDir("XDG_STATE_HOME", ".local/state"), "C:\\Users\\u\\AppData\\Local");
  EXPECT_EQ(XdgDir("XDG_DATA_HOME", ".local/share"), "C:\\Users\\u\\AppData\\Local");
}

// Without the Windows variables, the home directory's XDG names, as before.
TEST(WindowsUserDirs, NoAppDataFallsBackToHome) {
  const ScopedEnv home("HOME", std::nullopt);
  const ScopedEnv profile("USERPROFILE", "C:\\Users\\u");
  const ScopedEnv config("XDG_CONFIG_HOME", std::nullopt);
  const ScopedEnv app_data("APPDATA", std::nullopt);
  EXPECT_EQ(XdgDir("XDG_CONFIG_HOME", ".config"), "C:\\Users\\u/.config");
}

}  // namespace
}  // namespace tb

namespace tb {
namespace {

// The private pipe prefix (socket_dir_windows.cpp): made once, random,
// kept; read back the same by every later process of the user.
TEST(PrivatePipePrefixFile, IsMadeOnceAndReadBackTheSame) {
  const TempDir dir;
  const auto first = windows::LoadPrivatePipePrefix(dir.path() + "\\tabbridge", "Zoë");
  ASSERT_TRUE(first) << first.error();
  EXPECT_TRUE(windows::IsPrivatePipePrefix(*first, "Zoë")) << *first;
  std::ifstream in(std::filesystem::path(dir.path()) / "tabbridge" / "pipe-prefix", std::ios::binary);
  std::string line;
  ASSERT_TRUE(std::getline(in, line)) << "the prefix is kept in a file";
  EXPECT_EQ(line, *first);
  const auto again = windows::LoadPrivatePipePrefix(dir.path() + "\\tabbridge", "Zoë");
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(*again, *first);
}

TEST(PrivatePipePrefixFile, DiffersBetweenUsersAndMachines) {
  const TempDir one, two;
  const auto a = windows::LoadPrivatePipePrefix(one.path(), "ann");
  const auto b = windows::LoadPrivatePipePrefix(two.path(), "ann");
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b) << "random, not derived from the name";
}

TEST(PrivatePipePrefixFile, AFileThatIsNoPrefixIsReplaced) {
  const TempDir dir;
  dir.Write("pipe-prefix", "\\\\.\\pipe\\tabbridge-ann\n");  // the guessable name, planted
  const auto prefix = windows::LoadPrivatePipePrefix(dir.path(), "ann");
  ASSERT_TRUE(prefix) << prefix.error();
  EXPECT_TRUE(windows::IsPrivatePipePrefix(*prefix, "ann")) << *prefix;
}

TEST(PrivatePipePrefixFile, SocketDirUsesItUnlessTheTestNamesOne) {
  const TempDir dir;
  const ScopedEnv local("LOCALAPPDATA", dir.path());
  {
    const ScopedEnv socket_dir("TABBRIDGE_SOCKET_DIR", std::nullopt);
    const std::string made = SocketDir();
    const auto kept = windows::LoadPrivatePipePrefix(dir.path() + "\\tabbridge", windows::CurrentUserName());
    ASSERT_TRUE(kept) << kept.error();
    EXPECT_EQ(made, *kept) << "the file in %LOCALAPPDATA%\\tabbridge";
    const auto renewed = windows::RenewSocketDir(made);
    ASSERT_TRUE(renewed) << renewed.error();
    EXPECT_NE(*renewed, made);
    EXPECT_EQ(SocketDir(), *renewed) << "read again at each call";
  }
  const ScopedEnv socket_dir("TABBRIDGE_SOCKET_DIR", "\\\\.\\pipe\\tb-named");
  EXPECT_EQ(SocketDir(), "\\\\.\\pipe\\tb-named");
  EXPECT_FALSE(windows::RenewSocketDir("\\\\.\\pipe\\tb-named")) << "a named prefix is never renewed";
}

// cmake/windows_utf8.manifest is in every .exe (this one too): narrow
// strings (argv, getenv, std::filesystem) are UTF-8.
TEST(WindowsCodePage, IsUtf8) { EXPECT_EQ(GetACP(), static_cast<unsigned>(CP_UTF8)); }

}  // namespace
}  // namespace tb
