// One connect_browser call: find live hosts, pick one, or launch a browser
// and wait for its host. Ends in exactly one outcome, or none if cancelled.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/uv_util.h"
#include "mcp_shim/host_link.h"
#include "mcp_shim/host_probe.h"
#include "mcp_shim/launcher.h"

namespace tb {

struct ConnectOutcome {
  std::unique_ptr<HostLink> link;  // set on success
  Json result;                     // the tool result either way
};

class BrowserConnect {
 public:
  using Done = std::function<void(ConnectOutcome)>;
  using Progress = std::function<void(double progress, std::string message)>;

  BrowserConnect(uv_loop_t* loop, Json args, Json hello_params, Progress progress, Done done);
  ~BrowserConnect();
  void Start();
  // Before Start: launch a browser whatever runs already (args' launch is
  // implied), and take only the host of that browser (its pid): starting
  // again a browser we launched that died (mcp_shim/browser_recovery.h).
  void LaunchAnew() { launch_ = anew_ = true; }

  // Owns the launched browser's pipe, if any, once the call is over.
  std::unique_ptr<LaunchedBrowser> TakeLaunched() { return std::move(launched_); }

 private:
  void Round();
  void RoundSoon();  // the socket directory changed: probe now, not at the next poll
  void OnRound(std::vector<LiveHost> candidates);
  void Finish(ConnectOutcome outcome);
  void Fail(std::string error, std::string instructions);
  bool HandedOver(const BrowserExit& exit) const;
  void FailExited(const BrowserExit& exit);

  uv_loop_t* loop_;
  bool launch_;
  std::string wanted_;
  Json hello_params_;
  Progress progress_;
  Done done_;
  Timer retry_;
  DirWatch socket_dir_watch_;
  bool probing_ = false;
  bool changed_while_probing_ = false;
  std::chrono::steady_clock::time_point deadline_;
  bool launching_ = false;
  bool anew_ = false;
  std::unique_ptr<LaunchedBrowser> launched_;
  std::vector<std::string> launch_notes_;
  int rounds_ = 0;
  bool finished_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace tb
