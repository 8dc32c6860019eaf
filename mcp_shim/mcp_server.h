// The MCP side of the shim (MessageHandler over the stdio Transport): the
// initialize handshake, the DISCONNECTED state served locally, everything
// else forwarded to the host. One reply per request, always.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/transport.h"
#include "mcp_shim/browser_connect.h"
#include "mcp_shim/host_link.h"
#include "mcp_shim/launcher.h"

namespace tb {

// What the command line asks of this session; the host is told in hello.
struct SessionOptions {
  std::vector<std::string> caps;  // page-tool capabilities (tabbridge --caps)
  bool list_page_tools = true;    // false: --disable-webmcp-auto-register
  bool read_only = false;         // --read-only: the policy's `read` alone
};

class McpServer {
 public:
  McpServer(uv_loop_t* loop, std::unique_ptr<Transport> client, SessionOptions options = {});
  ~McpServer();
  void Start();

 private:
  void OnMessage(std::string text);
  void OnRequest(const rpc::Message& msg);
  void OnNotification(const rpc::Message& msg);
  void OnInitialize(const Json& id, const Json& params);
  void OnToolsCall(const Json& id, const Json& params);
  void ConnectBrowser(const Json& id, const std::string& key, const Json& args, const Json& progress_token);
  void Forward(const Json& id, const std::string& key, const std::string& method, Json params);
  void OnHostNotification(const std::string& method, const Json& params);
  void OnHostLost(std::string_view reason);
  void Reply(const std::string& key, Json message);
  void ReplyText(const std::string& key, const std::string& message);  // a relayed answer, already JSON
  void Send(const Json& message);
  void Shutdown();

  uv_loop_t* loop_;
  std::unique_ptr<Transport> client_;
  std::unique_ptr<HostLink> host_;
  std::unique_ptr<BrowserConnect> connecting_;
  std::string connecting_key_;
  std::unique_ptr<LaunchedBrowser> launched_;
  Json client_info_ = Json::object();
  SessionOptions options_;
  int log_level_ = 0;  // index into the MCP levels; messages below it are not sent
  // Client requests not yet answered, by dumped id: the host-side id to cancel
  // (0 when served locally). A request is answered only while it is here.
  std::unordered_map<std::string, std::int64_t> pending_;
};

}  // namespace tb
