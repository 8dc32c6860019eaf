#include "mcp_shim/mcp_server.h"

#include <algorithm>
#include <array>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"

namespace tb {
namespace {

constexpr std::array<std::string_view, 8> kLogLevels = {"debug", "info",     "notice", "warning",
                                                        "error", "critical", "alert",  "emergency"};

int LevelIndex(std::string_view level) {
  const auto it = std::ranges::find(kLogLevels, level);
  return it == kLogLevels.end() ? -1 : static_cast<int>(it - kLogLevels.begin());
}

// MCP: a progress token is a string or an integer; anything else is ignored.
Json ProgressToken(const Json& params) {
  Json token = field::Any(field::Object(params, "_meta"), "progressToken");
  return token.is_string() || token.is_number_integer() ? token : Json();
}

// What a disconnected session offers: connect_browser alone.
Json DisconnectedTools() { return {{"tools", {*tools::Find(tools::kConnectBrowser)}}}; }

constexpr std::string_view kInstructions =
    "Drives the user's real browser. Call connect_browser, then open_tab or list_tabs + focus_tab; "
    "the focused tab's tools then appear. The tool list follows the browser's state.";

}  // namespace

McpServer::McpServer(uv_loop_t* loop, std::unique_ptr<Transport> client, SessionOptions options)
    : loop_(loop), client_(std::move(client)), options_(std::move(options)) {}

McpServer::~McpServer() {
  if (host_) host_->SetCallbacks({});
}

void McpServer::Start() {
  client_->Start({.on_message = [this](std::string text) { OnMessage(std::move(text)); },
                  .on_close =
                      [this](std::string_view reason) {
                        spdlog::info("client gone ({}); exiting", reason);
                        Shutdown();
                      }});
}

void McpServer::Shutdown() {
  connecting_.reset();
  if (host_) {
    host_->SetCallbacks({});
    host_->Close();
  }
  client_->Close();
  launched_.reset();
}

void McpServer::Send(const Json& message) { client_->Send(rpc::Dump(message)); }

void McpServer::Reply(const std::string& key, Json message) {
  if (pending_.erase(key) == 0) return;  // cancelled: no answer (MCP cancellation)
  Send(message);
}

void McpServer::ReplyText(const std::string& key, const std::string& message) {
  if (pending_.erase(key) == 0) return;  // cancelled: no answer (MCP cancellation)
  client_->Send(message);
}

void McpServer::OnMessage(std::string text) {
  auto parsed = rpc::Parse(text);
  if (!parsed && parsed.error().response) {
    return spdlog::warn("malformed response from the client ignored: {}", parsed.error().error.message);
  }
  if (!parsed) return Send(rpc::MakeError(parsed.error().id, parsed.error().error));
  switch (parsed->kind) {
    case rpc::Kind::kRequest:
      return OnRequest(*parsed);
    case rpc::Kind::kNotification:
      return OnNotification(*parsed);
    case rpc::Kind::kResponse:
      return;  // we send the client no requests
  }
}

void McpServer::OnNotification(const rpc::Message& msg) {
  if (msg.method != mcp::kCancelled || !msg.params.is_object()) return;
  const std::string key = rpc::Dump(field::Any(msg.params, "requestId"));
  const auto it = pending_.find(key);
  if (it == pending_.end()) return;
  const std::int64_t host_id = it->second;
  pending_.erase(it);
  if (key == connecting_key_ && connecting_) DeleteSoon(loop_, std::move(connecting_));
  if (host_id != 0 && host_) host_->Cancel(host_id);
}

void McpServer::OnRequest(const rpc::Message& msg) {
  const std::string key = rpc::Dump(msg.id);
  if (pending_.contains(key)) {
    return Send(rpc::MakeError(msg.id, rpc_error::kInvalidRequest, "request id " + key + " is already in use"));
  }
  pending_.emplace(key, 0);
  const Json params = msg.params.is_null() ? Json::object() : msg.params;

  if (msg.method == mcp::kInitialize) return OnInitialize(msg.id, params);
  if (msg.method == mcp::kPing) return Reply(key, rpc::MakeResult(msg.id, Json::object()));
  if (msg.method == mcp::kSetLevel) {
    const int level = LevelIndex(field::String(params, "level").value_or(""));
    if (level < 0) return Reply(key, rpc::MakeError(msg.id, rpc_error::kInvalidParams, "unknown log level"));
    log_level_ = level;
    return Reply(key, rpc::MakeResult(msg.id, Json::object()));
  }
  if (msg.method == mcp::kToolsList) {
    if (host_) return Forward(msg.id, key, msg.method, params);
    return Reply(key, rpc::MakeResult(msg.id, DisconnectedTools()));
  }
  if (msg.method == mcp::kToolsCall) return OnToolsCall(msg.id, params);
  Reply(key, rpc::MakeError(msg.id, rpc_error::kMethodNotFound, "method not found: " + msg.method));
}

void McpServer::OnInitialize(const Json& id, const Json& params) {
  if (!field::AbsentOrString(params, "protocolVersion")) {
    return Reply(rpc::Dump(id),
                 rpc::MakeError(id, rpc_error::kInvalidParams, "initialize: protocolVersion must be a string"));
  }
  const std::string requested = field::String(params, "protocolVersion").value_or("");
  const bool known = std::ranges::find(mcp::kProtocolVersions, requested) != std::end(mcp::kProtocolVersions);
  if (const Json* info = field::Find(params, "clientInfo"); info != nullptr && info->is_object()) client_info_ = *info;
  Reply(rpc::Dump(id),
        rpc::MakeResult(id, {{"protocolVersion", known ? requested : mcp::kProtocolVersions[0]},
                             {"capabilities", {{"tools", {{"listChanged", true}}}, {"logging", Json::object()}}},
                             {"serverInfo", {{"name", "tabbridge"}, {"version", kVersion}}},
                             {"instructions", kInstructions}}));
}

void McpServer::OnToolsCall(const Json& id, const Json& params) {
  const std::string key = rpc::Dump(id);
  const auto name_field = field::String(params, "name");
  if (!name_field)
    return Reply(key, rpc::MakeError(id, rpc_error::kInvalidParams, "tools/call needs params.name (a string)"));
  const std::string& name = *name_field;
  if (name == tools::kConnectBrowser) {
    if (host_) {
      const std::string browser =
          field::String(field::Object(host_->hello(), "browser"), "name").value_or("the browser");
      return Reply(key,
                   rpc::MakeResult(id, tools::ErrorResult("already connected to " + browser + " — call list_tabs")));
    }
    const Json* given = field::Find(params, "arguments");
    const Json args = given == nullptr || given->is_null() ? Json::object() : *given;
    if (auto ok = tools::CheckArguments(*tools::Find(name), args); !ok) {
      return Reply(key, rpc::MakeResult(id, tools::ErrorResult(name + ": " + ok.error())));
    }
    return ConnectBrowser(id, key, args, ProgressToken(params));
  }
  if (host_) return Forward(id, key, mcp::kToolsCall.data(), params);
  if (tools::Find(name) != nullptr) {
    return Reply(key, rpc::MakeResult(
                          id, tools::ErrorResult(name + ": not connected to a browser — call connect_browser first")));
  }
  Reply(key, rpc::MakeError(id, rpc_error::kInvalidParams, "Unknown tool: " + name));
}

void McpServer::ConnectBrowser(const Json& id, const std::string& key, const Json& args, const Json& progress_token) {
  if (connecting_) {
    return Reply(key, rpc::MakeResult(id, tools::ErrorResult("connect_browser is already running — wait for it")));
  }
  auto progress = [this, progress_token](double value, std::string message) {
    if (progress_token.is_null()) return;
    Send(rpc::MakeNotification(
        mcp::kProgress, {{"progressToken", progress_token}, {"progress", value}, {"message", std::move(message)}}));
  };
  connecting_key_ = key;
  connecting_ = std::make_unique<BrowserConnect>(
      loop_, args,
      Json{{hello_param::kClient, client_info_},
           {hello_param::kCaps, options_.caps},
           {hello_param::kPageTools, options_.list_page_tools},
           {hello_param::kReadOnly, options_.read_only}},
      std::move(progress), [this, id, key](ConnectOutcome outcome) {
        if (auto launched = connecting_->TakeLaunched()) launched_ = std::move(launched);
        DeleteSoon(loop_, std::move(connecting_));  // we are inside its callback
        connecting_key_.clear();
        if (outcome.link) {
          host_ = std::move(outcome.link);
          host_->SetCallbacks(
              {.on_notification = [this](const std::string& m, const Json& p) { OnHostNotification(m, p); },
               .on_close = [this](std::string_view reason) { OnHostLost(reason); }});
          spdlog::info("connected to {} via {}", rpc::Dump(field::Any(host_->hello(), "browser")), host_->path());
          Send(rpc::MakeNotification(mcp::kToolsListChanged, nullptr));  // before the reply, like the host does
        }
        Reply(key, rpc::MakeResult(id, std::move(outcome.result)));
      });
  connecting_->Start();
}

void McpServer::Forward(const Json& id, const std::string& key, const std::string& method, Json params) {
  const std::int64_t host_id = host_->Request(
      method, std::move(params), kDefaultHostDeadlineMs,
      [this, id, key, method](std::expected<Json, rpc::Error> outcome) {
        if (outcome) return Reply(key, rpc::MakeResult(id, std::move(*outcome)));
        const rpc::Error& error = outcome.error();
        if (error.code == rpc_error::kPeerGone || error.code == rpc_error::kTimeout) {
          if (method == mcp::kToolsList) {
            return Reply(key, rpc::MakeResult(id, DisconnectedTools()));
          }
          const std::string what = error.code == rpc_error::kTimeout
                                       ? "the browser did not answer in time — call connect_browser, then retry"
                                       : std::string(tools::kBrowserConnectionLost);
          return Reply(key, rpc::MakeResult(id, tools::ErrorResult(what)));
        }
        Reply(key, rpc::MakeError(id, error));
      },
      // A success answer goes to the client as the host wrote it, under the
      // client's id: no parse and no re-serialisation per answer.
      [this, id, key](const rpc::ResultPrefix& answer) { ReplyText(key, rpc::WithId(answer, id)); });
  if (auto it = pending_.find(key); it != pending_.end()) it->second = host_id;
}

void McpServer::OnHostNotification(const std::string& method, const Json& params) {
  if (method == mcp::kMessage) {
    const int level = LevelIndex(field::String(params, "level").value_or("info"));
    if (level < log_level_) return;
  } else if (method != mcp::kToolsListChanged && method != mcp::kProgress) {
    return;  // the host relays nothing else to clients
  }
  Send(rpc::MakeNotification(method, params));
}

void McpServer::OnHostLost(std::string_view reason) {
  spdlog::warn("lost the browser host: {}", reason);
  DeleteSoon(loop_, std::move(host_));  // we are inside its callback; its pending calls have failed
  Send(rpc::MakeNotification(mcp::kToolsListChanged, nullptr));
}

}  // namespace tb
