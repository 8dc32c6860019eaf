#include "mcp_shim/client_roots.h"

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "mcp_shim/upload_files.h"
#include "mcp_shim/upload_paths.h"

namespace tb {

ClientRoots::ClientRoots(uv_loop_t* loop, std::function<void(const Json&)> send, Platform platform,
                         std::string wsl_distro)
    : send_(std::move(send)), deadline_(loop), platform_(platform), wsl_distro_(std::move(wsl_distro)) {}

void ClientRoots::WhenKnown(std::function<void()> then) {
  if (known_) return then();
  waiting_.push_back(std::move(then));
  Ask();
}

void ClientRoots::OnListChanged() {
  if (!declared_) return;
  if (!asking_.empty()) {
    stale_ = true;  // the answer in flight may predate the change: ask again when it comes
  } else if (known_) {
    known_ = false;
    Ask();  // refreshed now, so the next upload need not wait
  }
}

void ClientRoots::Close() {
  deadline_.Stop();
  waiting_.clear();
}

void ClientRoots::Ask() {
  if (!asking_.empty()) return;
  const Json id = "tabbridge-roots-" + std::to_string(next_id_++);
  asking_ = rpc::Dump(id);
  stale_ = false;
  send_(rpc::MakeRequest(id, "roots/list", Json::object()));
  deadline_.Start(kRootsDeadlineMs, [this] {
    spdlog::warn("the MCP client did not answer roots/list in {} ms", kRootsDeadlineMs);
    Settle({}, "your MCP client did not answer roots/list");
  });
}

bool ClientRoots::OnResponse(const rpc::Message& msg) {
  if (asking_.empty() || rpc::Dump(msg.id) != asking_) return false;
  deadline_.Stop();
  asking_.clear();
  if (stale_) {  // the roots changed since this was asked
    Ask();
    return true;
  }
  if (msg.is_error) {
    spdlog::warn("roots/list failed: {}", msg.error.message);
    Settle({}, "your MCP client's roots/list failed (" + msg.error.message + ")");
    return true;
  }
  std::vector<std::string> paths;
  std::string skipped;
  std::string wsl_dropped;  // why WSL roots were left out, for the upload's refusal
  for (const Json& root : field::Array(msg.result, "roots")) {
    const std::string uri = field::String(root, "uri").value_or("");
    if (auto path = PathOfFileUri(uri, platform_)) {
      paths.push_back(std::move(*path));
    } else if (platform_ == Platform::kWindows && PathOfFileUri(uri, Platform::kLinux)) {
      // A POSIX path on Windows: a client inside WSL.
      if (auto windows = wsl::WindowsPathOfUri(uri, wsl_distro_)) {
        paths.push_back(std::move(*windows));
      } else {
        spdlog::warn("the client's root {} left out: {}", uri, windows.error());
        wsl_dropped += (wsl_dropped.empty() ? "" : "; ") + windows.error();
      }
    } else {
      skipped += (skipped.empty() ? "" : ", ") + uri;
    }
  }
  spdlog::info("the client's roots: {} local director{}{}", paths.size(), paths.size() == 1 ? "y" : "ies",
               skipped.empty() ? std::string() : "; left out (not local directories): " + skipped);
  Settle(std::move(paths), wsl_dropped.empty() ? "" : "a root was left out: " + wsl_dropped);
  return true;
}

void ClientRoots::Settle(std::vector<std::string> paths, std::string note) {
  deadline_.Stop();
  asking_.clear();
  known_ = true;
  paths_ = std::move(paths);
  note_ = std::move(note);
  auto waiting = std::move(waiting_);
  waiting_.clear();
  for (auto& resume : waiting) resume();
}

}  // namespace tb
