#include "common/framing.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace tb {
namespace {

std::string Header(std::uint32_t length) {
  std::string bytes(sizeof(length), '\0');
  std::memcpy(bytes.data(), &length, sizeof(length));
  return bytes;
}

TEST(NativeFramer, DecodesOneFrame) {
  NativeFramer framer(1024);
  std::vector<std::string> out;
  ASSERT_TRUE(framer.Feed(NativeFramer::Encode("{\"a\":1}"), out));
  EXPECT_EQ(out, std::vector<std::string>{"{\"a\":1}"});
}

TEST(NativeFramer, ReassemblesAFrameSplitIntoSingleBytes) {
  NativeFramer framer(1024);
  const std::string bytes = NativeFramer::Encode("hello") + NativeFramer::Encode("world");
  std::vector<std::string> out;
  for (char c : bytes) ASSERT_TRUE(framer.Feed(std::string_view(&c, 1), out));
  EXPECT_EQ(out, (std::vector<std::string>{"hello", "world"}));
}

TEST(NativeFramer, DecodesSeveralFramesFromOneRead) {
  NativeFramer framer(1024);
  std::vector<std::string> out;
  ASSERT_TRUE(framer.Feed(NativeFramer::Encode("a") + NativeFramer::Encode("bb") + NativeFramer::Encode("ccc"), out));
  EXPECT_EQ(out, (std::vector<std::string>{"a", "bb", "ccc"}));
}

TEST(NativeFramer, HoldsAPartialFrameUntilItCompletes) {
  NativeFramer framer(1024);
  std::vector<std::string> out;
  ASSERT_TRUE(framer.Feed(Header(6) + "abc", out));
  EXPECT_TRUE(out.empty());
  ASSERT_TRUE(framer.Feed("def", out));
  EXPECT_EQ(out, std::vector<std::string>{"abcdef"});
}

TEST(NativeFramer, RefusesALengthOverTheLimit) {
  NativeFramer framer(1024);
  std::vector<std::string> out;
  EXPECT_FALSE(framer.Feed(Header(1025), out));
  EXPECT_NE(framer.error().find("exceeds the limit"), std::string::npos);
}

TEST(NativeFramer, RefusesAHugeLengthWithoutWaitingForItsBytes) {
  NativeFramer framer(64 * 1024 * 1024);
  std::vector<std::string> out;
  EXPECT_FALSE(framer.Feed(Header(0xFFFFFFFFu), out));
}

TEST(NativeFramer, RefusesAZeroLengthFrame) {
  NativeFramer framer(1024);
  std::vector<std::string> out;
  EXPECT_FALSE(framer.Feed(Header(0), out));
  EXPECT_EQ(framer.error(), "zero-length frame");
}

TEST(NativeFramer, TreatsTextWithoutAHeaderAsAnOversizedFrame) {
  // "{\"js" read as a little-endian length is ~1.9 GB: garbage, not a stall.
  NativeFramer framer(64 * 1024 * 1024);
  std::vector<std::string> out;
  EXPECT_FALSE(framer.Feed("{\"jsonrpc\":\"2.0\"}", out));
}

TEST(NativeFramer, StaysFailedAfterAnError) {
  NativeFramer framer(1024);
  std::vector<std::string> out;
  ASSERT_FALSE(framer.Feed(Header(0), out));
  EXPECT_FALSE(framer.Feed(NativeFramer::Encode("ok"), out));
  EXPECT_TRUE(out.empty());
}

TEST(LineFramer, SplitsLines) {
  LineFramer framer(1024);
  std::vector<std::string> out;
  ASSERT_TRUE(framer.Feed("one\ntwo\n", out));
  EXPECT_EQ(out, (std::vector<std::string>{"one", "two"}));
}

TEST(LineFramer, HoldsAnUnterminatedLine) {
  LineFramer framer(1024);
  std::vector<std::string> out;
  ASSERT_TRUE(framer.Feed("{\"a\":", out));
  EXPECT_TRUE(out.empty());
  ASSERT_TRUE(framer.Feed("1}\n", out));
  EXPECT_EQ(out, std::vector<std::string>{"{\"a\":1}"});
}

TEST(LineFramer, DropsCarriageReturnsAndBlankLines) {
  LineFramer framer(1024);
  std::vector<std::string> out;
  ASSERT_TRUE(framer.Feed("a\r\n\n\r\nb\n", out));
  EXPECT_EQ(out, (std::vector<std::string>{"a", "b"}));
}

TEST(LineFramer, RefusesALineOverTheLimit) {
  LineFramer framer(8);
  std::vector<std::string> out;
  EXPECT_FALSE(framer.Feed("0123456789", out));
  EXPECT_NE(framer.error().find("exceeds the limit"), std::string::npos);
}

// Found by fuzz/line_framer_fuzz: a whole line over the limit in one read
// passed, the same bytes in two reads did not.
TEST(LineFramer, RefusesALineOverTheLimitThatArrivesWithItsNewline) {
  LineFramer framer(8);
  std::vector<std::string> out;
  EXPECT_FALSE(framer.Feed("ok\n0123456789\n", out));
  EXPECT_EQ(out, (std::vector<std::string>{"ok"}));  // what came before it still counts
  EXPECT_NE(framer.error().find("exceeds the limit"), std::string::npos);
}

TEST(LineFramer, AcceptsALongLineArrivingInPieces) {
  LineFramer framer(1 << 20);
  std::vector<std::string> out;
  const std::string piece(1000, 'x');
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(framer.Feed(piece, out));
  ASSERT_TRUE(framer.Feed("\n", out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].size(), 500'000u);
}

TEST(LineFramer, EncodeAppendsNewline) { EXPECT_EQ(LineFramer::Encode("{}"), "{}\n"); }

}  // namespace
}  // namespace tb
