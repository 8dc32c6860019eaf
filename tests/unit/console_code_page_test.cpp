// When tabbridge.exe switches the Windows console to UTF-8 (mcp_shim/console.h):
// only for a console, never for the pipes of the MCP channel or a capture.
#include <gtest/gtest.h>

#include "mcp_shim/console.h"

namespace tb::console {
namespace {

TEST(ConsoleCodePage, AConsoleInAnotherCodePageBecomesUtf8) {
  EXPECT_EQ(OutputCodePageToSet(true, true, 850).value(), kUtf8CodePage);
  EXPECT_EQ(OutputCodePageToSet(true, false, 437).value(), kUtf8CodePage);  // stderr captured
}

// The MCP server: stdout is the client's pipe, stderr often the client's
// console, which is not ours to change (nor to restore under another shim).
TEST(ConsoleCodePage, TheMcpServerLeavesTheClientsConsoleAlone) { EXPECT_FALSE(OutputCodePageToSet(false, true, 437)); }

TEST(ConsoleCodePage, PipesAndUtf8ConsolesAreLeftAlone) {
  EXPECT_FALSE(OutputCodePageToSet(false, false, 850));  // an MCP client's pipes, PowerShell's capture
  EXPECT_FALSE(OutputCodePageToSet(true, true, kUtf8CodePage));
}

}  // namespace
}  // namespace tb::console
