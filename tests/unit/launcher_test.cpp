// A launched browser gets native WebMCP without overriding the user's choice.
#include "mcp_shim/launcher.h"

#include <gtest/gtest.h>

namespace tb {
namespace {

using Args = std::vector<std::string>;

TEST(EnableWebMcp, AddsTheFeatureWhenNothingDecidesIt) {
  Args args = {"--headless=new"};
  EnableWebMcp(args);
  EXPECT_EQ(args, (Args{"--headless=new", "--enable-features=WebMCP"}));
}

// Chrome honours only the last --enable-features: ours must join it.
TEST(EnableWebMcp, JoinsTheLastEnableFeaturesSwitch) {
  Args args = {"--enable-features=A", "--enable-features=B"};
  EnableWebMcp(args);
  EXPECT_EQ(args, (Args{"--enable-features=A", "--enable-features=B,WebMCP"}));
}

TEST(EnableWebMcp, LeavesAnExplicitDisableAlone) {
  Args args = {"--disable-features=WebMCP"};
  EnableWebMcp(args);
  EXPECT_EQ(args, (Args{"--disable-features=WebMCP"}));
}

}  // namespace
}  // namespace tb
