// The MCP side of the shim (MessageHandler over the stdio Transport): the
// initialize handshake (2025-06-18, 2025-11-25) and the per-request revision
// of 2026-07-28 (server/discover, subscriptions/listen), the DISCONNECTED
// state served locally, everything else forwarded to the host. One reply per
// request, always (a listen stream's is its end, which only a cancel brings).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/tool_catalog.h"
#include "common/transport.h"
#include "mcp_shim/browser_connect.h"
#include "mcp_shim/browser_recovery.h"
#include "mcp_shim/client_grants.h"
#include "mcp_shim/client_roots.h"
#include "mcp_shim/host_link.h"
#include "mcp_shim/launcher.h"
#include "mcp_shim/list_catch_up.h"

namespace tb {

// What the command line asks of this session; the host is told in hello.
struct SessionOptions {
  std::vector<std::string> caps;          // page-tool capabilities (tabbridge --caps)
  bool list_page_tools = true;            // false: --disable-webmcp-auto-register
  bool read_only = false;                 // --read-only: the policy's `read` alone
  std::vector<std::string> upload_roots;  // --upload-root DIR: upload_file may read there too
  std::optional<tools::Surface> surface;  // --surface; none: by the client (SurfaceFor)
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
  void OnStatelessRequest(const rpc::Message& msg, const std::string& key, const Json& params);
  void OnListen(const Json& id, const std::string& key, const Json& params);
  void OnToolsCall(const Json& id, const Json& params);
  // connect_browser; with `then`, a call that needed the browser goes on
  // once connected (given connect's result) instead of connect's answer.
  void ConnectBrowser(const Json& id, const std::string& key, const Json& args, const Json& progress_token,
                      std::function<void(Json connected)> then = nullptr);
  // The hello every connection of this session sends (BrowserConnect, a restart).
  Json HelloParams() const;
  // Takes `link` as the session's host: its notifications and loss come here.
  void AttachHost(std::unique_ptr<HostLink> link);
  // The recovery is over (browser_recovery.h): the tool list changed; the requests that waited run.
  void OnRecoverySettled();
  void ForwardUpload(const Json& id, const std::string& key, Json params);
  void ReadAndForwardUpload(const Json& id, const std::string& key, Json params);
  // `may_ask`: a tools/call whose answer is a site question nobody could
  // answer in the browser is asked of the client's user (client_grants.h).
  // `note`: a line the answer ends with (what happened before the call).
  void Forward(const Json& id, const std::string& key, const std::string& method, Json params, bool may_ask = true,
               std::string note = "");
  // Asks the client's user `question`, tells the host the answer, runs the call again.
  void AskClientThenRetry(const Json& id, const std::string& key, Json params, const ClientGrants::Question& question,
                          Json denial);
  void OnHostNotification(const std::string& method, const Json& params);
  void OnHostLost(std::string_view reason);
  void NotifyToolsChanged();
  // The surface this session gets: --surface, else by the client's name.
  tools::Surface surface() const;
  // tools/list while no browser is connected.
  Json DisconnectedTools() const;
  void Reply(const std::string& key, Json message);
  void ReplyRaw(const std::string& key, const rpc::ResultPrefix& answer, const Json& id);  // relayed, unparsed
  // Sends the answer `text` of request `key`: a call's through catch_up_.
  void Deliver(const std::string& key, const std::string& method, std::string text);
  void Send(const Json& message);
  void Shutdown();

  uv_loop_t* loop_;
  std::unique_ptr<Transport> client_;
  std::unique_ptr<HostLink> host_;
  std::unique_ptr<BrowserConnect> connecting_;
  std::string connecting_key_;
  BrowserRecovery recovery_;  // the launched browser, the session's tabs, a dead browser's restart
  // tools/list and tools/call that came while the recovery was busy, in
  // order, by dumped request id (a cancel takes one out).
  struct Waiting {
    std::string key;
    std::function<void()> run;
  };
  std::vector<Waiting> waiting_;
  Json client_info_ = Json::object();
  SessionOptions options_;
  int log_level_ = 0;            // index into the MCP levels; messages below it are not sent
  bool initialized_ = false;     // a 2025 client: list changes and log messages go to it unasked
  bool stateless_seen_ = false;  // a 2026-07-28 request came: nothing goes to it unasked
  // list_changed sent so far, and when the host was last attached: a restore
  // whose calls changed the list (the host said so) needs no other one.
  std::uint64_t list_changes_ = 0;
  std::uint64_t list_changes_at_attach_ = 0;

  ClientRoots roots_;     // where upload_file reads from (with --upload-root)
  ClientGrants grants_;   // site questions asked through the client (elicitation)
  ListCatchUp catch_up_;  // a call's answer after a list change waits for the client's re-fetch

  // What a result must carry besides what its producer wrote.
  enum class ResultShape {
    kAsIs,       // 2025 revisions
    kComplete,   // 2026-07-28: resultType
    kCacheable,  // 2026-07-28 tools/list: resultType, ttlMs, cacheScope
  };
  struct Pending {
    std::int64_t host_id = 0;  // the host-side id to cancel (0 when served locally)
    ResultShape shape = ResultShape::kAsIs;
    std::string method;  // the request's
  };
  // Client requests not yet answered, by dumped id. A request is answered only
  // while it is here.
  std::unordered_map<std::string, Pending> pending_;
  // Open subscriptions/listen streams, by dumped request id (also in pending_).
  struct Subscription {
    Json id;
    bool tools_list_changed = false;
  };
  std::unordered_map<std::string, Subscription> subscriptions_;
};

}  // namespace tb
