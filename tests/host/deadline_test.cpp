// A browser that stops answering: every request to the extension has a
// deadline, a call that passes it is a tool error, and the host goes on
// serving (docs/protocol.md §1, design §4 "no call ever hangs").
#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

using ::testing::HasSubstr;

class DeadlineTest : public HostTest {
 protected:
  // A host that gives the extension 300 ms, with a shim connected to it.
  fake::FakeExtension& SilentExtension() {
    auto& extension = StartServingExtension(0, WithEnv("TABBRIDGE_EXTENSION_DEADLINE_MS", "300"));
    extension.SetAnswering(false);
    return extension;
  }
};

TEST_F(DeadlineTest, UnansweredOpenTabIsAToolErrorSayingTheBrowserDidNotAnswer) {
  SilentExtension();
  auto& shim = ConnectedShim();
  const auto response = shim.CallTool("open_tab", {{"url", "http://127.0.0.1/slow"}}, kWait);
  ASSERT_TRUE(response) << "open_tab hung";
  EXPECT_TRUE(fake::IsToolError(*response)) << response->dump();
  EXPECT_THAT(fake::ToolText(*response), HasSubstr("did not answer"));
}

TEST_F(DeadlineTest, HostCancelsTheRequestItGaveUpOn) {
  auto& extension = SilentExtension();
  auto& shim = ConnectedShim();
  ASSERT_TRUE(shim.CallTool("open_tab", {{"url", "http://127.0.0.1/slow"}}, kWait));
  const auto request = extension.WaitForRequest(ext_method::kTabsCreate, kWait);
  ASSERT_TRUE(request);
  const Json id = request->message["id"];
  const auto cancel = extension.WaitForMessage(
      [&](const Json& m) {
        return m.value("method", "") == ext_method::kCancel && !m.contains("id") &&
               m.value("params", Json::object()).value("id", Json()) == id;
      },
      kWait);
  EXPECT_TRUE(cancel) << "no cancel notification for request " << id.dump();
}

TEST_F(DeadlineTest, SessionKeepsWorkingAfterADeadline) {
  auto& extension = SilentExtension();
  auto& shim = ConnectedShim();
  ASSERT_TRUE(shim.CallTool("open_tab", {{"url", "http://127.0.0.1/slow"}}, kWait));

  const auto tabs = shim.CallTool("list_tabs", Json::object(), kWait);
  ASSERT_TRUE(tabs);
  EXPECT_FALSE(fake::IsToolError(*tabs)) << tabs->dump();
  EXPECT_EQ(fake::Structured(*tabs)["tabs"].size(), 2u);

  extension.SetAnswering(true);
  const auto opened = shim.CallTool("open_tab", {{"url", "http://127.0.0.1/fast"}}, kWait);
  ASSERT_TRUE(opened);
  EXPECT_FALSE(fake::IsToolError(*opened)) << opened->dump();
  EXPECT_EQ(fake::Structured(*opened)["tab"].value("url", ""), "http://127.0.0.1/fast");
}

TEST_F(DeadlineTest, ClientCancellationReachesTheExtension) {
  // A deadline far past kWait: a cancel that shows up came from the client.
  auto& extension = StartServingExtension(0, WithEnv("TABBRIDGE_EXTENSION_DEADLINE_MS", "3600000"));
  extension.SetAnswering(false);
  auto& shim = ConnectedShim();
  const auto id = shim.SendCallTool("open_tab", {{"url", "http://127.0.0.1/slow"}});
  const auto request = extension.WaitForRequest(ext_method::kTabsCreate, kWait);
  ASSERT_TRUE(request);
  const std::size_t seen = extension.message_count();

  ASSERT_TRUE(shim.rpc().SendNotification("notifications/cancelled", {{"requestId", id}, {"reason", "test"}}));
  const auto cancel = extension.WaitForMessage(
      [&](const Json& m) {
        return m.value("method", "") == ext_method::kCancel &&
               m.value("params", Json::object()).value("id", Json()) == request->message["id"];
      },
      kWait, seen);
  EXPECT_TRUE(cancel) << "the extension never heard that the client gave up";
}

}  // namespace
}  // namespace tb::test
