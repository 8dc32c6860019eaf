#include "tests/host/harness.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "common/socket_dir.h"

namespace tb::test {
namespace {

// What the sanitizer runtimes print; any of it in a product's stderr is a bug.
constexpr std::string_view kSanitizerMarks[] = {
    "ERROR: AddressSanitizer",   "ERROR: LeakSanitizer", "ERROR: UndefinedBehaviorSanitizer",
    "WARNING: AddressSanitizer", "runtime error:",
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Tail(const std::string& text, std::size_t max) {
  return text.size() <= max ? text : "…" + text.substr(text.size() - max);
}

[[noreturn]] void SetupFailed(const std::string& what) { throw std::runtime_error("test setup: " + what); }

// This test's socket directory; on Windows a pipe prefix named after the
// work dir (pipes live in \\.\pipe\, not in a directory).
std::string TestSocketDir(const fake::TempDir& work) {
  if (kThisPlatform == Platform::kWindows) {
    return "\\\\.\\pipe\\" + std::filesystem::u8path(work.path()).filename().string();
  }
  return work.Join("sock");
}

}  // namespace

HostTest::HostTest() : socket_dir_(TestSocketDir(work_)) {
  if (kThisPlatform == Platform::kWindows) return;
  if (!std::filesystem::create_directory(socket_dir_)) SetupFailed("cannot create " + socket_dir_);
  std::filesystem::permissions(socket_dir_, std::filesystem::perms::owner_all);  // 0700
}

std::string HostTest::NewLog(const std::string& what) {
  logs_.push_back(work_.Join(what + "-" + std::to_string(logs_.size()) + ".log"));
  return logs_.back();
}

std::string HostTest::SocketPath(int slot) const { return tb::SocketPath(socket_dir_, slot); }

fake::FakeExtension& HostTest::StartExtension(fake::FakeExtensionOptions options) {
  if (options.host_binary.empty()) options.host_binary = TB_HOST_BINARY;
  if (options.socket_dir.empty()) options.socket_dir = socket_dir_;
  if (options.stderr_path.empty()) options.stderr_path = NewLog("host");
  options.env.emplace_back("TABBRIDGE_LOG_LEVEL", "debug");
  // The test's own policy and audit log, never the user's (docs/policy.md);
  // first, so a test's own choice wins. The policy allows every site: the
  // product's default asks a person, and the fake extension has none.
  if (const std::string policy = work_.Join("policy.json"); !std::filesystem::exists(policy)) {
    std::ofstream(policy) << R"({"default": "allow", "rules": [{"sites": ["file:"], "allow": ["all"]}]})";
  }
  options.env.insert(options.env.begin(),
                     {{"TABBRIDGE_POLICY", work_.Join("policy.json")}, {"XDG_STATE_HOME", work_.Join("state")}});
  auto extension = fake::FakeExtension::Start(std::move(options));
  if (!extension) SetupFailed(extension.error());
  extensions_.push_back(std::move(*extension));
  return *extensions_.back();
}

fake::FakeExtension& HostTest::StartServingExtension(int slot, fake::FakeExtensionOptions options) {
  auto& extension = StartExtension(std::move(options));
  if (!extension.WaitForSocket(slot, kWait)) SetupFailed("the host never served " + extension.SocketPath(slot));
  return extension;
}

fake::McpDriver& HostTest::StartShim(bool initialize, std::vector<std::string> args) {
  if (std::string_view(TB_SHIM_BINARY).empty()) SetupFailed("no tabbridge shim in this build (tests/windows)");
  auto shim = fake::McpDriver::Start({.shim_binary = TB_SHIM_BINARY,
                                      .args = std::move(args),
                                      .socket_dir = socket_dir_,
                                      .env = {{"TABBRIDGE_LOG_LEVEL", "debug"}},
                                      .stderr_path = NewLog("shim")});
  if (!shim) SetupFailed(shim.error());
  shims_.push_back(std::move(*shim));
  if (initialize && !shims_.back()->Initialize(kWait)) SetupFailed("the shim did not answer initialize");
  return *shims_.back();
}

fake::McpDriver& HostTest::ShimOfClient(std::string_view client_name, std::vector<std::string> args) {
  auto& shim = StartShim(false, std::move(args));
  const auto response = shim.rpc().Request("initialize",
                                           {{"protocolVersion", "2025-11-25"},
                                            {"capabilities", Json::object()},
                                            {"clientInfo", {{"name", client_name}, {"version", "1"}}}},
                                           fake::DeadlineIn(kWait));
  if (!response || !response->contains("result")) SetupFailed("initialize did not answer a result");
  shim.rpc().SendNotification("notifications/initialized");
  return shim;
}

fake::McpDriver& HostTest::ConnectedShim(std::vector<std::string> args) {
  auto& shim = StartShim(true, std::move(args));
  const auto response = shim.CallTool("connect_browser", Json::object(), kWait);
  if (!response) SetupFailed("connect_browser did not answer");
  if (fake::IsToolError(*response) || !fake::Structured(*response).value("connected", false)) {
    SetupFailed("connect_browser failed: " + response->dump());
  }
  shim.rpc().TakeNotifications();  // the list_changed of connecting
  return shim;
}

fake::SocketClient& HostTest::RawClient(int slot, bool hello) {
  auto client = fake::SocketClient::Connect(SocketPath(slot), kWait);
  if (!client) SetupFailed(client.error());
  clients_.push_back(std::move(*client));
  if (hello) {
    const auto response = clients_.back()->Hello(kWait);
    if (!response || !response->contains("result")) {
      SetupFailed("tabbridge/hello failed: " + (response ? response->dump() : std::string("no answer")));
    }
  }
  return *clients_.back();
}

void HostTest::TearDown() {
  clients_.clear();
  // Shims first: a shim outliving its host would log a lost connection.
  for (auto& shim : shims_) {
    if (!shim->process().exit_status()) {  // else the test already saw it end
      shim->process().CloseStdin();
      shim->rpc().WaitEof(fake::DeadlineIn(kWait));  // what it still had to say is checked below
    }
    for (const auto& line : shim->rpc().garbage())
      ADD_FAILURE() << "the shim wrote a non-JSON-RPC line on stdout: " << line;
    if (shim->process().exit_status()) continue;
    const auto status = shim->process().WaitExit(kWait);
    EXPECT_TRUE(status && status->clean()) << "shim " << shim->process().pid() << " "
                                           << (status ? status->Describe() : "did not exit when its stdin closed");
  }
  shims_.clear();
  for (auto& extension : extensions_) {
    if (!extension->host_exit_status()) {  // else the test already saw it end
      extension->CloseHostStdin();
      const auto status = extension->WaitHostExit(kWait);
      EXPECT_TRUE(status && status->clean()) << "host " << extension->host_pid() << " "
                                             << (status ? status->Describe() : "did not exit when its stdin closed");
    }
    extension->WaitForHostEof(kWait);  // every frame it wrote has been read
    for (const auto& violation : extension->violations()) ADD_FAILURE() << "host broke native messaging: " << violation;
  }
  extensions_.clear();

  for (const auto& path : logs_) {
    const std::string log = ReadFile(path);
    for (const auto mark : kSanitizerMarks) {
      if (log.find(mark) != std::string::npos) {
        ADD_FAILURE() << "sanitizer report in " << path << ":\n" << Tail(log, 16'000);
        break;
      }
    }
  }
  if (HasFailure()) {
    for (const auto& path : logs_) std::cerr << "----- " << path << "\n" << Tail(ReadFile(path), 6'000) << "\n";
  }
}

std::string LongUrl(std::size_t size, std::string_view fill) {
  std::string url = "http://127.0.0.1/";
  url.reserve(size + fill.size());
  while (url.size() + fill.size() <= size) url.append(fill);
  return url;
}

fake::FakeExtensionOptions WithTabs(int tabs) {
  fake::FakeExtensionOptions options;
  options.tabs = tabs;
  return options;
}

fake::FakeExtensionOptions WithEnv(std::string key, std::string value) {
  fake::FakeExtensionOptions options;
  options.env.emplace_back(std::move(key), std::move(value));
  return options;
}

fake::FakeExtensionOptions WithSocketDir(std::string dir) {
  fake::FakeExtensionOptions options;
  options.socket_dir = std::move(dir);
  return options;
}

std::vector<std::string> ToolNames(const Json& response) {
  std::vector<std::string> names;
  if (!response.contains("result")) return names;
  for (const auto& tool : response["result"].value("tools", Json::array())) names.push_back(tool.value("name", ""));
  return names;
}

bool IsRequest(const Json& received, std::string_view method) {
  return received.contains("id") && received.value("method", "") == method;
}

}  // namespace tb::test
