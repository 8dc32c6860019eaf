// Registration on Windows decided on Linux: the manifest written into
// "%LOCALAPPDATA%"\tabbridge (a temporary directory here), every browser's
// HKCU key pointed at it through a fake registry, unregister removing both,
// doctor's reading of each key. tests/windows/registration_test.sh does the
// same for real under Wine and reads the keys back with `reg query`.
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "common/windows_names.h"
#include "mcp_shim/native_manifest.h"
#include "mcp_shim/windows_registration.h"
#include "tests/unit/fake_registry.h"

namespace tb::windows {
namespace {
namespace fs = std::filesystem;

constexpr const char* kId = "adpkeaffmapkegingficmdcbffgoapmk";

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/tb-winreg-XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(WindowsPaths, AbsoluteMeansADriveOrAShare) {
  EXPECT_TRUE(IsAbsolutePath("C:\\Users\\me\\AppData\\Local"));
  EXPECT_TRUE(IsAbsolutePath("d:/tabbridge/tabbridge-host.exe"));
  EXPECT_TRUE(IsAbsolutePath("\\\\server\\share\\tabbridge-host.exe"));
  EXPECT_FALSE(IsAbsolutePath("C:tabbridge-host.exe"));  // relative to C:'s current directory
  EXPECT_FALSE(IsAbsolutePath("tabbridge\\tabbridge-host.exe"));
  EXPECT_FALSE(IsAbsolutePath("\\\\"));
  EXPECT_FALSE(IsAbsolutePath(""));
}

TEST(WindowsPaths, SamePathIgnoresCaseSeparatorsAndATrailingSlash) {
  EXPECT_TRUE(SamePath("C:\\Users\\Me\\AppData\\Local\\tabbridge\\com.tabbridge.host.json",
                       "c:/users/me/appdata/local/tabbridge/com.tabbridge.host.json"));
  EXPECT_TRUE(SamePath("C:\\Users\\me\\", "C:\\Users\\me"));
  EXPECT_FALSE(SamePath("C:\\Users\\me\\a.json", "C:\\Users\\you\\a.json"));
}

TEST(WindowsPaths, InstallDirIsUnderLocalAppData) {
  EXPECT_EQ(InstallDir("C:\\Users\\me\\AppData\\Local").value(), "C:\\Users\\me\\AppData\\Local\\tabbridge");
  EXPECT_EQ(InstallDir("C:\\Users\\me\\AppData\\Local\\").value(), "C:\\Users\\me\\AppData\\Local\\tabbridge");
  EXPECT_EQ(ManifestFile("C:\\Users\\me\\AppData\\Local\\tabbridge"),
            "C:\\Users\\me\\AppData\\Local\\tabbridge\\com.tabbridge.host.json");
  EXPECT_EQ(InstallDir("").error(), "%LOCALAPPDATA% is not set");
  EXPECT_EQ(InstallDir("AppData\\Local").error(), "%LOCALAPPDATA% is not an absolute path: AppData\\Local");
}

TEST(WindowsRegister, WritesTheManifestAndPointsEveryBrowsersKeyAtIt) {
  TempDir local;
  FakeRegistry registry;
  const auto done =
      Register(registry, local.path(), "C:\\Users\\me\\AppData\\Local\\tabbridge\\tabbridge-host.exe", kId);
  ASSERT_TRUE(done) << done.error();
  const std::string manifest = local.path() + "/tabbridge/com.tabbridge.host.json";
  EXPECT_EQ(done->manifest, manifest);
  // The template filled in, with the Windows host path as is (JSON escapes its backslashes).
  std::ifstream in(manifest);
  const Json written = Json::parse(in, nullptr, false);
  EXPECT_EQ(written, ManifestJson("C:\\Users\\me\\AppData\\Local\\tabbridge\\tabbridge-host.exe", kId));
  EXPECT_EQ(written["allowed_origins"], Json::array({std::string("chrome-extension://") + kId + "/"}));
  // Chrome, Chromium, Edge, Brave, Vivaldi: each key's default value is the manifest.
  ASSERT_EQ(done->keys.size(), 5U);
  for (const auto& key : NativeMessagingKeys()) {
    EXPECT_EQ(registry.values[key.path], manifest) << key.browser;
  }
  for (const auto& outcome : done->keys) EXPECT_EQ(outcome.error, "") << outcome.browser;
  EXPECT_EQ(registry.values.count("Software\\Google\\Chrome\\NativeMessagingHosts\\com.tabbridge.host"), 1U);
}

TEST(WindowsRegister, AKeyThatRefusesIsReportedAndTheOthersAreStillSet) {
  TempDir local;
  FakeRegistry registry;
  registry.refuse = "Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.tabbridge.host";
  const auto done = Register(registry, local.path(), "C:\\tb\\tabbridge-host.exe", kId);
  ASSERT_TRUE(done) << done.error();
  int failed = 0;
  for (const auto& outcome : done->keys) {
    if (outcome.error.empty()) continue;
    ++failed;
    EXPECT_EQ(outcome.browser, "Microsoft Edge");
    EXPECT_NE(outcome.error.find("access denied"), std::string::npos);
  }
  EXPECT_EQ(failed, 1);
  EXPECT_EQ(registry.values.size(), 4U);
}

TEST(WindowsRegister, RefusesARelativeHostOrNoLocalAppDataAndTouchesNothing) {
  TempDir local;
  FakeRegistry registry;
  EXPECT_EQ(Register(registry, local.path(), "tabbridge-host.exe", kId).error(),
            "the host path must be absolute, is 'tabbridge-host.exe'");
  EXPECT_EQ(Register(registry, "", "C:\\tb\\tabbridge-host.exe", kId).error(), "%LOCALAPPDATA% is not set");
  EXPECT_TRUE(registry.values.empty());
  EXPECT_FALSE(fs::exists(local.path() + "/tabbridge"));
}

TEST(WindowsUnregister, DeletesEveryKeyAndTheManifestAndSaysWhat) {
  TempDir local;
  FakeRegistry registry;
  ASSERT_TRUE(Register(registry, local.path(), "C:\\tb\\tabbridge-host.exe", kId));
  registry.values["Software\\Other\\Key"] = "kept";
  const auto done = Unregister(registry, local.path());
  EXPECT_TRUE(done.errors.empty());
  ASSERT_EQ(done.removed.size(), 6U);  // five keys and the manifest
  EXPECT_EQ(done.removed.front(), "HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.tabbridge.host");
  EXPECT_EQ(done.removed.back(), local.path() + "/tabbridge/com.tabbridge.host.json");
  EXPECT_EQ(registry.values, (std::map<std::string, std::string>{{"Software\\Other\\Key", "kept"}}));
  EXPECT_FALSE(fs::exists(local.path() + "/tabbridge/com.tabbridge.host.json"));
  // Again: nothing left, nothing said, no error.
  const auto again = Unregister(registry, local.path());
  EXPECT_TRUE(again.removed.empty());
  EXPECT_TRUE(again.errors.empty());
}

TEST(WindowsUnregister, AKeyThatRefusesIsAnErrorAndTheRestIsRemoved) {
  TempDir local;
  FakeRegistry registry;
  ASSERT_TRUE(Register(registry, local.path(), "C:\\tb\\tabbridge-host.exe", kId));
  registry.refuse = "Software\\Vivaldi\\NativeMessagingHosts\\com.tabbridge.host";
  const auto done = Unregister(registry, local.path());
  ASSERT_EQ(done.errors.size(), 1U);
  EXPECT_NE(done.errors[0].find("Vivaldi"), std::string::npos);
  EXPECT_EQ(done.removed.size(), 5U);
}

TEST(WindowsDoctor, ReadsEachKeyBackAsOursMissingElsewhereAbsentOrUnreadable) {
  const std::string ours = "C:\\Users\\me\\AppData\\Local\\tabbridge\\com.tabbridge.host.json";
  const std::string other = "D:\\old\\tabbridge\\com.tabbridge.host.json";
  FakeRegistry registry;
  const auto keys = NativeMessagingKeys();
  registry.values[keys[0].path] = "c:/users/me/appdata/local/tabbridge/com.tabbridge.host.json";  // Chrome
  registry.values[keys[1].path] = "C:\\gone\\com.tabbridge.host.json";                            // Chromium
  registry.values[keys[2].path] = other;                                                          // Edge
  registry.refuse = keys[4].path;  // Vivaldi; Brave has no key
  const auto exists = [&](const std::string& path) { return SamePath(path, ours) || path == other; };
  const auto reports = ReadKeys(registry, ours, exists);
  ASSERT_EQ(reports.size(), 5U);
  EXPECT_EQ(reports[0].state, KeyState::kOurs);
  EXPECT_EQ(reports[1].state, KeyState::kMissingFile);
  EXPECT_EQ(reports[1].detail, "C:\\gone\\com.tabbridge.host.json");
  EXPECT_EQ(reports[2].state, KeyState::kElsewhere);
  EXPECT_EQ(reports[2].detail, other);
  EXPECT_EQ(reports[3].browser, "Brave");
  EXPECT_EQ(reports[3].state, KeyState::kAbsent);
  EXPECT_EQ(reports[4].state, KeyState::kUnreadable);
  EXPECT_NE(reports[4].detail.find("access denied"), std::string::npos);
}

TEST(WindowsDoctor, AfterRegisterEveryKeyIsOurs) {
  TempDir local;
  FakeRegistry registry;
  const auto done = Register(registry, local.path(), "C:\\tb\\tabbridge-host.exe", kId);
  ASSERT_TRUE(done);
  const auto exists = [](const std::string& path) { return fs::exists(path); };
  for (const auto& report : ReadKeys(registry, done->manifest, exists)) {
    EXPECT_EQ(report.state, KeyState::kOurs) << report.browser;
  }
  ASSERT_TRUE(Unregister(registry, local.path()).errors.empty());
  for (const auto& report : ReadKeys(registry, done->manifest, exists)) {
    EXPECT_EQ(report.state, KeyState::kAbsent) << report.browser;
  }
}

}  // namespace
}  // namespace tb::windows
