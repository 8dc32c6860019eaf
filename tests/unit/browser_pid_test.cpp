// BrowserPidAmong: the host's browser is its first ancestor that is not the
// cmd.exe Chrome starts native hosts through (host/browser_pid.h).
#include "host/browser_pid.h"

#include <gtest/gtest.h>

namespace tb {
namespace {

TEST(BrowserPidTest, TheParentWhenItIsNoCmd) {
  EXPECT_EQ(BrowserPidAmong(30, {{10, 1, "chrome.exe"}, {30, 10, "tabbridge-host.exe"}}), 10);
}

TEST(BrowserPidTest, PastTheCmdChromeStartsHostsThrough) {
  EXPECT_EQ(BrowserPidAmong(30, {{10, 1, "chrome.exe"}, {20, 10, "cmd.exe"}, {30, 20, "tabbridge-host.exe"}}), 10);
  EXPECT_EQ(BrowserPidAmong(30, {{10, 1, "msedge.exe"}, {20, 10, "CMD.EXE"}, {30, 20, "tabbridge-host.exe"}}), 10);
  EXPECT_EQ(BrowserPidAmong(30, {{10, 1, "brave.exe"},
                                 {20, 10, "C:\\Windows\\System32\\cmd.exe"},
                                 {25, 20, "cmd.exe"},
                                 {30, 25, "tabbridge-host.exe"}}),
            10);
}

TEST(BrowserPidTest, AnAncestorNotListedIsTheAnswer) {
  // cmd.exe's parent is gone from the snapshot: its pid is still the best we know.
  EXPECT_EQ(BrowserPidAmong(30, {{20, 10, "cmd.exe"}, {30, 20, "tabbridge-host.exe"}}), 10);
}

TEST(BrowserPidTest, ACycleOfReusedPidsEnds) {
  EXPECT_EQ(BrowserPidAmong(30, {{20, 25, "cmd.exe"}, {25, 20, "cmd.exe"}, {30, 20, "tabbridge-host.exe"}}), 20);
}

TEST(BrowserPidTest, NotListedIsZero) { EXPECT_EQ(BrowserPidAmong(30, {{10, 1, "chrome.exe"}}), 0); }

TEST(BrowserPidTest, ACmdLookalikeIsNoCmd) {
  EXPECT_EQ(BrowserPidAmong(30, {{20, 10, "notcmd.exe"}, {30, 20, "tabbridge-host.exe"}}), 20);
}

}  // namespace
}  // namespace tb
