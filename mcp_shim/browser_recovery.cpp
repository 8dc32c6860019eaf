#include "mcp_shim/browser_recovery.h"

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/protocol.h"
#include "mcp_shim/paths.h"
#include "mcp_shim/tab_restore.h"

namespace tb {
namespace {

// The exit callback comes a moment after the host's socket closes: how long
// to wait for it before taking the browser for alive (a host that died alone).
constexpr int kExitPolls = 40;
constexpr std::uint64_t kPollMs = 25;
// A helper of the killed browser may answer on its profile's singleton socket
// for a moment; a browser started then would hand over to it.
constexpr int kProfilePolls = 120;
// Restarts in a row, with no call answered in between, before the next
// restart waits for a call.
constexpr int kMaxQuickRestarts = 2;

}  // namespace

BrowserRecovery::BrowserRecovery(uv_loop_t* loop, Hooks hooks) : loop_(loop), hooks_(std::move(hooks)), poll_(loop) {}

BrowserRecovery::~BrowserRecovery() { alive_.reset(); }

void BrowserRecovery::Close() {
  alive_.reset();
  poll_.Stop();
  connecting_.reset();
  launched_.reset();
  state_ = State::kIdle;
}

void BrowserRecovery::AdoptLaunched(std::unique_ptr<LaunchedBrowser> launched) { launched_ = std::move(launched); }

void BrowserRecovery::OnConnected(const HostLink& link) {
  const Json browser = field::Object(link.hello(), "browser");
  browser_name_ = field::String(browser, "name").value_or("");
  if (const auto version = field::String(browser, "version"); version && !version->empty()) {
    browser_name_ += " " + *version;
  }
  browser_pid_ = static_cast<long>(field::Int(browser, "pid").value_or(0));
  // Ours: the browser this shim launched, still running (one that handed its
  // start over to a browser already on the profile exited at once).
  ours_ = launched_ != nullptr && !launched_->exited() && launched_->pid() == browser_pid_;
}

void BrowserRecovery::OnTabs(const Json& params) {
  if (auto tabs = ParseSessionTabs(params)) {
    tabs_ = std::move(*tabs);
  } else {
    spdlog::warn("malformed {} from the host ignored", shim_method::kSessionTabs);
  }
}

void BrowserRecovery::OnHostLost() {
  if (state_ == State::kRestarting) return;  // while its tabs reopen: the restore finds the link gone and settles
  lost_at_ = std::chrono::system_clock::now();
  exit_.reset();
  restart_error_.clear();
  if (std::exchange(user_disconnected_, false)) {
    tabs_ = {};  // the user ended it: a later connect_browser starts afresh
    return Settle(State::kIdle);
  }
  if (!ours_) return Settle(State::kLost);
  state_ = State::kChecking;
  WaitForExit(kExitPolls);
}

void BrowserRecovery::WaitForExit(int polls_left) {
  exit_ = launched_ ? launched_->exited() : std::nullopt;
  if (!exit_ && polls_left > 0) {
    poll_.Start(kPollMs, [this, polls_left] { WaitForExit(polls_left - 1); });
    return;
  }
  if (!exit_) {
    spdlog::warn("the host went but the browser it served (pid {}) still runs", browser_pid_);
    return Settle(State::kLost);
  }
  spdlog::warn("the browser tabbridge launched (pid {}) {}", browser_pid_, HowItEnded(*exit_));
  if (Crashed(*exit_) && quick_restarts_ < kMaxQuickRestarts) return Restart();
  Settle(State::kLost);
}

bool BrowserRecovery::CanRestart() const {
  // Once per loss: after a failed start, connect_browser {launch: true} starts one afresh.
  // A browser closed cleanly (status 0) was closed by someone: it stays closed.
  return state_ == State::kLost && ours_ && exit_ && Crashed(*exit_) && restart_error_.empty();
}

void BrowserRecovery::Restart() {
  state_ = State::kRestarting;
  ++quick_restarts_;
  WaitForProfile(kProfilePolls);
}

void BrowserRecovery::WaitForProfile(int polls_left) {
  if (polls_left > 0 && ProfileSocketAnswers(ProfileDir())) {
    poll_.Start(kPollMs, [this, polls_left] { WaitForProfile(polls_left - 1); });
    return;
  }
  connecting_ = std::make_unique<BrowserConnect>(loop_, Json{{"launch", true}}, hooks_.hello_params(), nullptr,
                                                 [this](ConnectOutcome outcome) {
                                                   auto launched = connecting_->TakeLaunched();
                                                   DeleteSoon(loop_, std::move(connecting_));  // inside its callback
                                                   OnRestarted(std::move(outcome), std::move(launched));
                                                 });
  connecting_->LaunchAnew();
  connecting_->Start();
}

void BrowserRecovery::OnRestarted(ConnectOutcome outcome, std::unique_ptr<LaunchedBrowser> launched) {
  const std::string how = "the browser " + HowItEnded(exit_.value_or(BrowserExit{}));
  if (!outcome.link) {
    restart_error_ = field::String(field::Object(outcome.result, "structuredContent"), "error")
                         .value_or("the browser did not start");
    spdlog::error("{}; starting it again failed: {}", how, restart_error_);
    if (launched) launched_ = std::move(launched);
    return Settle(State::kLost);
  }
  launched_ = std::move(launched);
  const long pid = launched_ ? launched_->pid() : 0;
  spdlog::info("{}; started it again (pid {})", how, pid);
  hooks_.attach(std::move(outcome.link));  // calls OnConnected
  std::weak_ptr<bool> alive = alive_;
  RestoreTabs(hooks_.link, tabs_, [this, alive, how, pid](std::string summary) {
    if (alive.expired()) return;
    note_ = how + "; it was started again (pid " + std::to_string(pid) + ")";
    if (!summary.empty()) note_ += " — " + summary;
    spdlog::info("{}", note_);
    if (!hooks_.link()) {  // it went again while its tabs were reopened
      note_.clear();
      return Settle(state_ == State::kRestarting ? State::kLost : state_);
    }
    Settle(State::kIdle);
  });
}

void BrowserRecovery::Settle(State state) {
  poll_.Stop();
  state_ = state;
  if (hooks_.settled) hooks_.settled();
}

std::string BrowserRecovery::LostNote() const {
  if (state_ != State::kLost) return "";
  const auto now = std::chrono::system_clock::now();
  if (!ours_) return GoneNote(browser_name_, browser_pid_, lost_at_, now);
  if (!exit_) {
    return "the connection to the browser's tabbridge host was lost at " + WhenSaid(lost_at_, now) +
           " while the browser still runs — call connect_browser to reach the host it starts again (this "
           "session's tabs and focus are restored then)";
  }
  std::string note = "the browser tabbridge launched " + HowItEnded(*exit_) + " at " + WhenSaid(lost_at_, now);
  if (!restart_error_.empty()) note += "; starting it again failed: " + restart_error_;
  return note + " — call connect_browser with launch=true to start one (this session's tabs are reopened then)";
}

void BrowserRecovery::RestoreAfterConnect(std::function<void(std::string note)> done) {
  if (state_ != State::kLost) return done("");
  const std::string lost = "the connection was lost at " + WhenSaid(lost_at_, std::chrono::system_clock::now());
  state_ = State::kIdle;
  std::weak_ptr<bool> alive = alive_;
  RestoreTabs(hooks_.link, tabs_, [alive, lost, done = std::move(done)](std::string summary) {
    if (alive.expired()) return;
    done(summary.empty() ? lost : lost + " — " + summary);
  });
}

}  // namespace tb
