// The shim's MCP server, fed lines as an MCP client would send them on
// stdin: whatever arrives, it answers or ignores, and never throws out of
// its handlers (this build aborts if one does). connect_browser is left out:
// it would look for browsers and could start one.
#include <csignal>
#include <cstdint>
#include <string>
#include <string_view>

#include <spdlog/spdlog.h>

#include "common/jsonrpc.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "fuzz/uv_peer.h"
#include "mcp_shim/mcp_server.h"

namespace {

bool StartsABrowser(std::string_view line) {
  const tb::Json json = tb::Json::parse(line, nullptr, false);
  if (!json.is_object()) return false;
  const auto params = json.find("params");
  if (params == json.end() || !params->is_object()) return false;
  const auto name = params->find("name");
  return name != params->end() && *name == tb::tools::kConnectBrowser;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  std::signal(SIGPIPE, SIG_IGN);  // as the programs do: a closed peer is an error, not a signal
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string input;
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  while (!rest.empty()) {
    const auto end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    if (!StartsABrowser(line)) input.append(line).push_back('\n');
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  uv_loop_t loop;
  uv_loop_init(&loop);
  {
    tb::fuzz::Peer client;
    auto transport = tb::fuzz::Peer::Pair(&loop, tb::Framing::kLine, tb::kMaxLineBytes, client);
    tb::McpServer server(&loop, std::move(transport));
    server.Start();
    client.Write(input);
    client.Close();  // EOF: the server shuts down as when the client leaves
    uv_run(&loop, UV_RUN_DEFAULT);
  }
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
  return 0;
}
