// The host owns the truth: the tab table, the sessions and what each may see.
// It is single-threaded on one libuv loop; the extension and the sessions are
// its two kinds of peer.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/protocol.h"
#include "common/uv_util.h"
#include "host/extension_link.h"
#include "host/session.h"
#include "host/socket_server.h"
#include "host/tab_table.h"

namespace tb {

struct HostOptions {
  std::string socket_dir;
  long allowed_uid = -1;
  long browser_pid = 0;  // our parent: Chrome starts native hosts itself
  std::uint64_t extension_deadline_ms = kDefaultExtensionDeadlineMs;
};

class Host {
 public:
  Host(uv_loop_t* loop, std::unique_ptr<Transport> extension, HostOptions options);
  ~Host();

  // Starts talking to the extension; the socket opens once it says hello.
  void Start();
  // Closes every peer; the loop then runs dry. Idempotent.
  void Shutdown(std::string_view why);
  int exit_code() const { return exit_code_; }

  // --- for sessions ---
  Json HelloResult() const;
  Json ToolsFor(const Session& session) const;
  using Reply = std::function<void(Json result)>;
  // Runs a checked tool call for `session`; `reply` gets the MCP result.
  void CallTool(Session& session, const std::string& request_key, const std::string& name, const Json& args,
                const Json& progress_token, Reply reply);
  Session* FindSession(std::int64_t id);
  void RemoveSession(std::int64_t id);

 private:
  void OnExtensionEvent(const std::string& event, const Json& params);
  void OnHello(const Json& params);
  void OnConnection(uv_pipe_t* connection);
  // After the tab table changed: drop focus on vanished tabs, tell sessions.
  void AfterTabsChanged();

  Json TabSummary(const Tab& tab) const;
  // The page tools a focused tab gives `session` (its capabilities decide).
  Json PageToolNames(const Session& session) const;

  void ListTabs(Session& session, Reply reply);
  void OpenTab(Session& session, const std::string& request_key, const Json& args, Reply reply);
  void FocusTab(Session& session, const Json& args, Reply reply);
  void CloseTab(Session& session, const std::string& request_key, const Json& args, Reply reply);
  void CallPageTool(Session& session, const std::string& request_key, const std::string& name, const Json& args,
                    const Json& progress_token, Reply reply);
  void OnPageProgress(const Json& params);
  void OnConsoleEntry(const Json& params);

  uv_loop_t* loop_;
  HostOptions options_;
  ExtensionLink extension_;
  SocketServer server_;
  TabTable tabs_;
  Json browser_ = Json::object();
  Json extension_info_ = Json::object();
  bool ready_ = false;
  bool shutting_down_ = false;
  int exit_code_ = 0;
  std::int64_t next_session_id_ = 1;
  std::map<std::int64_t, std::unique_ptr<Session>> sessions_;
  // Extension calls whose progress goes to a session: call id -> (session, token).
  std::map<std::int64_t, std::pair<std::int64_t, Json>> progress_routes_;
  // Sessions closed from inside their own callbacks die on the next turn.
  std::vector<std::unique_ptr<Session>> graveyard_;
  Timer reaper_;
};

}  // namespace tb
