#include "host/session.h"

#include <algorithm>
#include <chrono>
#include <expected>
#include <functional>

#include <spdlog/spdlog.h>

#include "common/argument_order.h"
#include "common/json_field.h"
#include "common/page_text.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "host/tool_call.h"

namespace tb {

Session::Session(SessionHost& host, std::int64_t id, std::unique_ptr<Transport> transport)
    : host_(host), id_(id), transport_(std::move(transport)) {
  transport_->Start({.on_message = [this](std::string text) { OnMessage(std::move(text)); },
                     .on_close =
                         [this](std::string_view reason) {
                           spdlog::info("session {} ended: {}", id_, reason);
                           host_.RemoveSession(id_);
                         }});
}

Session::~Session() { Close(); }

void Session::Close() {
  // Taken out first: a cancel drops its call's answer, and a dropped answer
  // looks its call up here (reply_once.h) — a closing session answers none.
  auto calls = std::move(in_flight_);
  in_flight_.clear();
  for (auto& [key, call] : calls) {
    if (call.cancel) call.cancel();
  }
  transport_->Close();
}

void Session::Send(Json message) {
  // The one exit to the model: every answer and notification a session is
  // sent — page tools', own tools', list_tabs', forwarded console entries —
  // passes the one cleaner of page text here, so no tool can forget it. The
  // id is the client's own and stays as it came.
  for (const char* member : {"result", "params", "error"}) {
    if (const auto it = message.find(member); it != message.end()) page_text::CleanStrings(*it);
  }
  transport_->Send(rpc::Dump(message));
}

void Session::Notify(std::string_view method, Json params) { Send(rpc::MakeNotification(method, std::move(params))); }

void Session::RefreshTools() {
  if (!helloed_) return;
  held_refresh_ = holds_ > 0;
  if (held_refresh_) return;
  // The focused tab's new page has not found its tools yet: what changed
  // meanwhile (its URL's tools, the page's own) is told once it has.
  if (focused_tab_ && focused_tab_ == told_focus_ && host_.Settling(*focused_tab_)) return;
  const Json list = host_.ToolsFor(*this);
  if (rpc::Dump(list) == told_list_) {
    removals_untold_ = false;  // the tools that went came back
    return;
  }
  if (OnlyOwnToolsWent(list)) {
    removals_untold_ = true;
    return;
  }
  Tell(list);
  Notify(mcp::kToolsListChanged, nullptr);
}

void Session::TellTabs() {
  if (!helloed_ || !tells_tabs_) return;
  Json tabs = host_.TabUrls(own_tabs_);
  std::set<std::int64_t> open;
  for (const auto& tab : tabs) open.insert(tab["id"].get<std::int64_t>());
  own_tabs_ = std::move(open);  // a closed tab is not reopened
  Json params = {{"tabs", std::move(tabs)}, {"focusedTabId", focused_tab_ ? Json(*focused_tab_) : Json(nullptr)}};
  std::string text = rpc::Dump(params);
  if (text == told_tabs_) return;
  told_tabs_ = std::move(text);
  // Not through Send: the URLs go to the shim, which never shows them to the
  // model (the policy's withholding applies to what the model reads).
  transport_->Send(rpc::Dump(rpc::MakeNotification(shim_method::kSessionTabs, std::move(params))));
}

void Session::TellUserDisconnected() {
  if (helloed_ && tells_tabs_)
    transport_->Send(rpc::Dump(rpc::MakeNotification(shim_method::kUserDisconnected, nullptr)));
}

void Session::TellRemovals() {
  // Also while a tab-changing call holds notifications: the model is calling a
  // tool that went now, and its answer must not come first; that call's own
  // change is told again at its end if it changes the list further.
  if (!removals_untold_ || !helloed_) return;
  Tell(host_.ToolsFor(*this));
  Notify(mcp::kToolsListChanged, nullptr);
}

void Session::Tell(const Json& list) {
  told_list_ = rpc::Dump(list);
  told_focus_ = focused_tab_;
  told_document_ = host_.FocusedDocument(*this);
  told_tools_.clear();
  for (const auto& tool : list) told_tools_[tool["name"].get<std::string>()] = rpc::Dump(tool);
  removals_untold_ = false;
}

bool Session::OnlyOwnToolsWent(const Json& list) const {
  // The same page took some of its tools away (a navigation's are news).
  if (focused_tab_ != told_focus_ || host_.FocusedDocument(*this) != told_document_) return false;
  if (list.size() >= told_tools_.size()) return false;
  std::set<std::string> kept;
  for (const auto& tool : list) {
    const std::string& name = tool["name"].get_ref<const std::string&>();
    const auto told = told_tools_.find(name);
    if (told == told_tools_.end() || told->second != rpc::Dump(tool)) return false;
    kept.insert(name);
  }
  // Every tool that went is one of the page's (tabbridge's own tools going means the state moved).
  return std::ranges::all_of(told_tools_, [&](const auto& entry) {
    return kept.contains(entry.first) || tools::Find(entry.first) == nullptr;
  });
}

std::function<void()> Session::HoldUntilReleased() {
  Hold();
  return [&host = host_, session_id = id_, alive = host_.AliveToken(), held = std::make_shared<bool>(true)] {
    if (!std::exchange(*held, false) || alive.expired()) return;
    if (Session* s = host.FindSession(session_id)) s->ReleaseHeld();
  };
}

void Session::NoteToolCall(const std::string& name) {
  last_tool_ = name;
  last_tool_at_ms_ =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  host_.NoteStateChanged();
}

void Session::SetCanceller(const std::string& key, std::function<void()> cancel) {
  if (auto it = in_flight_.find(key); it != in_flight_.end()) it->second.cancel = std::move(cancel);
}

std::string Session::ArgumentsText(const std::string& key) const {
  const auto it = in_flight_.find(key);
  return it != in_flight_.end() ? it->second.arguments_text : std::string();
}

std::uint64_t Session::SerialOf(const std::string& key) const {
  const auto it = in_flight_.find(key);
  return it != in_flight_.end() ? it->second.serial : 0;
}

void Session::OnMessage(std::string text) {
  auto parsed = rpc::Parse(text);
  if (!parsed && parsed.error().response) {
    return spdlog::warn("session {}: malformed response ignored: {}", id_, parsed.error().error.message);
  }
  if (!parsed) return Send(rpc::MakeError(parsed.error().id, parsed.error().error));
  rpc::Message& msg = *parsed;
  switch (msg.kind) {
    case rpc::Kind::kRequest:
      OnRequest(msg);
      break;
    case rpc::Kind::kNotification:
      if (msg.method == mcp::kCancelled && msg.params.is_object()) {
        const std::string key = rpc::Dump(field::Any(msg.params, "requestId"));
        if (auto it = in_flight_.find(key); it != in_flight_.end()) {
          auto cancel = std::move(it->second.cancel);
          in_flight_.erase(it);  // a cancelled request gets no answer
          if (cancel) cancel();
        }
      }
      break;
    case rpc::Kind::kResponse:
      break;  // the host sends no requests to shims
  }
}

void Session::OnRequest(rpc::Message& msg) {
  if (msg.method == shim_method::kHello) {
    const auto protocol = field::Int(msg.params, hello_param::kProtocol);
    if (!protocol) {
      return Send(
          rpc::MakeError(msg.id, rpc_error::kInvalidParams, "tabbridge/hello needs params.protocol (an integer)"));
    }
    if (*protocol != kShimProtocol) {
      Send(rpc::MakeError(msg.id, rpc_error::kInvalidRequest,
                          "protocol mismatch: this host speaks " + std::to_string(kShimProtocol) + ", the shim " +
                              std::to_string(*protocol) + " — reinstall tabbridge so both match"));
      return;
    }
    helloed_ = true;
    caps_.clear();  // a second hello restates the session, it does not add to it
    for (const auto& cap : field::Array(msg.params, hello_param::kCaps)) {
      if (cap.is_string()) caps_.push_back(cap.get<std::string>());
    }
    lists_own_tools_ = field::Bool(msg.params, hello_param::kOwnTools).value_or(lists_own_tools_);
    // A session narrows the policy, never widens it: a second hello cannot undo --read-only.
    read_only_ = read_only_ || field::Bool(msg.params, hello_param::kReadOnly).value_or(false);
    if (const auto pid = field::Int(msg.params, hello_param::kLaunchedHeadlessPid))
      host_.NoteLaunchedHeadless(static_cast<long>(*pid));
    if (const auto pid = field::Int(msg.params, hello_param::kLaunchedPid)) {
      const auto idle = field::Int(msg.params, hello_param::kLaunchedIdleMs).value_or(0);
      host_.NoteLaunched(static_cast<long>(*pid), static_cast<std::uint64_t>(std::max<std::int64_t>(0, idle)),
                         field::Bool(msg.params, hello_param::kLaunchedNoDebuggerBar).value_or(false));
    }
    tells_tabs_ = field::Bool(msg.params, hello_param::kTellTabs).value_or(false);
    surface_ = tools::ParseSurface(field::String(msg.params, hello_param::kSurface).value_or("state"))
                   .value_or(tools::Surface::kState);
    const Json client = field::Object(msg.params, hello_param::kClient);
    // The client's own words, shown to the person (surface, tab group, popup): cleaned once, here.
    client_name_ = page_text::Name(field::String(client, "name").value_or(""), kMaxClientNameBytes);
    client_version_ = page_text::Name(field::String(client, "version").value_or(""), kMaxClientNameBytes);
    Tell(host_.ToolsFor(*this));
    Send(rpc::MakeResult(msg.id, host_.HelloResult()));
    host_.NoteStateChanged();  // attached: the popup lists it
    if (std::ranges::find(caps_, tools::kCapNetwork) != caps_.end())
      host_.PublishStateNow();  // the request log starts now
    return;
  }
  if (!helloed_) {
    Send(rpc::MakeError(msg.id, rpc_error::kInvalidRequest, "send tabbridge/hello first"));
    return;
  }
  if (msg.method == mcp::kPing) {
    Send(rpc::MakeResult(msg.id, Json::object()));
  } else if (msg.method == mcp::kToolsList) {
    Json list = host_.ToolsFor(*this);
    // A removal kept back is now seen: a tool that comes back is news to this client.
    if (removals_untold_) Tell(list);
    told_own_.clear();
    set_shown_page(host_.ShownPage(*this, /*listed_only=*/true));
    for (const auto& tool : list) {
      const std::string& name = tool["name"].get_ref<const std::string&>();
      if (tools::Find(name) == nullptr) told_own_.insert(name);
    }
    Send(rpc::MakeResult(msg.id, {{"tools", std::move(list)}}));
  } else if (msg.method == mcp::kToolsCall) {
    OnToolsCall(msg.id, msg.params);
  } else if (msg.method == shim_method::kGrant) {
    auto granted = host_.GrantFromClient(*this, msg.params);
    Send(granted ? rpc::MakeResult(msg.id, std::move(*granted))
                 : rpc::MakeError(msg.id, granted.error().code, granted.error().message));
  } else {
    Send(rpc::MakeError(msg.id, rpc_error::kMethodNotFound, "the host does not serve " + msg.method));
  }
}

void Session::OnToolsCall(const Json& id, const Json& params) {
  const auto name_field = field::String(params, "name");
  if (!name_field)
    return Send(rpc::MakeError(id, rpc_error::kInvalidParams, "tools/call needs params.name (a string)"));
  const std::string& name = *name_field;
  const Json* given = field::Find(params, "arguments");
  Json args = given == nullptr || given->is_null() ? Json::object() : *given;
  const std::string key = rpc::Dump(id);
  std::string arguments_text = field::String(field::Object(params, "_meta"), kArgumentsTextMeta).value_or("");
  if (in_flight_.contains(key)) {
    Send(rpc::MakeError(id, rpc_error::kInvalidRequest, "request id " + key + " is already in use"));
    return;
  }
  // One answer per call: a handler that drops it without answering answers
  // this at once (reply_once.h), rather than leaving the client to its deadline.
  // Only to this call: a cancelled one's late answer is dropped, also when a
  // new call took its id since.
  const std::uint64_t serial = ++calls_;
  SessionHost::Reply reply(
      [&host = host_, alive = host_.AliveToken(), session_id = id_, key, id, serial](Json result) {
        if (alive.expired()) return;
        Session* self = host.FindSession(session_id);
        if (self == nullptr || !self->Running(key, serial)) return;  // gone or cancelled
        self->in_flight_.erase(key);
        self->answered_url_ = host.FocusedUrl(*self).value_or("");
        self->Send(rpc::MakeResult(id, host.WithOwnToolsTold(*self, std::move(result))));
      },
      tools::ErrorResult(name + ": tabbridge-host dropped this call without an answer (a bug — please report it); "
                                "whether it did anything is unknown: check the page before retrying"));
  // MCP: a progress token is a string or an integer; anything else is ignored.
  Json progress_token = field::Any(field::Object(params, "_meta"), "progressToken");
  if (!progress_token.is_string() && !progress_token.is_number_integer()) progress_token = nullptr;
  ToolCall call{.session_id = id_,
                .key = key,
                .name = name,
                .args = std::move(args),
                .meta = field::Object(params, "_meta"),
                .progress = std::move(progress_token)};
  if (tools::Find(name) == nullptr) {
    // Not one of ours: perhaps one of the focused page's own tools.
    in_flight_.emplace(key, InFlight{.cancel = {}, .arguments_text = std::move(arguments_text), .serial = serial});
    if (!host_.CallOwnTool(*this, call, reply)) {
      in_flight_.erase(key);
      Send(rpc::MakeError(id, rpc_error::kInvalidParams, "Unknown tool: " + name));
      return;
    }
    NoteToolCall(name);  // a closed session lives on until the next loop turn
    return;
  }
  if (name == tools::kConnectBrowser) {
    Send(rpc::MakeError(id, rpc_error::kInvalidParams, "Unknown tool: " + name));
    return;
  }
  in_flight_.emplace(key, InFlight{.cancel = {},
                                   .arguments_text = name == tools::kCallWebMcpTool ? std::move(arguments_text) : "",
                                   .serial = serial});
  NoteToolCall(name);
  // Everything else — the arguments, upload_file's files, the policy — is the call gate's (host/call_gate.h).
  host_.CallTool(*this, std::move(call), std::move(reply));
}

}  // namespace tb
