// What the host reads of the browser's command line: WebMCP on or off, the
// debugger bar hidden.
#include "host/browser_flags.h"

#include <gtest/gtest.h>

#ifndef _WIN32
#include <unistd.h>
#endif

namespace tb {
namespace {

using Args = std::vector<std::string>;

TEST(BrowserFlags, SilentDebuggerApiHidesTheBar) {
  EXPECT_TRUE(HidesDebuggerBar({"/usr/lib/chromium/chromium", "--silent-debugger-extension-api", "--headless=new"}));
  EXPECT_FALSE(HidesDebuggerBar({"/usr/lib/chromium/chromium", "--headless=new"}));
  EXPECT_FALSE(HidesDebuggerBar({"/usr/lib/chromium/chromium", "--silent-debugger-extension-api-x"}));
  EXPECT_FALSE(HidesDebuggerBar({}));
}

TEST(BrowserFlags, WebMcpOnlyWhenEnabledAndNotDisabled) {
  EXPECT_TRUE(EnablesWebMcp({"chrome", "--enable-features=Foo,WebMCP"}));
  EXPECT_FALSE(EnablesWebMcp({"chrome", "--enable-features=Foo"}));
  EXPECT_FALSE(EnablesWebMcp({"chrome", "--enable-features=WebMCP", "--disable-features=WebMCP"}));
  EXPECT_FALSE(EnablesWebMcp({}));
}

#ifndef _WIN32
TEST(BrowserFlags, ReadsAProcessCommandLine) {
  const Args own = CommandLineOf(static_cast<long>(getpid()));
  ASSERT_FALSE(own.empty());
  EXPECT_NE(own.front().find("tabbridge_unit_tests"), std::string::npos) << own.front();
  EXPECT_TRUE(CommandLineOf(0).empty());
  EXPECT_TRUE(CommandLineOf(-1).empty());
}
#endif

}  // namespace
}  // namespace tb
