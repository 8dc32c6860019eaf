// `tabbridge remote`: the ssh command for a remote dev box, quoted as a
// shell reads it back.
#include "mcp_shim/remote_command.h"

#include <gtest/gtest.h>

namespace tb {
namespace {

TEST(ShellQuote, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(ShellQuote("/run/user/1000/tabbridge/browser-0.sock"), "/run/user/1000/tabbridge/browser-0.sock");
  EXPECT_EQ(ShellQuote("me@devbox"), "me@devbox");
  EXPECT_EQ(ShellQuote("/tmp/a b.sock"), "'/tmp/a b.sock'");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellQuote(""), "''");
}

TEST(DefaultRemoteSocket, IsNamedForTheRemoteLogin) {
  EXPECT_EQ(DefaultRemoteSocket("ann@devbox", "bob"), "/tmp/tabbridge-ann.sock");
  EXPECT_EQ(DefaultRemoteSocket("devbox", "bob"), "/tmp/tabbridge-bob.sock");
}

TEST(RemoteInstructions, ForwardTheLocalSocketAndPointTheRemoteShimAtIt) {
  const std::string text = RemoteInstructions({.destination = "ann@devbox",
                                               .local_socket = "/run/user/1000/tabbridge/browser-0.sock",
                                               .remote_socket = "/tmp/tabbridge-ann.sock"});
  EXPECT_NE(text.find("\nssh -o ExitOnForwardFailure=yes -R "
                      "/tmp/tabbridge-ann.sock:/run/user/1000/tabbridge/browser-0.sock ann@devbox\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("claude mcp add tabbridge -e TABBRIDGE_HOST_SOCKET=/tmp/tabbridge-ann.sock -- tabbridge"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace tb
