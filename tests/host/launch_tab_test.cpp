// The launch tab of a headless browser a shim launched (about:blank, which
// the agent never sees) takes the first page open_tab opens (its renderer
// runs already), and is closed once open_tab has opened a tab elsewhere: the
// shim says so in its hello (launchedHeadlessPid), and only the host whose
// browser has that pid acts. The fake extension is this test process, so the
// host's browser pid is ours.
#include <unistd.h>

#include <chrono>

#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

constexpr std::int64_t kLaunchTab = 3;  // after the two http tabs

class LaunchTabTest : public HostTest {
 protected:
  fake::FakeExtension& StartWithLaunchTab() {
    fake::FakeExtensionOptions options;
    options.more_tab_urls = {"about:blank"};
    return StartServingExtension(0, options);
  }
  fake::SocketClient& HelloWithLaunchedPid(long pid) {
    auto& client = RawClient(0, /*hello=*/false);
    const auto hello = client.rpc().Request(
        shim_method::kHello, {{hello_param::kProtocol, kShimProtocol}, {hello_param::kLaunchedHeadlessPid, pid}},
        fake::DeadlineIn(kWait));
    EXPECT_TRUE(hello && hello->contains("result")) << (hello ? hello->dump() : "no answer");
    return client;
  }
  static void OpenTab(fake::SocketClient& client, const std::string& url) {
    const auto opened = client.rpc().Request(
        "tools/call", {{"name", "open_tab"}, {"arguments", {{"url", url}, {"focus", false}}}}, fake::DeadlineIn(kWait));
    ASSERT_TRUE(opened && opened->contains("result") && !fake::IsToolError(*opened)) << (opened ? opened->dump() : "");
  }
  // The tabIds of every tabs.close the host sent so far.
  static std::vector<std::int64_t> Closed(const fake::FakeExtension& extension) {
    std::vector<std::int64_t> ids;
    for (const auto& m : extension.messages()) {
      if (IsRequest(m.message, ext_method::kTabsClose)) ids.push_back(m.message["params"].value("tabId", -1));
    }
    return ids;
  }
  // The reuseTabId of each tabs.create the host sent so far (-1: none).
  static std::vector<std::int64_t> Reused(const fake::FakeExtension& extension) {
    std::vector<std::int64_t> ids;
    for (const auto& m : extension.messages()) {
      if (IsRequest(m.message, ext_method::kTabsCreate)) ids.push_back(m.message["params"].value("reuseTabId", -1));
    }
    return ids;
  }
};

TEST_F(LaunchTabTest, TheFirstOpenTabGoesIntoTheLaunchTabOfTheBrowserTheShimLaunched) {
  auto& extension = StartWithLaunchTab();
  auto& client = HelloWithLaunchedPid(static_cast<long>(getpid()));
  OpenTab(client, "http://127.0.0.1/first");
  OpenTab(client, "http://127.0.0.1/second");
  EXPECT_EQ(Reused(extension), (std::vector<std::int64_t>{kLaunchTab, -1})) << "offered once, to the first open_tab";
  EXPECT_EQ(extension.tabs().at(kLaunchTab).value("url", ""), "http://127.0.0.1/first");
  EXPECT_EQ(Closed(extension), std::vector<std::int64_t>{}) << "the agent's tab now";
}

TEST_F(LaunchTabTest, AnotherBrowsersBlankTabsStay) {
  auto& extension = StartWithLaunchTab();
  auto& client = HelloWithLaunchedPid(static_cast<long>(getpid()) + 100000);
  OpenTab(client, "http://127.0.0.1/first");
  OpenTab(client, "http://127.0.0.1/second");  // after the first's tabs.close, had there been one
  EXPECT_EQ(Closed(extension), std::vector<std::int64_t>{});
  EXPECT_TRUE(extension.tabs().contains(kLaunchTab));
}

TEST_F(LaunchTabTest, ALaunchTabTheUserNavigatedStays) {
  auto& extension = StartWithLaunchTab();
  auto& client = HelloWithLaunchedPid(static_cast<long>(getpid()));
  Json moved = extension.tabs().at(kLaunchTab);
  moved["url"] = "http://127.0.0.1/typed-by-the-user";
  ASSERT_TRUE(extension.SendEvent(ext_event::kTabUpdated, {{"tab", moved}}));
  // The host has taken the event once list_tabs shows the tab.
  bool listed = false;
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (!listed && std::chrono::steady_clock::now() < deadline) {
    const auto tabs = client.rpc().Request("tools/call", {{"name", "list_tabs"}, {"arguments", Json::object()}},
                                           fake::DeadlineIn(kWait));
    ASSERT_TRUE(tabs);
    for (const auto& t : (*tabs)["result"]["structuredContent"]["tabs"])
      listed = listed || t.value("id", 0) == kLaunchTab;
  }
  ASSERT_TRUE(listed) << "the host never saw the launch tab navigate";
  OpenTab(client, "http://127.0.0.1/first");
  OpenTab(client, "http://127.0.0.1/second");
  EXPECT_EQ(Closed(extension), std::vector<std::int64_t>{});
}

}  // namespace
}  // namespace tb::test
