#include "host/session.h"

#include <functional>

#include <spdlog/spdlog.h>

#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "host/host.h"

namespace tb {

Session::Session(Host& host, std::int64_t id, std::unique_ptr<Transport> transport)
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
  for (auto& [key, call] : in_flight_) {
    if (call.cancel) call.cancel();
  }
  in_flight_.clear();
  transport_->Close();
}

void Session::Send(const Json& message) { transport_->Send(rpc::Dump(message)); }

void Session::Notify(std::string_view method, Json params) { Send(rpc::MakeNotification(method, std::move(params))); }

std::size_t Session::ToolsFingerprint() const { return std::hash<std::string>{}(rpc::Dump(host_.ToolsFor(*this))); }

void Session::RefreshTools() {
  if (!helloed_ || holds_ > 0) return;
  const std::size_t now = ToolsFingerprint();
  if (now == told_fingerprint_) return;
  told_fingerprint_ = now;
  Notify(mcp::kToolsListChanged, nullptr);
}

void Session::SetCanceller(const std::string& key, std::function<void()> cancel) {
  if (auto it = in_flight_.find(key); it != in_flight_.end()) it->second.cancel = std::move(cancel);
}

void Session::OnMessage(std::string text) {
  auto parsed = rpc::Parse(text);
  if (!parsed) {
    Send(rpc::MakeError(parsed.error().id, parsed.error().error));
    return;
  }
  rpc::Message& msg = *parsed;
  switch (msg.kind) {
    case rpc::Kind::kRequest:
      OnRequest(msg);
      break;
    case rpc::Kind::kNotification:
      if (msg.method == mcp::kCancelled && msg.params.is_object()) {
        const std::string key = rpc::Dump(msg.params.value("requestId", Json()));
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
    const int protocol = msg.params.is_object() ? msg.params.value("protocol", 0) : 0;
    if (protocol != kShimProtocol) {
      Send(rpc::MakeError(msg.id, rpc_error::kInvalidRequest,
                          "protocol mismatch: this host speaks " + std::to_string(kShimProtocol) + ", the shim " +
                              std::to_string(protocol) + " — reinstall tabbridge so both match"));
      return;
    }
    helloed_ = true;
    if (const auto caps = msg.params.find("caps"); caps != msg.params.end() && caps->is_array()) {
      for (const auto& cap : *caps) {
        if (cap.is_string()) caps_.push_back(cap.get<std::string>());
      }
    }
    if (const auto list = msg.params.find("pageTools"); list != msg.params.end() && list->is_boolean()) {
      lists_own_tools_ = list->get<bool>();
    }
    told_fingerprint_ = ToolsFingerprint();
    Send(rpc::MakeResult(msg.id, host_.HelloResult()));
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
    told_own_.clear();
    for (const auto& tool : list) {
      const std::string& name = tool["name"].get_ref<const std::string&>();
      if (tools::Find(name) == nullptr) told_own_.insert(name);
    }
    Send(rpc::MakeResult(msg.id, {{"tools", std::move(list)}}));
  } else if (msg.method == mcp::kToolsCall) {
    OnToolsCall(msg.id, msg.params);
  } else {
    Send(rpc::MakeError(msg.id, rpc_error::kMethodNotFound, "the host does not serve " + msg.method));
  }
}

void Session::OnToolsCall(const Json& id, const Json& params) {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
    Send(rpc::MakeError(id, rpc_error::kInvalidParams, "tools/call needs params.name (a string)"));
    return;
  }
  const std::string name = params["name"].get<std::string>();
  const Json args = params.contains("arguments") && !params["arguments"].is_null() ? params["arguments"] : Json::object();
  const std::string key = rpc::Dump(id);
  if (in_flight_.contains(key)) {
    Send(rpc::MakeError(id, rpc_error::kInvalidRequest, "request id " + key + " is already in use"));
    return;
  }
  Host::Reply reply = [&host = host_, session_id = id_, key, id](Json result) {
    Session* self = host.FindSession(session_id);
    if (self == nullptr || self->in_flight_.erase(key) == 0) return;  // gone or cancelled
    self->Send(rpc::MakeResult(id, std::move(result)));
  };
  const Json* tool = tools::Find(name);
  if (tool == nullptr) {
    // Not one of ours: perhaps one of the focused page's own tools.
    in_flight_.emplace(key, InFlight{});
    if (!host_.CallOwnTool(*this, key, name, args, reply)) {
      in_flight_.erase(key);
      Send(rpc::MakeError(id, rpc_error::kInvalidParams, "Unknown tool: " + name));
    }
    return;
  }
  if (name == tools::kConnectBrowser) {
    Send(rpc::MakeError(id, rpc_error::kInvalidParams, "Unknown tool: " + name));
    return;
  }
  // A page tool is checked against this session's variant of it (caps widen
  // some schemas, e.g. read_page's html mode); one it lacks, against the base
  // schema, and then the host says which capability turns it on.
  const std::optional<Json> variant = tools::PageTool(name, caps_);
  if (auto ok = tools::CheckArguments(variant ? *variant : *tool, args); !ok) {
    Send(rpc::MakeResult(id, tools::ErrorResult(name + ": " + ok.error())));
    return;
  }
  in_flight_.emplace(key, InFlight{});
  const Json meta = params.value("_meta", Json::object());
  const Json progress_token = meta.is_object() ? meta.value("progressToken", Json()) : Json();
  host_.CallTool(*this, key, name, args, progress_token, std::move(reply));
}

}  // namespace tb
