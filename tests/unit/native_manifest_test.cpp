// The native-messaging manifest: the template from manifests/ filled in,
// written and checked; every browser's directories on Linux and on macOS
// (the table takes the platform, so Linux CI tests the macOS one too).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "common/protocol.h"
#include "mcp_shim/native_manifest.h"

namespace tb {
namespace {
namespace fs = std::filesystem;

constexpr const char* kId = "adpkeaffmapkegingficmdcbffgoapmk";

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/tb-manifest-XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// An executable file to point manifests at.
std::string MakeHost(const std::string& dir) {
  const std::string host = dir + "/tabbridge-host";
  std::ofstream(host) << "#!/bin/sh\n";
  fs::permissions(host, fs::perms::owner_all);
  return host;
}

Json ReadJson(const std::string& path) {
  std::ifstream in(path);
  return Json::parse(in, nullptr, false);
}

TEST(ManifestTemplate, IsTheFileInManifestsWithItsPlaceholders) {
  const Json raw = Json::parse(ManifestTemplate(), nullptr, false);
  ASSERT_TRUE(raw.is_object()) << "manifests/com.tabbridge.host.json.in must be a JSON object";
  EXPECT_EQ(raw["name"], "@HOST_NAME@");
  EXPECT_EQ(raw["path"], "@HOST_PATH@");
  EXPECT_EQ(raw["type"], "stdio");
  EXPECT_EQ(raw["allowed_origins"], Json::array({"chrome-extension://@EXTENSION_ID@/"}));
}

TEST(ManifestTemplate, FillsEveryPlaceholder) {
  const Json manifest = ManifestJson("/opt/tb/bin/tabbridge-host", kId);
  EXPECT_EQ(manifest["name"], std::string(kNativeHostName));
  EXPECT_EQ(manifest["path"], "/opt/tb/bin/tabbridge-host");
  EXPECT_EQ(manifest["allowed_origins"], Json::array({std::string("chrome-extension://") + kId + "/"}));
  EXPECT_EQ(manifest.dump().find('@'), std::string::npos) << manifest.dump();
}

TEST(ManifestTemplate, APathThatNeedsJsonEscapingStaysExact) {
  const std::string odd = "/home/a \"b\"\\c/tabbridge-host";
  const Json manifest = ManifestJson(odd, kId);
  EXPECT_EQ(manifest["path"], odd);
  EXPECT_EQ(Json::parse(manifest.dump())["path"], odd);
}

TEST(ManifestTemplate, ABrokenTemplateIsAnErrorNotACrash) {
  EXPECT_FALSE(RenderManifest("[1, 2]", "/x", kId));
  EXPECT_FALSE(RenderManifest("{\"name\": ", "/x", kId));
  auto custom = RenderManifest(R"({"a": ["@HOST_PATH@ and @HOST_PATH@"], "b": 3})", "/h", kId);
  ASSERT_TRUE(custom);
  EXPECT_EQ((*custom)["a"][0], "/h and /h");
  EXPECT_EQ((*custom)["b"], 3);
}

TEST(WriteManifest, WritesTheTemplateFilledInReadableByAll) {
  TempDir tmp;
  const std::string host = MakeHost(tmp.path());
  const std::string dir = tmp.path() + "/a/NativeMessagingHosts";
  auto written = WriteManifest(dir, host, kId);
  ASSERT_TRUE(written) << written.error();
  EXPECT_EQ(*written, dir + "/com.tabbridge.host.json");
  EXPECT_EQ(ReadJson(*written), ManifestJson(host, kId));
  struct stat st {};
  ASSERT_EQ(::stat(written->c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  EXPECT_TRUE(CheckManifest(dir, kId));
}

class CheckManifestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    host_ = MakeHost(tmp_.path());
    ASSERT_TRUE(WriteManifest(tmp_.path(), host_, kId));
  }
  // Writes the manifest afresh with `edit` applied; returns CheckManifest's error ("" if none).
  std::string CheckAfter(const std::function<void(Json&)>& edit) {
    if (!WriteManifest(tmp_.path(), host_, kId)) return "cannot write";
    Json manifest = ReadJson(ManifestPath(tmp_.path()));
    edit(manifest);
    std::ofstream(ManifestPath(tmp_.path())) << manifest.dump(2);
    auto ok = CheckManifest(tmp_.path(), kId);
    return ok ? "" : ok.error();
  }
  TempDir tmp_;
  std::string host_;
};

TEST_F(CheckManifestTest, AcceptsWhatWriteManifestWrote) {
  EXPECT_EQ(CheckAfter([](Json&) {}), "");
}

TEST_F(CheckManifestTest, NamesAnotherExtensionsId) {
  auto ok = CheckManifest(tmp_.path(), "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
  ASSERT_FALSE(ok);
  EXPECT_NE(ok.error().find("allowed_origins"), std::string::npos) << ok.error();
}

TEST_F(CheckManifestTest, FindsEveryDifferenceFromTheTemplate) {
  EXPECT_NE(CheckAfter([](Json& m) { m["description"] = "edited"; }).find("\"description\""), std::string::npos);
  EXPECT_NE(CheckAfter([](Json& m) { m["type"] = "pipe"; }).find("\"type\""), std::string::npos);
  EXPECT_NE(CheckAfter([](Json& m) { m["name"] = "com.other"; }).find("\"name\""), std::string::npos);
  EXPECT_NE(CheckAfter([](Json& m) { m["extra"] = 1; }).find("\"extra\""), std::string::npos);
  EXPECT_NE(CheckAfter([](Json& m) { m.erase("allowed_origins"); }).find("lacks"), std::string::npos);
  EXPECT_NE(CheckAfter([](Json& m) { m["path"] = "tabbridge-host"; }).find("absolute"), std::string::npos);
  EXPECT_NE(CheckAfter([](Json& m) { m["path"] = "/nonexistent/tabbridge-host"; }).find("not an executable"),
            std::string::npos);
}

TEST_F(CheckManifestTest, SaysWhenTheFileIsMissingOrNotJson) {
  auto missing = CheckManifest(tmp_.path() + "/nowhere", kId);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("missing"), std::string::npos);
  std::ofstream(ManifestPath(tmp_.path())) << "{not json";
  auto broken = CheckManifest(tmp_.path(), kId);
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().find("not valid JSON"), std::string::npos);
}

TEST(CheckManifest, ChecksAnUnpackedTreeUnderItsRoot) {
  TempDir root;
  fs::create_directories(root.path() + "/usr/bin");
  MakeHost(root.path() + "/usr/bin");
  ASSERT_TRUE(WriteManifest(root.path() + "/etc/opt/chrome/native-messaging-hosts", "/usr/bin/tabbridge-host", kId));
  EXPECT_TRUE(CheckManifest("/etc/opt/chrome/native-messaging-hosts", kId, root.path()));
  EXPECT_FALSE(CheckManifest("/etc/opt/chrome/native-messaging-hosts", kId)) << "not at / on this machine";
}

std::set<std::string> Names(const std::vector<BrowserManifestDirs>& table) {
  std::set<std::string> names;
  for (const auto& browser : table) names.insert(browser.name);
  return names;
}

const BrowserManifestDirs& Find(const std::vector<BrowserManifestDirs>& table, const std::string& name) {
  for (const auto& browser : table) {
    if (browser.name == name) return browser;
  }
  throw std::runtime_error("no " + name);
}

const std::set<std::string> kFiveBrowsers = {"Google Chrome", "Chromium", "Brave", "Microsoft Edge", "Vivaldi"};

TEST(BrowserManifestTable, MacOsHasEveryBrowserUnderLibrary) {
  const auto table = BrowserManifestTable(Platform::kMacOS, "/Users/ann", "/Users/ann/.config");
  EXPECT_EQ(Names(table), kFiveBrowsers);
  const std::string support = "/Users/ann/Library/Application Support/";
  EXPECT_EQ(Find(table, "Google Chrome").user_dir, support + "Google/Chrome/NativeMessagingHosts");
  EXPECT_EQ(Find(table, "Google Chrome").system_dir, "/Library/Google/Chrome/NativeMessagingHosts");
  EXPECT_EQ(Find(table, "Chromium").user_dir, support + "Chromium/NativeMessagingHosts");
  EXPECT_EQ(Find(table, "Chromium").system_dir, "/Library/Application Support/Chromium/NativeMessagingHosts");
  EXPECT_EQ(Find(table, "Brave").user_dir, support + "BraveSoftware/Brave-Browser/NativeMessagingHosts");
  EXPECT_EQ(Find(table, "Microsoft Edge").user_dir, support + "Microsoft Edge/NativeMessagingHosts");
  EXPECT_EQ(Find(table, "Microsoft Edge").system_dir, "/Library/Microsoft/Edge/NativeMessagingHosts");
  EXPECT_EQ(Find(table, "Vivaldi").user_dir, support + "Vivaldi/NativeMessagingHosts");
  for (const auto& browser : table) {
    EXPECT_TRUE(browser.program.starts_with("/Applications/") && browser.program.ends_with(".app")) << browser.name;
    EXPECT_EQ(browser.user_dir, browser.config_root + "/NativeMessagingHosts");
  }
}

TEST(BrowserManifestTable, LinuxHasEveryBrowserUnderTheXdgConfigHome) {
  const auto table = BrowserManifestTable(Platform::kLinux, "/home/ann", "");
  EXPECT_TRUE(std::ranges::includes(Names(table), kFiveBrowsers));
  EXPECT_EQ(Find(table, "Google Chrome").user_dir, "/home/ann/.config/google-chrome/NativeMessagingHosts");
  EXPECT_EQ(Find(table, "Google Chrome").system_dir, "/etc/opt/chrome/native-messaging-hosts");
  EXPECT_EQ(Find(table, "Chromium").user_dir, "/home/ann/.config/chromium/NativeMessagingHosts");
  EXPECT_EQ(Find(table, "Chromium").system_dir, "/etc/chromium/native-messaging-hosts");
  EXPECT_EQ(Find(table, "Brave").user_dir, "/home/ann/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts");
  EXPECT_EQ(Find(table, "Microsoft Edge").system_dir, "/etc/opt/edge/native-messaging-hosts");
  EXPECT_EQ(Find(table, "Vivaldi").system_dir, "/etc/opt/vivaldi/native-messaging-hosts");
  EXPECT_EQ(Find(BrowserManifestTable(Platform::kLinux, "/home/ann", "/xdg"), "Vivaldi").user_dir,
            "/xdg/vivaldi/NativeMessagingHosts");
  EXPECT_EQ(Find(BrowserManifestTable(Platform::kLinux, "/home/ann", "relative"), "Vivaldi").user_dir,
            "/home/ann/.config/vivaldi/NativeMessagingHosts")
      << "XDG_CONFIG_HOME counts only when absolute";
}

TEST(KnownBrowsers, IsThisPlatformsTable) {
  const auto known = KnownBrowsers();
  std::set<std::string> names;
  for (const auto& browser : known) names.insert(browser.name);
  EXPECT_TRUE(std::ranges::includes(names, kFiveBrowsers));
}

}  // namespace
}  // namespace tb
