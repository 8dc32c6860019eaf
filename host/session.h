// One shim connection: its own focused tab, its own tool list, its own
// list_changed notifications. Dispatches the host<->shim protocol
// (docs/protocol.md §2) and guarantees one reply per request.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/jsonrpc.h"
#include "common/tool_catalog.h"
#include "common/transport.h"
#include "host/reply_once.h"
#include "host/tool_call.h"

namespace tb {

class SessionHost;

class Session {
 public:
  Session(SessionHost& host, std::int64_t id, std::unique_ptr<Transport> transport);
  ~Session();

  std::int64_t id() const { return id_; }
  std::optional<std::int64_t> focused_tab() const { return focused_tab_; }
  const std::vector<std::string>& caps() const { return caps_; }
  // False with tabbridge --disable-webmcp-auto-register: the page's own tools
  // stay out of tools/list (list_webmcp_tools and call_webmcp_tool still work).
  bool lists_own_tools() const { return lists_own_tools_; }
  // tabbridge --read-only: the policy's `read` alone, whatever the file allows.
  bool read_only() const { return read_only_; }
  // How its tools/list follows the browser (hello surface; tools::Surface).
  tools::Surface surface() const { return surface_; }
  // The MCP client behind the shim, "name version" (for the audit log).
  std::string client() const { return client_version_.empty() ? client_name_ : client_name_ + " " + client_version_; }
  // Its clientInfo as hello gave it (host.state: the popup shows them).
  const std::string& client_name() const { return client_name_; }
  const std::string& client_version() const { return client_version_; }
  // Whether the shim said hello: only such a session counts as attached.
  bool helloed() const { return helloed_; }
  // The last tool this session called and when (ms since the epoch); empty before any.
  const std::string& last_tool() const { return last_tool_; }
  std::int64_t last_tool_at_ms() const { return last_tool_at_ms_; }
  // Whether `name` was one of the page's own tools in the last list this
  // session was given: a call to it after the page changed is a clear error.
  bool was_told(const std::string& name) const { return told_own_.contains(name); }
  void set_focused_tab(std::optional<std::int64_t> tab) {
    focused_tab_ = tab;
    if (tab) own_tabs_.insert(*tab);
  }
  // A tab this session opened (focused or not): one of the tabs its shim
  // reopens if the browser dies (TellTabs).
  void AdoptTab(std::int64_t tab) { own_tabs_.insert(tab); }
  // Sends tabbridge/tabs (its tabs still open, their URLs, its focus) when
  // they differ from the last sent, to a session whose hello asked (tellTabs).
  void TellTabs();
  // Tells a session that asked for its tabs that the user is closing it
  // (tabbridge/userDisconnected): its shim restores nothing of it.
  void TellUserDisconnected();
  // The page whose own tools this session was last shown: by a tools/list
  // that listed some, list_webmcp_tools, or a call answered "the page changed
  // to …". A call of the page's own tools runs only on that page's site, and
  // on the site of the tab when the session's last answer left
  // (OwnToolCalls::CallOwnTool); nullopt before any.
  struct ShownPage {
    std::string document_id;
    std::string url;
    std::string answered_url;  // answered_url() when the call came ("" when unknown)
  };
  const std::optional<ShownPage>& shown_page() const { return shown_page_; }
  // The focused tab's URL when the last answer to a tool call left ("" before
  // any, or without a focused tab): what the model last heard of, whatever
  // its client fetched since — a client fetches tools/list when told of a
  // change, while the model's next call may still be the one it made before.
  const std::string& answered_url() const { return answered_url_; }
  // The page's own tools as last said in an answer (the dispatch surface), as JSON lines.
  const std::string& own_tools_told() const { return own_tools_told_; }
  void set_own_tools_told(std::string told) { own_tools_told_ = std::move(told); }
  void set_shown_page(std::optional<ShownPage> page) {
    if (page) shown_page_ = std::move(page);
  }

  // Sends list_changed if this session's tool list differs from the one it was
  // last told about — unless one of its own tab-changing calls is running,
  // in which case that call reports the change once, before its reply. A
  // change that only takes some of the page's own tools away is not sent
  // alone: each list_changed makes the client fetch the list again and
  // breaks its prompt cache, and a tool that went costs the model nothing
  // until it is called. It goes with the next change that brings something,
  // or when the model calls a tool that went (TellRemovals). While the
  // focused tab's new page settles (Host::Settling: it has not reported its
  // tools yet) nothing is sent: a navigation is one change, told once the
  // page found its tools (or the settle time is over).
  void RefreshTools();
  // Sends the list_changed RefreshTools kept back for removals, if any.
  void TellRemovals();
  // A tool call that changes tabs holds notifications until it answers.
  void Hold() { ++holds_; }
  void Release() {
    if (holds_ > 0) --holds_;
    RefreshTools();
    TellTabs();
  }
  // Holds notifications (Hold) until the returned release runs (ReleaseHeld):
  // once, at the call's answer or its cancellation, whichever comes first (a
  // later run, a session gone or a host gone meanwhile: nothing).
  std::function<void()> HoldUntilReleased();
  // Ends the hold of a call that changes nothing of the session's own (a
  // page tool, the page's own tools, run_steps: HoldUntilReleased):
  // the list is looked at again only when a change came while held — a
  // click that changed nothing does not rebuild the session's list.
  void ReleaseHeld() {
    if (holds_ > 0) --holds_;
    if (holds_ == 0 && std::exchange(held_refresh_, false)) RefreshTools();
  }

  // Which call request `key` is: a number no other call of this session had
  // (0: none in flight). A client that reuses the id of a cancelled request
  // makes a new call under the same key; the serial tells them apart.
  std::uint64_t SerialOf(const std::string& key) const;
  // Whether call `serial` under `key` still waits for its answer (not
  // answered, not cancelled).
  bool Running(const std::string& key, std::uint64_t serial) const { return serial != 0 && SerialOf(key) == serial; }
  // Registers a cancellable operation for the in-flight request `key`.
  void SetCanceller(const std::string& key, std::function<void()> cancel);
  // The arguments of the call `key` as JSON text in the client's order, as the
  // shim sent them (unchecked: own_tools::ArgumentsInOrder checks); "" when none.
  std::string ArgumentsText(const std::string& key) const;

  void Notify(std::string_view method, Json params);
  // Records `name` as the last tool called (host.state): a call, or a step of run_steps.
  void NoteToolCall(const std::string& name);
  void Close();

 private:
  void OnMessage(std::string text);
  void OnRequest(rpc::Message& msg);
  void OnToolsCall(const Json& id, const Json& params);
  // Sends `message` with its page text cleaned (common/page_text.h).
  void Send(Json message);
  // Remembers `list` as the one the client has (the caller notifies, or is answering tools/list).
  void Tell(const Json& list);
  // Whether `list` differs from the last told only by own tools taken away.
  bool OnlyOwnToolsWent(const Json& list) const;

  SessionHost& host_;
  std::int64_t id_;
  std::unique_ptr<Transport> transport_;
  bool helloed_ = false;
  std::optional<std::int64_t> focused_tab_;
  std::vector<std::string> caps_;  // page-tool capabilities from hello (tabbridge --caps)
  bool lists_own_tools_ = true;
  bool read_only_ = false;
  tools::Surface surface_ = tools::Surface::kState;
  std::string own_tools_told_;
  bool tells_tabs_ = false;          // hello tellTabs
  std::set<std::int64_t> own_tabs_;  // opened or focused by this session (TellTabs)
  // The tabbridge/tabs params last sent; at first none, as if told of none.
  std::string told_tabs_ = R"({"focusedTabId":null,"tabs":[]})";
  std::string client_name_, client_version_;
  std::string last_tool_;
  std::int64_t last_tool_at_ms_ = 0;
  std::set<std::string> told_own_;
  std::optional<ShownPage> shown_page_;
  std::string answered_url_;
  // The list the client was last told of (list_changed, or a fetch that showed a removal kept back), and its
  // tools by name, as JSON text (compared whole: a page must not be able to
  // make one tool look like another).
  std::string told_list_;
  std::unordered_map<std::string, std::string> told_tools_;
  std::optional<std::int64_t> told_focus_;
  std::string told_document_;  // Host::FocusedDocument when last told
  bool removals_untold_ = false;
  int holds_ = 0;
  bool held_refresh_ = false;  // RefreshTools was asked while held (ReleaseHeld)
  // In-flight requests by dumped id: answered at most once, cancellable.
  struct InFlight {
    std::function<void()> cancel;
    std::string arguments_text;  // the call's arguments in the client's order (kArgumentsTextMeta), or ""
    std::uint64_t serial = 0;    // SerialOf
  };
  std::unordered_map<std::string, InFlight> in_flight_;
  std::uint64_t calls_ = 0;  // the last call's serial
};

// What a session needs of the host it belongs to, declared here so that a
// session talks to this and never to Host (host/host.h implements it): the
// hello, its tool list and tabs, its calls, and the state the popup shows.
class SessionHost {
 public:
  using Reply = ReplyOnce;

  // --- hello ---
  virtual Json HelloResult() const = 0;
  // The session's shim launched this browser headless (its pid): its launch tab goes once a tab is open.
  virtual void NoteLaunchedHeadless(long pid) = 0;
  // The shim launched the browser with this pid, to be closed after idle_ms
  // without sessions (0: never); no_bar: with --silent-debugger-extension-api.
  virtual void NoteLaunched(long pid, std::uint64_t idle_ms, bool no_bar) = 0;
  // --- the session's tool list and tabs ---
  virtual Json ToolsFor(const Session& session) const = 0;
  virtual std::string FocusedDocument(const Session& session) const = 0;
  virtual bool Settling(std::int64_t tab_id) const = 0;
  virtual std::optional<Session::ShownPage> ShownPage(const Session& session, bool listed_only = false) const = 0;
  virtual Json TabUrls(const std::set<std::int64_t>& ids) const = 0;
  // --- its calls ---
  // One of tabbridge's tools, through the call gate (host/call_gate.h).
  virtual void CallTool(Session& session, ToolCall call, Reply reply) = 0;
  // One of the focused page's own tools; false when the name means nothing here.
  virtual bool CallOwnTool(Session& session, const ToolCall& call, Reply& reply,
                           std::optional<Session::ShownPage> shown = std::nullopt) = 0;
  // What answering a call needs: the session still there, the URL the answer
  // leaves it on, the page's own tools said in the answer (dispatch surface).
  virtual Session* FindSession(std::int64_t id) = 0;
  virtual std::optional<std::string> FocusedUrl(const Session& session) const = 0;
  virtual Json WithOwnToolsTold(Session& session, Json result) = 0;
  // Expires with the host: what outlives it must not reach back into it.
  virtual std::weak_ptr<bool> AliveToken() const = 0;
  // tabbridge/grant: the person's answer through the client.
  virtual std::expected<Json, rpc::Error> GrantFromClient(Session& session, const Json& params) = 0;
  // --- state ---
  virtual void NoteStateChanged() = 0;
  virtual void PublishStateNow() = 0;
  virtual void RemoveSession(std::int64_t id) = 0;

 protected:
  ~SessionHost() = default;
};

}  // namespace tb
