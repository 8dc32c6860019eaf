#include "tests/fake_extension/mcp_driver.h"

#include <signal.h>

namespace tb::fake {

std::expected<std::unique_ptr<McpDriver>, std::string> McpDriver::Start(const McpDriverOptions& options) {
  ::signal(SIGPIPE, SIG_IGN);  // a shim that died is a failed write, not our death
  SpawnOptions spawn;
  spawn.argv = {options.shim_binary};
  spawn.argv.insert(spawn.argv.end(), options.args.begin(), options.args.end());
  spawn.env = options.env;
  spawn.env.emplace_back("TABBRIDGE_SOCKET_DIR", options.socket_dir);
  spawn.stderr_path = options.stderr_path;
  auto process = ChildProcess::Spawn(spawn);
  if (!process) return std::unexpected(process.error());
  return std::unique_ptr<McpDriver>(new McpDriver(std::move(*process)));
}

McpDriver::McpDriver(std::unique_ptr<ChildProcess> process)
    : process_(std::move(process)), rpc_(process_->stdout_fd(), process_->stdin_fd()) {}

McpDriver::~McpDriver() {
  process_->CloseStdin();
  if (!process_->WaitExit(std::chrono::seconds(10))) process_->Signal(SIGKILL);
}

std::optional<Json> McpDriver::Initialize(milliseconds timeout) {
  auto response = rpc_.Request("initialize",
                               {{"protocolVersion", "2025-06-18"},
                                {"capabilities", Json::object()},
                                {"clientInfo", {{"name", "tabbridge-tests"}, {"version", "0"}}}},
                               DeadlineIn(timeout));
  if (response) rpc_.SendNotification("notifications/initialized");
  return response;
}

std::int64_t McpDriver::SendCallTool(std::string_view name, Json arguments) {
  Json params = {{"name", name}};
  if (!arguments.is_null()) params["arguments"] = std::move(arguments);
  return rpc_.SendRequest("tools/call", std::move(params));
}

std::optional<Json> McpDriver::CallTool(std::string_view name, Json arguments, milliseconds timeout) {
  return rpc_.WaitResponse(SendCallTool(name, std::move(arguments)), DeadlineIn(timeout));
}

std::optional<std::vector<std::string>> McpDriver::ListToolNames(milliseconds timeout) {
  const auto response = rpc_.Request("tools/list", Json::object(), DeadlineIn(timeout));
  if (!response || !response->contains("result")) return std::nullopt;
  const Json& tools = (*response)["result"].value("tools", Json());
  if (!tools.is_array()) return std::nullopt;
  std::vector<std::string> names;
  for (const auto& tool : tools) names.push_back(tool.value("name", ""));
  return names;
}

bool IsToolError(const Json& response) {
  const auto result = response.find("result");
  return result != response.end() && result->value("isError", false);
}

std::string ToolText(const Json& response) {
  const auto result = response.find("result");
  if (result == response.end()) return "";
  const auto content = result->find("content");
  if (content == result->end() || !content->is_array() || content->empty()) return "";
  return (*content)[0].value("text", "");
}

const Json& Structured(const Json& response) {
  static const Json kNull;
  const auto result = response.find("result");
  if (result == response.end()) return kNull;
  const auto structured = result->find("structuredContent");
  return structured != result->end() ? *structured : kNull;
}

}  // namespace tb::fake
