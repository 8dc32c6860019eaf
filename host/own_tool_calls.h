// The page's own tools (WebMCP, forms, result lists, buttons) as the sessions
// get them: offered to the sessions focused on a tab, listed, said in answers
// on the dispatch surface (host/own_tools_told.cpp), let through by the call
// gate (AdmitOwn) and run by the extension in the very document that reported
// them (docs/protocol.md "The page's own tools"; what the model sees:
// docs/page_tools.md). A call made on a new page that does not offer its tool
// yet waits here for it (parked). A part of the host: it knows the host only
// by what it is handed here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/uv_util.h"
#include "host/call_gate.h"
#include "host/own_tool_registry.h"
#include "host/own_tools.h"
#include "host/policy_gate.h"
#include "host/reply_once.h"
#include "host/session.h"
#include "host/sessions.h"
#include "host/tab_table.h"
#include "host/tool_call.h"

namespace tb {

class OwnToolCalls {
 public:
  using Reply = ReplyOnce;
  struct Parts {
    uv_loop_t* loop;
    CallGate& gate;
    const TabTable& tabs;
    const PolicyGate& policy;
    OwnToolRegistry& own_tools;  // every tab's own tools, as the extension reports them
    Sessions& sessions;
    long browser_pid;  // whose command line may turn WebMCP on (WebMcpStatus)
  };

  explicit OwnToolCalls(Parts parts);

  // list_webmcp_tools and call_webmcp_tool: one signature with every host tool's part.
  void ListWebMcpTools(Session& session, const ToolCall& call, Reply reply);
  void CallWebMcpTool(Session& session, const ToolCall& call, Reply reply);
  // Runs `call.name` when it is one of the session's focused tab's own tools
  // (or was, until the page changed: then a tool error says so). False when
  // the name means nothing here.
  // `shown`: the page the call was made for (a parked call's rerun passes
  // the one it arrived with); by default the one the session was shown.
  bool CallOwnTool(Session& session, const ToolCall& call, Reply& reply,
                   std::optional<Session::ShownPage> shown = std::nullopt);

  // owntools.changed: a tab's current document reported its tools.
  void OnOwnTools(const Json& params);
  // Reruns the parked calls whose page now offers their tool, or whose wait
  // is over (the host calls it when the tabs changed).
  void ResumeParkedCalls();
  // Every parked call hears that the browser connection was lost. Idempotent.
  void Close();

  // The focused page's own tools as tools/list shows them, and whether some
  // are left out (then list_webmcp_tools and call_webmcp_tool are listed too).
  struct Listing {
    Json tools = Json::array();
    bool helpers = false;
  };
  Listing Listed(const Session& session) const;
  // The page whose own tools the focused tab offers `session` now (with
  // listed_only, only when tools/list shows some of them); nullopt when none.
  std::optional<Session::ShownPage> ShownPage(const Session& session, bool listed_only = false) const;
  // The document of the session's focused tab whose own tools are listed, else
  // the one that last reported ("" when none, or when its page crashed): the
  // tools that go with a navigation or a crash are news, those a page takes
  // away itself can wait (Session::RefreshTools).
  std::string FocusedDocument(const Session& session) const;
  // `result` (a tool call's) with the page's own tools said at its end when
  // they changed since the session was last told — on the dispatch surface,
  // where tools/list never has them (host/own_tools_told.cpp).
  Json WithOwnToolsTold(Session& session, Json result);
  // native, absent or unknown: whether the browser has WebMCP of its own.
  std::string WebMcpStatus() const;

 private:
  // The focused tab's own tools as `session` is offered them (empty when none).
  // What the policy must allow on the tab — and on the page that reported the
  // tools (the previous one while a navigation settles) — for them to be offered.
  enum class For { kCalling, kSeeing, kAnyway };  // read and act, read, nothing
  std::vector<own_tools::Offered> OfferedTo(const Session& session, For purpose = For::kCalling) const;
  std::optional<std::size_t> PageIndex(std::int64_t tab_id) const;
  std::string OwnToolNamesNow(const Session& session) const;
  // The rest of a call of the page's own tools, once the gate let it through.
  void Admitted(Session& session, const ToolCall& call, Reply reply, std::optional<Session::ShownPage> shown);
  void CallByName(Session& session, const std::string& request_key, const Json& args, Reply reply,
                  std::optional<Session::ShownPage> shown = std::nullopt);
  // The page a call is made for: `given`, else the one the session was shown
  // (else the one the focused tab offers now), with the session's answered_url.
  std::optional<Session::ShownPage> CalledFor(const Session& session, std::optional<Session::ShownPage> given) const;
  // A call of the page's own tools runs only on the site of the page it was
  // made for (`shown`: whose list the model has, and where the tab was when
  // it last heard from us): when the focused tab's tools are another site's,
  // the answer that says so (and the session is now shown that page: a
  // second call means it).
  std::optional<Json> OtherSiteAnswer(Session& session, const std::string& name,
                                      const std::optional<Session::ShownPage>& shown);
  // retry: a call the extension found on the page just left waits for the new
  // page and runs again there, once (on the same site only).
  void Run(Session& session, const std::string& request_key, const own_tools::Offered& offered, const Json& args,
           Reply reply, std::optional<Session::ShownPage> shown, bool retry = true);
  // A call of a page's own tool `name` (an MCP name or the page's) made on a
  // new page that does not offer it yet — one that has not reported, or has
  // but may register its tools late — waits until it does or the settle time
  // from the navigation is over; then `rerun` decides it there, instead of the
  // model hearing "the page changed" and retrying.
  using Rerun = std::function<void(Session& session, const std::string& request_key, Reply reply)>;
  bool WaitsForNewPage(const Session& session, const std::string& name) const;
  void ParkForNewPage(Session& session, const std::string& request_key, const std::string& name, Reply reply,
                      Rerun rerun);

  Parts parts_;
  struct ParkedCall {
    std::int64_t session_id;
    std::int64_t tab_id;
    std::string request_key;
    std::string name;
    Reply reply;
    Rerun rerun;
  };
  std::vector<ParkedCall> parked_calls_;
  Timer parked_timer_;  // the earliest end of a parked call's wait
};

}  // namespace tb
