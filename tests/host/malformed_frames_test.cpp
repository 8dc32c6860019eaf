// A misbehaving extension: a broken frame makes the host log it and close
// (Chrome then starts a fresh one) — it never crashes and never hangs
// (docs/protocol.md §1). A signal or a sanitizer report here is a bug.
#include <cstdint>
#include <cstring>

#include "common/protocol.h"
#include "tests/fake_extension/dir_watch.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

std::string Header(std::uint32_t length) {
  std::string bytes(sizeof(length), '\0');
  std::memcpy(bytes.data(), &length, sizeof(length));
  return bytes;
}

std::string Frame(std::string_view payload) {
  return Header(static_cast<std::uint32_t>(payload.size())) + std::string(payload);
}

struct BadFrame {
  std::string name;
  std::string bytes;
};

// ctest shows the case's name, not its bytes.
void PrintTo(const BadFrame& frame, std::ostream* out) { *out << frame.name; }

std::vector<BadFrame> BadFrames() {
  return {
      {"ZeroLength", Header(0)},
      {"LengthOverTheLimit", Header(static_cast<std::uint32_t>(kMaxFrameFromExtension + 1))},
      {"LengthAtUint32Max", Header(UINT32_MAX)},
      {"InvalidJson", Frame(R"({"jsonrpc":"2.0","method":"tab.updated","params":)")},
      {"InvalidUtf8",
       Frame("{\"jsonrpc\":\"2.0\",\"method\":\"tab.updated\",\"params\":{\"tab\":{\"id\":1,\"url\":\"\xff\xfe\"}}}")},
      {"JsonArray", Frame("[1,2,3]")},
      {"JsonString", Frame("\"hello\"")},
      {"ObjectThatIsNotJsonRpc", Frame(R"({"hello":"world"})")},
      {"DeeplyNested", Frame(std::string(100'000, '[') + std::string(100'000, ']'))},
  };
}

class MalformedFrameTest : public HostTest, public ::testing::WithParamInterface<BadFrame> {};

TEST_P(MalformedFrameTest, HostExitsNormallyInsteadOfCrashingOrHanging) {
  auto& extension = StartServingExtension();
  extension.SendRaw(GetParam().bytes);  // may fail part-way: the host may close first
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status) << "the host is still running after a malformed frame";
  EXPECT_TRUE(status->exited) << status->Describe();
}

INSTANTIATE_TEST_SUITE_P(Frames, MalformedFrameTest, ::testing::ValuesIn(BadFrames()),
                         [](const ::testing::TestParamInfo<BadFrame>& p) { return p.param.name; });

class MalformedInputTest : public HostTest {};

TEST_F(MalformedInputTest, HostRemovesItsSocketWhenItClosesOnABadFrame) {
  auto& extension = StartServingExtension();
  extension.SendRaw(Header(0));
  ASSERT_TRUE(extension.WaitHostExit(kWait));
  EXPECT_FALSE(fake::PathExists(SocketPath(0)));
}

TEST_F(MalformedInputTest, BadFrameBeforeHelloEndsTheHostWithoutASocket) {
  fake::FakeExtensionOptions options;
  options.send_hello = false;
  auto& extension = StartExtension(options);
  extension.SendRaw(Frame("not json"));
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status);
  EXPECT_TRUE(status->exited) << status->Describe();
  EXPECT_FALSE(fake::PathExists(SocketPath(0)));
}

TEST_F(MalformedInputTest, FrameCutShortByEofEndsTheHostCleanly) {
  auto& extension = StartServingExtension();
  extension.SendRaw(Header(100) + "{\"jsonrpc\":");
  extension.CloseHostStdin();
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status);
  EXPECT_TRUE(status->clean()) << status->Describe();
}

TEST_F(MalformedInputTest, HelloWithAnotherProtocolMakesTheHostExitWithAnError) {
  fake::FakeExtensionOptions options;
  options.protocol = kExtensionProtocol + 1;
  auto& extension = StartExtension(options);
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status);
  EXPECT_TRUE(status->exited) << status->Describe();
  EXPECT_EQ(status->code, 1);
  EXPECT_FALSE(fake::PathExists(SocketPath(0)));
}

TEST_F(MalformedInputTest, RequestFromTheExtensionIsAnsweredMethodNotFound) {
  auto& extension = StartServingExtension();
  extension.SendMessage({{"jsonrpc", "2.0"}, {"id", 5}, {"method", "host.doSomething"}});
  const auto answer = extension.WaitForMessage([](const Json& m) { return m.value("id", Json()) == 5; }, kWait);
  ASSERT_TRUE(answer) << "the host ignored the request";
  EXPECT_EQ(answer->message["error"].value("code", 0), rpc_error::kMethodNotFound);
}

}  // namespace
}  // namespace tb::test
