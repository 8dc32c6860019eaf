// A misbehaving extension. A broken frame (a length of 0 or over the limit:
// the stream can no longer be split into messages) makes the host log it and
// close — Chrome then starts a fresh one. A frame that holds no readable
// message is dropped with a log line and the link stays up: the extension's
// messages carry page text, and a page must not be able to cut the browser
// off (issue 29). Text that is not well-formed (half a surrogate pair, bytes
// that are not UTF-8) is read with U+FFFD in its place. The host never
// crashes and never hangs (docs/protocol.md §1). A signal or a sanitizer
// report here is a bug.
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

// Frames whose length breaks the stream: nothing after them can be read.
std::vector<BadFrame> BrokenFrames() {
  return {
      {"ZeroLength", Header(0)},
      {"LengthOverTheLimit", Header(static_cast<std::uint32_t>(kMaxFrameFromExtension + 1))},
      {"LengthAtUint32Max", Header(UINT32_MAX)},
  };
}

// Whole frames that hold no message the host can use.
std::vector<BadFrame> UnreadableMessages() {
  return {
      {"InvalidJson", Frame(R"({"jsonrpc":"2.0","method":"tab.updated","params":)")},
      {"InvalidUtf8OutsideAString", Frame("{\"jsonrpc\":\"2.0\",\xff\"method\":\"tab.updated\"}")},
      {"JsonArray", Frame("[1,2,3]")},
      {"JsonString", Frame("\"hello\"")},
      {"ObjectThatIsNotJsonRpc", Frame(R"({"hello":"world"})")},
      {"EventWithParamsOfTheWrongShape", Frame(R"({"jsonrpc":"2.0","method":"tab.updated","params":{"tab":"x"}})")},
      {"OwnToolsOfTheWrongShape", Frame(R"({"jsonrpc":"2.0","method":"owntools.changed","params":{"tools":7}})")},
      {"AnswerWithWrongTypes", Frame(R"({"jsonrpc":"2.0","id":1,"error":{"code":"x","message":1}})")},
      {"DeeplyNested", Frame(std::string(100'000, '[') + std::string(100'000, ']'))},
  };
}

// A tab.updated of tab 1 (the fake browser's) whose title is `title`, as JSON text.
std::string TitleEvent(std::string_view title) {
  return R"({"jsonrpc":"2.0","method":"tab.updated","params":{"tab":{"id":1,"windowId":1,"title":")" +
         std::string(title) + R"(","url":"http://127.0.0.1/1","status":"complete","active":true}}})";
}

// Tab 1's title in a list_tabs answer.
std::string TitleOfTab1(const Json& list_tabs_response) {
  for (const auto& tab : fake::Structured(list_tabs_response).value("tabs", Json::array()))
    if (tab.value("id", 0) == 1) return tab.value("title", "");
  return "";
}

// Tab 1's title as `shim`'s list_tabs shows it once it is no longer the fake
// browser's first one (the event and the call come on two channels: polled,
// until kWait); "" when a call fails (the link closed).
std::string TitleOnceChanged(fake::McpDriver& shim) {
  const auto deadline = fake::DeadlineIn(kWait);
  std::string title;
  do {
    const auto tabs = shim.CallTool("list_tabs", Json::object(), kWait);
    if (!tabs || fake::IsToolError(*tabs)) return "";
    title = TitleOfTab1(*tabs);
  } while (title == "Tab 1" && fake::Clock::now() < deadline);
  return title;
}

class MalformedFrameTest : public HostTest, public ::testing::WithParamInterface<BadFrame> {};

TEST_P(MalformedFrameTest, HostExitsNormallyInsteadOfCrashingOrHanging) {
  auto& extension = StartServingExtension();
  extension.SendRaw(GetParam().bytes);  // may fail part-way: the host may close first
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status) << "the host is still running after a broken frame";
  EXPECT_TRUE(status->exited) << status->Describe();
}

INSTANTIATE_TEST_SUITE_P(Frames, MalformedFrameTest, ::testing::ValuesIn(BrokenFrames()),
                         [](const ::testing::TestParamInfo<BadFrame>& p) { return p.param.name; });

class UnreadableMessageTest : public HostTest, public ::testing::WithParamInterface<BadFrame> {};

// The message is dropped; the host still hears the browser and serves two sessions.
TEST_P(UnreadableMessageTest, IsDroppedAndTheLinkStaysUp) {
  auto& extension = StartServingExtension();
  auto& first = ConnectedShim();
  auto& second = ConnectedShim();
  ASSERT_TRUE(extension.SendRaw(GetParam().bytes));
  ASSERT_TRUE(extension.SendRaw(Frame(TitleEvent("after the bad frame"))));
  for (auto* shim : {&first, &second})
    EXPECT_EQ(TitleOnceChanged(*shim), "after the bad frame") << "the event after the bad frame was not read";
  EXPECT_FALSE(extension.host_exit_status()) << "the host exited";
  EXPECT_TRUE(fake::PathExists(SocketPath(0)));
}

INSTANTIATE_TEST_SUITE_P(Messages, UnreadableMessageTest, ::testing::ValuesIn(UnreadableMessages()),
                         [](const ::testing::TestParamInfo<BadFrame>& p) { return p.param.name; });

struct OddTitle {
  std::string name;
  std::string json_text;  // as it stands in the frame, between the quotes
  std::string read_as;    // what list_tabs then shows
};

void PrintTo(const OddTitle& title, std::ostream* out) { *out << title.name; }

class OddTextTest : public HostTest, public ::testing::WithParamInterface<OddTitle> {};

// Page text that is not well-formed Unicode is read, with U+FFFD in its place,
// and shown as well-formed UTF-8 (never dumped as it came).
TEST_P(OddTextTest, IsReadWithAReplacementCharacter) {
  auto& extension = StartServingExtension();
  auto& shim = ConnectedShim();
  ASSERT_TRUE(extension.SendRaw(Frame(TitleEvent(GetParam().json_text))));
  EXPECT_EQ(TitleOnceChanged(shim), GetParam().read_as);
  EXPECT_FALSE(extension.host_exit_status()) << "the host exited";
}

// U+FFFD in UTF-8; U+1F600 (an emoji), as UTF-8 and as an escaped pair.
constexpr std::string_view kFffd = "\xEF\xBF\xBD";
constexpr std::string_view kEmoji = "\xF0\x9F\x98\x80";

INSTANTIATE_TEST_SUITE_P(
    Titles, OddTextTest,
    ::testing::Values(
        OddTitle{"LoneHighSurrogate", R"(half \ud83d of a pair)", "half " + std::string(kFffd) + " of a pair"},
        OddTitle{"LoneLowSurrogate", R"(\ude00 first)", std::string(kFffd) + " first"},
        OddTitle{"HighSurrogateAtTheEnd", R"(cut at 60\ud83d)", "cut at 60" + std::string(kFffd)},
        OddTitle{"TwoHighSurrogates", R"(\ud83d\ud83d\ude00)", std::string(kFffd) + std::string(kEmoji)},
        OddTitle{"EscapedBackslashBeforeU", R"(\\ud83d)", R"(\ud83d)"},
        OddTitle{"WholePairIsKept", R"(\ud83d\ude00)", std::string(kEmoji)},
        OddTitle{"InvalidUtf8Bytes",
                 "a\xff\xfe"
                 "b",
                 "a" + std::string(kFffd) + std::string(kFffd) + "b"},
        OddTitle{"Utf8OfASurrogate",
                 "a\xED\xA0\xBD"
                 "b",
                 "a" + std::string(kFffd) + std::string(kFffd) + std::string(kFffd) + "b"},
        OddTitle{"TruncatedUtf8", "a\xF0\x9F\x98", "a" + std::string(kFffd) + std::string(kFffd) + std::string(kFffd)},
        OddTitle{"OverlongUtf8", "a\xC0\xAF", "a" + std::string(kFffd) + std::string(kFffd)}),
    [](const ::testing::TestParamInfo<OddTitle>& p) { return p.param.name; });

class MalformedInputTest : public HostTest {};

TEST_F(MalformedInputTest, HostRemovesItsSocketWhenItClosesOnABadFrame) {
  auto& extension = StartServingExtension();
  extension.SendRaw(Header(0));
  ASSERT_TRUE(extension.WaitHostExit(kWait));
  EXPECT_FALSE(fake::PathExists(SocketPath(0)));
}

TEST_F(MalformedInputTest, BrokenFrameBeforeHelloEndsTheHostWithoutASocket) {
  fake::FakeExtensionOptions options;
  options.send_hello = false;
  auto& extension = StartExtension(options);
  extension.SendRaw(Header(0));
  const auto status = extension.WaitHostExit(kWait);
  ASSERT_TRUE(status);
  EXPECT_TRUE(status->exited) << status->Describe();
  EXPECT_FALSE(fake::PathExists(SocketPath(0)));
}

// An unreadable message before hello is dropped: the hello after it is served.
TEST_F(MalformedInputTest, UnreadableMessageBeforeHelloIsDroppedAndHelloServed) {
  fake::FakeExtensionOptions options;
  options.send_hello = false;
  auto& extension = StartExtension(options);
  ASSERT_TRUE(extension.SendRaw(Frame("not json")));
  ASSERT_TRUE(extension.SendHello());
  ASSERT_TRUE(extension.WaitForSocket(0, kWait)) << "the host did not open its socket after hello";
  auto& shim = ConnectedShim();
  const auto tabs = shim.CallTool("list_tabs", Json::object(), kWait);
  ASSERT_TRUE(tabs && !fake::IsToolError(*tabs)) << (tabs ? tabs->dump() : "no answer");
}

// A request with an id the host can read but a wrong shape is answered
// (JSON-RPC: invalid request), not dropped silently, and the link stays up.
TEST_F(MalformedInputTest, RequestOfTheWrongShapeIsAnsweredInvalidRequest) {
  auto& extension = StartServingExtension();
  extension.SendMessage({{"jsonrpc", "2.0"}, {"id", 6}, {"method", 7}});
  const auto answer = extension.WaitForMessage([](const Json& m) { return m.value("id", Json()) == 6; }, kWait);
  ASSERT_TRUE(answer) << "the host ignored the request";
  EXPECT_EQ(answer->message["error"].value("code", 0), rpc_error::kInvalidRequest);
  EXPECT_FALSE(extension.host_exit_status()) << "the host exited";
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
