// The Windows shim's walk under Wine: tabbridge.exe reaches tabbridge-host.exe
// (spawned by the Windows-built fake extension as Chrome spawns it) over the
// named pipe — connect, list tabs, open, focus, a page tool the fake
// extension answers, close, with one list_changed per change of the tool
// list; two shims on one host; the host killed and the shim saying so.
// Runs once mcp_shim builds for Windows (tests/windows/CMakeLists.txt).
#include <io.h>

#include <fstream>
#include <iterator>

#include "common/protocol.h"
#include "tests/fake_extension/child_process.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::string_view kListChanged = "notifications/tools/list_changed";

fake::FakeExtensionOptions AnsweringPageTools(int tabs) {
  fake::FakeExtensionOptions options;
  options.tabs = tabs;
  options.answer_page_tools = true;
  return options;
}

std::size_t TabCount(fake::McpDriver& shim) {
  const auto tabs = shim.CallTool("list_tabs", Json::object(), kWait);
  return tabs ? fake::Structured(*tabs).value("tabs", Json::array()).size() : 0;
}

// Waits for one list_changed and checks no second one came with it.
void ExpectOneListChanged(fake::McpDriver& shim, const std::string& after) {
  ASSERT_TRUE(shim.rpc().WaitNotification(kListChanged, fake::DeadlineIn(kWait))) << "no list_changed after " << after;
  const auto names = shim.ListToolNames(kWait);  // a round trip: anything sent before its answer has arrived
  ASSERT_TRUE(names);
  for (const auto& n : shim.rpc().TakeNotifications()) {
    EXPECT_NE(n.value("method", ""), kListChanged) << "a second list_changed after " << after;
  }
}

void ExpectNoListChanged(fake::McpDriver& shim, const std::string& after) {
  ASSERT_TRUE(shim.ListToolNames(kWait));
  for (const auto& n : shim.rpc().TakeNotifications()) {
    EXPECT_NE(n.value("method", ""), kListChanged) << "a list_changed after " << after;
  }
}

class ShimWalkTest : public HostTest {
 protected:
  struct Ran {
    std::string out;
    int exit_code = -1;
  };
  // tabbridge.exe with `args` on this test's pipes, run to its end.
  Ran RunShim(std::vector<std::string> args) {
    args.insert(args.begin(), TB_SHIM_BINARY);
    auto child = fake::ChildProcess::Spawn(
        {.argv = args, .env = {{"TABBRIDGE_SOCKET_DIR", socket_dir_}}, .stderr_path = work_.Join("shim-run.log")});
    if (!child) ADD_FAILURE() << child.error();
    if (!child) return {};
    (*child)->CloseStdin();
    Ran ran;
    char buffer[4096];
    for (int n; (n = ::_read((*child)->stdout_fd(), buffer, sizeof buffer)) > 0;) ran.out.append(buffer, n);
    const auto status = (*child)->WaitExit(kWait);
    EXPECT_TRUE(status) << "tabbridge.exe did not end";
    if (status && status->exited) ran.exit_code = status->code;
    return ran;
  }
  std::string Doctor() { return RunShim({"doctor"}).out; }
};

TEST_F(ShimWalkTest, ConnectListOpenFocusPageToolCloseWithOneListChangedPerChange) {
  StartServingExtension(0, AnsweringPageTools(1));
  auto& shim = ConnectedShim();
  EXPECT_EQ(TabCount(shim), 1u);

  const auto opened = shim.CallTool("open_tab", {{"url", "http://127.0.0.1/walk"}, {"focus", false}}, kWait);
  ASSERT_TRUE(opened && !fake::IsToolError(*opened)) << (opened ? opened->dump() : "no answer");
  EXPECT_EQ(TabCount(shim), 2u);
  ExpectNoListChanged(shim, "open_tab without focus");

  const auto tabs = shim.CallTool("list_tabs", Json::object(), kWait);
  ASSERT_TRUE(tabs);
  const std::int64_t opened_id = fake::Structured(*tabs)["tabs"].back().value("id", 0);
  const auto focused = shim.CallTool("focus_tab", {{"tabId", opened_id}}, kWait);
  ASSERT_TRUE(focused && !fake::IsToolError(*focused)) << (focused ? focused->dump() : "no answer");
  ExpectOneListChanged(shim, "focus_tab");
  EXPECT_THAT(*shim.ListToolNames(kWait), Contains("snapshot"));

  const auto snapshot = shim.CallTool("snapshot", Json::object(), kWait);
  ASSERT_TRUE(snapshot && !fake::IsToolError(*snapshot)) << (snapshot ? snapshot->dump() : "no answer");
  EXPECT_THAT(fake::ToolText(*snapshot), HasSubstr("fake page.snapshot of tab " + std::to_string(opened_id)));

  const auto closed = shim.CallTool("close_tab", {{"tabId", opened_id}}, kWait);
  ASSERT_TRUE(closed && !fake::IsToolError(*closed)) << (closed ? closed->dump() : "no answer");
  ExpectOneListChanged(shim, "close_tab of the focused tab");
  EXPECT_EQ(TabCount(shim), 1u);
  EXPECT_THAT(*shim.ListToolNames(kWait), Not(Contains("snapshot")));
}

TEST_F(ShimWalkTest, TwoShimsShareTheHostAndKeepTheirOwnFocus) {
  StartServingExtension(0, AnsweringPageTools(2));
  auto& first = ConnectedShim();
  auto& second = ConnectedShim();
  EXPECT_EQ(TabCount(first), 2u);
  EXPECT_EQ(TabCount(second), 2u);
  const auto focused = first.CallTool("focus_tab", {{"tabId", 1}}, kWait);
  ASSERT_TRUE(focused && !fake::IsToolError(*focused));
  ExpectOneListChanged(first, "focus_tab");
  ExpectNoListChanged(second, "the other shim's focus_tab");
  const auto page = second.CallTool("snapshot", Json::object(), kWait);
  ASSERT_TRUE(page);
  EXPECT_TRUE(fake::IsToolError(*page)) << "the second shim focused nothing: " << page->dump();
}

TEST_F(ShimWalkTest, AKilledHostIsReportedByTheShim) {
  auto& extension = StartServingExtension(0, AnsweringPageTools(1));
  auto& shim = ConnectedShim();
  extension.SignalHost(SIGKILL);
  ASSERT_TRUE(extension.WaitHostExit(kWait));
  ASSERT_TRUE(shim.rpc().WaitNotification(kListChanged, fake::DeadlineIn(kWait))) << "the shim did not notice";
  const auto names = shim.ListToolNames(kWait);
  ASSERT_TRUE(names);
  EXPECT_THAT(*names, ::testing::ElementsAre("connect_browser"));
  const auto again = shim.CallTool("connect_browser", Json::object(), kWait);
  ASSERT_TRUE(again);
  EXPECT_TRUE(fake::IsToolError(*again)) << "no host to connect to: " << again->dump();
}

// install.ps1 sends every user to doctor: with a host serving, it must find it
// over the pipe (it once looked for the pipe prefix as a directory).
TEST_F(ShimWalkTest, DoctorFindsTheLiveHostOverThePipe) {
  StartServingExtension(0, AnsweringPageTools(3));
  const std::string out = Doctor();
  EXPECT_THAT(out, HasSubstr("ok    pipes: " + socket_dir_ + "-browser-<n>"));
  EXPECT_THAT(out, HasSubstr("ok    live host "));
  EXPECT_THAT(out, HasSubstr(", 3 tabs"));
  EXPECT_THAT(out, Not(HasSubstr("no browser is running")));
}

TEST_F(ShimWalkTest, DoctorSaysNoBrowserRunsWithoutAHost) {
  const std::string out = Doctor();
  EXPECT_THAT(out, HasSubstr("FAIL  no browser is running the tabbridge extension"));
  EXPECT_THAT(out, Not(HasSubstr("live host")));
  // Every line true on Windows: the keys are written for every browser, so
  // none "found to register with" is not the problem it would be on Linux.
  EXPECT_THAT(out, Not(HasSubstr("found to register with")));
  EXPECT_THAT(out, HasSubstr("\\tabbridge-host.exe\r\n"));
  EXPECT_THAT(out, Not(HasSubstr("/tabbridge-host.exe"))) << "one kind of separator in the host's path";
  EXPECT_THAT(out, HasSubstr("\\tabbridge\\policy.json")) << "and in the policy's";
}

// ssh -R forwards to a Unix socket; the host here has a pipe: remote says it
// cannot work, rather than print a forward that never connects.
TEST_F(ShimWalkTest, RemoteSaysItIsNotAvailableOnWindows) {
  const Ran ran = RunShim({"remote", "ann@build-box"});
  EXPECT_EQ(ran.exit_code, 1);
  EXPECT_EQ(ran.out, "") << "no ssh command";
  std::ifstream log(work_.Join("shim-run.log"));
  const std::string said((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_THAT(said, HasSubstr("not available on Windows"));
}

}  // namespace
}  // namespace tb::test
