// McpServer's browser: connect_browser, the host it attaches, and its loss
// (what mcp_shim/browser_recovery.h makes of it).
#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "mcp_shim/mcp_server.h"

namespace tb {

void McpServer::ConnectBrowser(const Json& id, const std::string& key, const Json& args, const Json& progress_token,
                               std::function<void(Json connected)> then) {
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
      loop_, args, HelloParams(), std::move(progress), [this, id, key, then = std::move(then)](ConnectOutcome outcome) {
        if (auto launched = connecting_->TakeLaunched()) recovery_.AdoptLaunched(std::move(launched));
        DeleteSoon(loop_, std::move(connecting_));  // we are inside its callback
        connecting_key_.clear();
        if (!outcome.link) return Reply(key, rpc::MakeResult(id, std::move(outcome.result)));
        AttachHost(std::move(outcome.link));
        // After a lost browser: the session's tabs and focus again, said in the answer.
        recovery_.RestoreAfterConnect(
            [this, id, key, then, result = std::move(outcome.result)](std::string note) mutable {
              if (!note.empty() && result["structuredContent"].is_object()) {
                result["structuredContent"]["restored"] = note;
                result["content"][0]["text"] = rpc::Dump(result["structuredContent"]);
              }
              // Before the reply, like the host does (unless restoring the focus told it).
              // A stable surface lists the same tools connected or not.
              if (list_changes_ == list_changes_at_attach_ && !tools::IsStable(surface())) NotifyToolsChanged();
              if (then) return then(std::move(result));
              Reply(key, rpc::MakeResult(id, std::move(result)));
            });
      });
  connecting_->Start();
}

Json McpServer::HelloParams() const {
  return {{hello_param::kClient, client_info_},
          {hello_param::kCaps, options_.caps},
          {hello_param::kOwnTools, options_.list_page_tools},
          {hello_param::kReadOnly, options_.read_only},
          {hello_param::kSurface, tools::SurfaceName(surface())},
          {hello_param::kTellTabs, true}};
}

void McpServer::AttachHost(std::unique_ptr<HostLink> link) {
  host_ = std::move(link);
  host_->SetCallbacks({.on_notification = [this](const std::string& m, const Json& p) { OnHostNotification(m, p); },
                       .on_close = [this](std::string_view reason) { OnHostLost(reason); }});
  recovery_.OnConnected(*host_);
  list_changes_at_attach_ = list_changes_;
  spdlog::info("connected to {} via {}", rpc::Dump(field::Any(host_->hello(), "browser")), host_->path());
}

void McpServer::OnHostLost(std::string_view reason) {
  spdlog::warn("lost the browser host: {}", reason);
  DeleteSoon(loop_, std::move(host_));  // we are inside its callback; its pending calls have failed
  recovery_.OnHostLost();               // settles at once, or once it knows how the browser ended
}

void McpServer::OnRecoverySettled() {
  // connect_browser alone, or the tools of the browser started again (unless
  // reopening its tabs told them). The dispatch surface's list never changes.
  if ((!host_ || list_changes_ == list_changes_at_attach_) && surface() != tools::Surface::kDispatch) {
    NotifyToolsChanged();
  }
  for (auto& waiting : std::exchange(waiting_, {})) waiting.run();
}

}  // namespace tb
