// The fixture every host test starts from: a private work dir (socket dir,
// process logs), fake extensions that spawn hosts, MCP drivers that spawn
// shims, raw socket clients. TearDown stops them all and fails the test if a
// process crashed, wrote a non-protocol line on stdout, broke the
// native-messaging rules, or reported a sanitizer finding.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fake_extension/fake_extension.h"
#include "tests/fake_extension/mcp_driver.h"
#include "tests/fake_extension/socket_client.h"
#include "tests/fake_extension/temp_dir.h"

namespace tb::test {

using namespace std::chrono_literals;
using fake::Json;

// How long any single wait may take before the test gives up. Generous on
// purpose (sanitizer builds are slow); a wait ends as soon as its event comes,
// and no test asserts on how long anything took.
inline constexpr std::chrono::milliseconds kWait = 20s;

class HostTest : public ::testing::Test {
 protected:
  HostTest();
  void TearDown() override;

  // Spawns a host behind a fake extension. Defaults: this test's socket dir,
  // its log file, two tabs. Throws (failing the test) when it cannot start.
  fake::FakeExtension& StartExtension(fake::FakeExtensionOptions options = {});
  // The same, then waits until the host serves browser-<slot>.sock.
  fake::FakeExtension& StartServingExtension(int slot = 0, fake::FakeExtensionOptions options = {});
  // Spawns a shim on this test's socket dir and initializes it (2025-06-18)
  // unless `initialize` is false.
  fake::McpDriver& StartShim(bool initialize = true, std::vector<std::string> args = {});
  // A shim (with `args`) initialized (2025-11-25) by a client named `client_name`.
  fake::McpDriver& ShimOfClient(std::string_view client_name, std::vector<std::string> args = {});
  // A shim (with `args`) that connect_browser {} connected to the one running host.
  fake::McpDriver& ConnectedShim(std::vector<std::string> args = {});
  // A raw client on browser-<slot>.sock; helloed unless `hello` is false.
  fake::SocketClient& RawClient(int slot = 0, bool hello = true);

  std::string SocketPath(int slot = 0) const;

  fake::TempDir work_{"tb-host-test-"};
  std::string socket_dir_;

 private:
  std::string NewLog(const std::string& what);

  std::vector<std::unique_ptr<fake::McpDriver>> shims_;
  std::vector<std::unique_ptr<fake::FakeExtension>> extensions_;
  std::vector<std::unique_ptr<fake::SocketClient>> clients_;
  std::vector<std::string> logs_;
};

// A URL of `size` bytes the host accepts for open_tab: http://127.0.0.1/ + `fill` repeated.
std::string LongUrl(std::size_t size, std::string_view fill = "a");

// Fake-extension options with one field changed from the defaults.
fake::FakeExtensionOptions WithTabs(int tabs);
fake::FakeExtensionOptions WithEnv(std::string key, std::string value);
fake::FakeExtensionOptions WithSocketDir(std::string dir);

// Tool names in a tools/list response.
std::vector<std::string> ToolNames(const Json& response);

// Whether `received` is the request `method` (optional) carrying `id`.
bool IsRequest(const Json& received, std::string_view method);

}  // namespace tb::test
