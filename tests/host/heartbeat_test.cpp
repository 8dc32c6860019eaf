// The host pings the extension (TABBRIDGE_HEARTBEAT_MS shortens the interval
// here); an extension that stops answering is let go after two misses, and
// list_tabs tells the model how the link is.
#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

class HeartbeatTest : public HostTest {};

std::size_t CountPings(const fake::FakeExtension& extension) {
  std::size_t pings = 0;
  for (const auto& received : extension.messages()) pings += IsRequest(received.message, ext_method::kPing);
  return pings;
}

TEST_F(HeartbeatTest, AnAnsweringExtensionIsPingedAndKept) {
  auto& extension = StartServingExtension(0, WithEnv("TABBRIDGE_HEARTBEAT_MS", "100"));
  std::size_t from = 0;
  for (int i = 0; i < 3; ++i) {
    const auto ping = extension.WaitForRequest(ext_method::kPing, kWait, from);
    ASSERT_TRUE(ping) << "heartbeat " << i << " was not sent";
    from = extension.message_count();
  }
  EXPECT_FALSE(extension.host_exit_status()) << "the host let an answering extension go";
}

TEST_F(HeartbeatTest, AnExtensionThatStopsAnsweringIsLetGoAfterTwoMisses) {
  auto& extension = StartServingExtension(0, WithEnv("TABBRIDGE_HEARTBEAT_MS", "100"));
  auto& client = RawClient();
  extension.SetAnswering(false);
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status) << "the host kept waiting on a mute extension";
  EXPECT_TRUE(status->exited) << status->Describe();
  EXPECT_EQ(status->code, 1);
  EXPECT_GE(CountPings(extension), static_cast<std::size_t>(kHeartbeatMissesAllowed));
  EXPECT_TRUE(client.rpc().WaitEof(fake::DeadlineIn(kWait))) << "the session was left open";
}

TEST_F(HeartbeatTest, ListTabsTellsTheModelHowTheLinkIs) {
  auto& extension = StartServingExtension();
  auto& client = RawClient();
  RawClient();  // a second session
  const auto response = client.rpc().Request("tools/call", {{"name", "list_tabs"}, {"arguments", Json::object()}},
                                             fake::DeadlineIn(kWait));
  ASSERT_TRUE(response);
  const Json& connection = fake::Structured(*response).value("connection", Json());
  ASSERT_TRUE(connection.is_object()) << response->dump();
  EXPECT_EQ(connection["browser"].value("name", ""), "FakeChromium");
  EXPECT_EQ(connection["extension"].value("version", ""), kVersion);
  EXPECT_EQ(connection["host"].value("pid", 0), extension.host_pid());
  EXPECT_EQ(connection["host"].value("version", ""), kVersion);
  EXPECT_TRUE(connection["heartbeatAgeMs"].is_number_unsigned()) << connection.dump();
  EXPECT_EQ(connection.value("sessions", 0), 2);
}

}  // namespace
}  // namespace tb::test
