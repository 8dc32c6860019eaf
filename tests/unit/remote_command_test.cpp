// `tabbridge remote`: the ssh command for a remote dev box, quoted as a
// shell reads it back.
#include "mcp_shim/remote_command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

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

// The default is the remote user's own directory, as the remote shell spells
// it: no fixed name in /tmp that another user there could take first.
TEST(RemoteInstructions, ByDefaultTheSocketGoesIntoTheRemoteUsersOwnDirectory) {
  const std::string text = RemoteInstructions(
      {.destination = "ann@devbox", .local_socket = "/run/user/1000/tabbridge/browser-0.sock", .remote_socket = ""});
  EXPECT_EQ(text.find("/tmp/"), std::string::npos) << text;
  EXPECT_NE(text.find("\nsock=$(ssh ann@devbox 'd=${XDG_RUNTIME_DIR:-$HOME/.tabbridge}; mkdir -p -m 700 \"$d\" && "
                      "test -O \"$d\" && printf %s \"$d/tabbridge-remote.sock\"') &&\n"
                      "ssh -o ExitOnForwardFailure=yes -R \"$sock\":/run/user/1000/tabbridge/browser-0.sock "
                      "ann@devbox\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("claude mcp add tabbridge -e "
                      "TABBRIDGE_HOST_SOCKET=\"${XDG_RUNTIME_DIR:-$HOME/.tabbridge}/tabbridge-remote.sock\" -- "
                      "tabbridge"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(ssh ann@devbox 'rm \"${XDG_RUNTIME_DIR:-$HOME/.tabbridge}/tabbridge-remote.sock\"')"),
            std::string::npos)
      << text;
}

// The probe, run by a real shell with and without XDG_RUNTIME_DIR: the
// directory is made 0700 and the path printed is inside it.
TEST(RemoteSocketProbe, MakesThePrivateDirectoryAndPrintsTheSocketInIt) {
  const std::string base = ::testing::TempDir() + "remote-probe-" + std::to_string(::getpid());
  const auto run = [&](const std::string& env) {
    std::string out;
    const std::string command = env + " sh -c " + ShellQuote(RemoteSocketProbe());
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
      char buffer[512];
      while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
      if (::pclose(pipe) != 0) out += " (failed)";
    }
    return out;
  };
  ASSERT_EQ(::mkdir(base.c_str(), 0700), 0);
  EXPECT_EQ(run("env -u XDG_RUNTIME_DIR HOME=" + base), base + "/.tabbridge/tabbridge-remote.sock");
  struct stat st {};
  ASSERT_EQ(::stat((base + "/.tabbridge").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  EXPECT_EQ(run("XDG_RUNTIME_DIR=" + base + "/run HOME=" + base), base + "/run/tabbridge-remote.sock");
  std::filesystem::remove_all(base);
}

TEST(RemoteInstructions, ForwardTheLocalSocketAndPointTheRemoteShimAtIt) {
  const std::string text = RemoteInstructions({.destination = "ann@devbox",
                                               .local_socket = "/run/user/1000/tabbridge/browser-0.sock",
                                               .remote_socket = "/home/ann/tb.sock"});
  EXPECT_NE(text.find("\nssh -o ExitOnForwardFailure=yes -R "
                      "/home/ann/tb.sock:/run/user/1000/tabbridge/browser-0.sock ann@devbox\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("claude mcp add tabbridge -e TABBRIDGE_HOST_SOCKET=/home/ann/tb.sock -- tabbridge"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("sock=$("), std::string::npos) << text;
}

}  // namespace
}  // namespace tb
