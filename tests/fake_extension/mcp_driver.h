// Drives the tabbridge shim the way an MCP client does: spawns it with pipes,
// speaks newline-delimited JSON-RPC on its stdin/stdout.
#pragma once

#include <chrono>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/fake_extension/child_process.h"
#include "tests/fake_extension/rpc_channel.h"

namespace tb::fake {

struct McpDriverOptions {
  std::string shim_binary;
  std::vector<std::string> args;  // after the binary, e.g. --caps upload
  std::string socket_dir;         // the shim's TABBRIDGE_SOCKET_DIR
  std::vector<std::pair<std::string, std::string>> env;
  std::string stderr_path;  // empty: inherit ours
};

class McpDriver {
 public:
  static std::expected<std::unique_ptr<McpDriver>, std::string> Start(const McpDriverOptions& options);
  // Closes the shim's stdin (its signal to exit) and reaps it; SIGKILL if it lingers.
  ~McpDriver();

  RpcChannel& rpc() { return rpc_; }
  ChildProcess& process() { return *process_; }

  // initialize + notifications/initialized; the initialize response.
  std::optional<Json> Initialize(milliseconds timeout);
  // The whole response message of a tools/call (result or error).
  std::optional<Json> CallTool(std::string_view name, Json arguments, milliseconds timeout);
  std::int64_t SendCallTool(std::string_view name, Json arguments);
  // Tool names of tools/list, or nullopt when it did not answer with a list.
  std::optional<std::vector<std::string>> ListToolNames(milliseconds timeout);

 private:
  explicit McpDriver(std::unique_ptr<ChildProcess> process);

  std::unique_ptr<ChildProcess> process_;
  RpcChannel rpc_;
};

// Helpers over tools/call responses.
bool IsToolError(const Json& response);        // result.isError == true
std::string ToolText(const Json& response);    // result.content[0].text, or ""
const Json& Structured(const Json& response);  // result.structuredContent, or null

}  // namespace tb::fake
