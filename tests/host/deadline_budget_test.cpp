// Every request to the extension carries its whole budget as
// params.deadlineMs — the same time the host waits for it — so the extension
// can answer (and stop acting) before the host gives up (docs/protocol.md
// "Deadlines nest").
#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

class DeadlineBudgetTest : public HostTest {
 protected:
  // The deadlineMs of the next `method` request the extension receives.
  static Json DeadlineOf(fake::FakeExtension& extension, std::string_view method) {
    const auto request = extension.WaitForRequest(method, kWait);
    if (!request) return Json();
    return request->message["params"].value("deadlineMs", Json());
  }
};

TEST_F(DeadlineBudgetTest, TabOperationCarriesTheLinkDeadline) {
  auto& extension = StartServingExtension(0, WithEnv("TABBRIDGE_EXTENSION_DEADLINE_MS", "4321"));
  auto& shim = ConnectedShim();
  ASSERT_TRUE(shim.CallTool("open_tab", {{"url", "http://127.0.0.1/a"}}, kWait));
  EXPECT_EQ(DeadlineOf(extension, ext_method::kTabsCreate), Json(4321));
}

TEST_F(DeadlineBudgetTest, PageToolsCarryTheirOwnBudget) {
  auto& extension = StartServingExtension();
  auto& shim = ConnectedShim();
  ASSERT_TRUE(shim.CallTool("open_tab", {{"url", "http://127.0.0.1/a"}, {"focus", true}}, kWait));

  ASSERT_TRUE(shim.CallTool("snapshot", Json::object(), kWait));
  EXPECT_EQ(DeadlineOf(extension, "page.snapshot"), Json(kPageToolDeadlineMs));

  ASSERT_TRUE(shim.CallTool("navigate", {{"url", "http://127.0.0.1/b"}, {"timeoutMs", 2000}}, kWait));
  EXPECT_EQ(DeadlineOf(extension, "page.navigate"), Json(2000 + kPageDeadlineMarginMs));

  ASSERT_TRUE(shim.CallTool("wait_for", {{"selector", "#x"}, {"timeoutMs", 1500}}, kWait));
  EXPECT_EQ(DeadlineOf(extension, "page.wait_for"), Json(1500 + kPageDeadlineMarginMs));
}

}  // namespace
}  // namespace tb::test
