// A dead browser is not the end of the task. What a session keeps of its
// browser (which one, whether this shim launched it, the tabs the host last
// reported: tabbridge/tabs), and what happens when its host goes:
//
//  * a browser this shim launched that crashed (a signal, a status other
//    than 0) is started again at once on the same profile, its host
//    attached, this session's tabs reopened and its focus restored; the next
//    answer says so ("the browser had crashed (signal 9); it was started
//    again …"). Twice in a row without a call answered in between and it is
//    left for the next call to start (a browser that dies at every start must
//    not loop on its own). One closed cleanly (status 0: someone closed it)
//    stays closed: connect_browser {launch: true} starts one.
//  * a host that died while its browser lives (or a browser we did not
//    launch): the session is disconnected; a call says when and how the
//    browser went, and connect_browser {} restores the session's tabs and
//    focus on whatever browser it reaches then. A browser the user runs is
//    never started by us.
//
// Requests that come while it checks or restarts wait for it (busy()).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/uv_util.h"
#include "mcp_shim/browser_connect.h"
#include "mcp_shim/host_link.h"
#include "mcp_shim/launcher.h"
#include "mcp_shim/session_tabs.h"

namespace tb {

class BrowserRecovery {
 public:
  struct Hooks {
    std::function<Json()> hello_params;                     // a relaunch's hello
    std::function<void(std::unique_ptr<HostLink>)> attach;  // the server takes a new link
    std::function<HostLink*()> link;                        // the server's link now (nullptr: none)
    std::function<void()> settled;                          // no longer busy: its tools changed; run waiting requests
  };
  BrowserRecovery(uv_loop_t* loop, Hooks hooks);
  ~BrowserRecovery();

  // connect_browser {launch: true} started `launched` (kept: its DevTools pipe, its exit).
  void AdoptLaunched(std::unique_ptr<LaunchedBrowser> launched);
  // connect_browser attached to `link`'s host.
  void OnConnected(const HostLink& link);
  // tabbridge/tabs from the host: the session's tabs now.
  void OnTabs(const Json& params);
  // The user disconnected this session (the popup): nothing of it is restored.
  void OnUserDisconnected() { user_disconnected_ = true; }
  // The host answered a call: the browser runs (ends a run of quick restarts).
  void OnAnswered() { quick_restarts_ = 0; }
  // The host link closed: checks how the browser ended and, for one of ours
  // that crashed, starts it again (busy until settled).
  void OnHostLost();

  bool busy() const { return state_ == State::kChecking || state_ == State::kRestarting; }
  // Whether the browser the session was connected to is the one this shim launched.
  bool ours() const { return ours_; }
  bool HasNote() const { return !note_.empty(); }
  // Disconnected after a loss: a launched browser of ours that crashed and
  // was not started again at once (quick restarts) is started by the next
  // call (Restart) — unless starting it failed already (the calls say why).
  bool CanRestart() const;
  // Starts it again now (busy until settled).
  void Restart();
  // What a call hears while disconnected after a loss ("" if there was none).
  std::string LostNote() const;
  // connect_browser attached after a loss: reopens the session's tabs there,
  // then `done` with what to add to its answer ("" if nothing was lost).
  void RestoreAfterConnect(std::function<void(std::string note)> done);
  // The shim is ending: stops waiting and lets go of the launched browser (it runs on).
  void Close();
  // The note the next answer carries (a restart), once.
  std::string TakeNote() { return std::exchange(note_, ""); }

 private:
  enum class State { kIdle, kChecking, kRestarting, kLost };
  void WaitForExit(int polls_left);
  void WaitForProfile(int polls_left);
  void OnRestarted(ConnectOutcome outcome, std::unique_ptr<LaunchedBrowser> launched);
  void Settle(State state);

  uv_loop_t* loop_;
  Hooks hooks_;
  State state_ = State::kIdle;
  std::unique_ptr<LaunchedBrowser> launched_;
  bool ours_ = false;
  std::string browser_name_;
  long browser_pid_ = 0;
  SessionTabs tabs_;
  std::chrono::system_clock::time_point lost_at_{};
  std::optional<BrowserExit> exit_;  // how our launched browser ended
  std::string restart_error_;        // why starting it again failed
  std::string note_;
  int quick_restarts_ = 0;
  bool user_disconnected_ = false;
  Timer poll_;
  std::unique_ptr<BrowserConnect> connecting_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace tb
