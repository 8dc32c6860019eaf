// Host -> extension messages over Chrome's 1 MiB limit go out as `chunk`
// notifications that put back together give the original byte for byte
// (docs/protocol.md §1).
#include <algorithm>

#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

constexpr std::size_t kHugeUrl = 3 * 1024 * 1024;
// Every byte of it escaped twice is 4x the bytes to parse on each hop: 1.25 MiB
// still makes several chunks, and stays within the wait under ASan at -O0.
constexpr std::size_t kEscapedUrl = 1280 * 1024;
// Multi-MB requests through the fake extension take seconds under ASan (20 s
// for 3 MiB escaped on a slow machine): the test is about framing, not speed.
constexpr std::chrono::milliseconds kChunkWait = 60s;

class ChunkingTest : public HostTest {
 protected:
  // Opens a tab on `url` through the shim; the tabs.create the extension got.
  std::optional<fake::Received> OpenThrough(const std::string& url) {
    extension_ = &StartServingExtension(0, WithEnv("TABBRIDGE_EXTENSION_DEADLINE_MS", "60000"));
    auto& shim = ConnectedShim();
    const auto response = shim.CallTool("open_tab", {{"url", url}, {"focus", false}}, kChunkWait);
    if (!response) {
      ADD_FAILURE() << "open_tab did not answer";
      return std::nullopt;
    }
    EXPECT_FALSE(fake::IsToolError(*response)) << fake::ToolText(*response).substr(0, 400);
    return extension_->WaitForRequest(ext_method::kTabsCreate, kChunkWait);
  }

  std::uint32_t LargestFrame() const {
    const auto lengths = extension_->frame_lengths();
    return lengths.empty() ? 0 : *std::ranges::max_element(lengths);
  }

  fake::FakeExtension* extension_ = nullptr;
};

TEST_F(ChunkingTest, OversizedRequestReachesTheExtensionWhole) {
  const std::string url = LongUrl(kHugeUrl);
  const auto request = OpenThrough(url);
  ASSERT_TRUE(request) << "the extension never got tabs.create";
  const std::string got = request->message["params"].value("url", "");
  EXPECT_EQ(got.size(), url.size());
  EXPECT_TRUE(got == url) << "the reassembled url differs from the one sent";  // not printed: 3 MB
}

TEST_F(ChunkingTest, OversizedRequestIsSplitIntoFramesOfAtMostOneMebibyte) {
  auto& extension = StartServingExtension();
  auto& shim = ConnectedShim();
  const auto response = shim.CallTool("open_tab", {{"url", LongUrl(kHugeUrl)}, {"focus", false}}, kWait);
  ASSERT_TRUE(response);
  const auto request = extension.WaitForRequest(ext_method::kTabsCreate, kWait);
  ASSERT_TRUE(request);
  EXPECT_GT(request->frames, 1u) << "a 3 MB request must arrive as several chunks";
  const auto lengths = extension.frame_lengths();
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    EXPECT_LE(lengths[i], kMaxFrameToExtension) << "frame " << i << " of " << lengths.size();
  }
}

TEST_F(ChunkingTest, ChunksAreCutOnUtf8CharacterBoundaries) {
  // "€€a" is 7 bytes and the slice size (384 KiB) is 5 mod 7, so the cuts
  // fall at every offset of the pattern, four of seven inside a €: a cut at a
  // plain byte count would split some, and the host's serialiser would turn
  // the halves into U+FFFD.
  const std::string url = LongUrl(kHugeUrl,
                                  "\xE2\x82\xAC\xE2\x82\xAC"
                                  "a");
  const auto request = OpenThrough(url);
  ASSERT_TRUE(request);
  EXPECT_GT(request->frames, 1u);
  const std::string got = request->message["params"].value("url", "");
  EXPECT_EQ(got.size(), url.size());
  EXPECT_TRUE(got == url) << "a chunk boundary split a UTF-8 character";
}

TEST_F(ChunkingTest, FramesStayUnderTheLimitWhenEveryByteNeedsEscaping) {
  // Quotes and backslashes are escaped twice on the way (the request's JSON,
  // then the chunk's data string): the worst case for a slice's frame size.
  const std::string url = LongUrl(kEscapedUrl, "\\\"");
  const auto request = OpenThrough(url);
  ASSERT_TRUE(request);
  EXPECT_TRUE(request->message["params"].value("url", "") == url) << "the reassembled url differs";
  EXPECT_LE(LargestFrame(), kMaxFrameToExtension);
}

TEST_F(ChunkingTest, RequestWithinTheLimitIsOneFrame) {
  const auto request = OpenThrough(LongUrl(512 * 1024));
  ASSERT_TRUE(request);
  EXPECT_EQ(request->frames, 1u);
}

}  // namespace
}  // namespace tb::test
