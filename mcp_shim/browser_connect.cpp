#include "mcp_shim/browser_connect.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/platform.h"
#include "common/protocol.h"
#include "common/socket_dir.h"  // SocketDir, for the advice
#include "common/tool_catalog.h"
#include "mcp_shim/host_probe.h"
#include "mcp_shim/launch_env.h"
#include "mcp_shim/wsl_install.h"

namespace tb {
namespace {

// Between probes of the socket directory while a host starts, where the
// directory cannot be watched (a change there probes at once).
constexpr std::uint64_t kRetryMs = 100;

// TABBRIDGE_LAUNCHED_IDLE_MS, else kLaunchedIdleMs: how long the browser this
// shim launches stays open with no session (0: until closed by hand).
std::uint64_t LaunchedIdleMs() {
  const char* value = std::getenv("TABBRIDGE_LAUNCHED_IDLE_MS");
  if (value == nullptr || *value == '\0') return kLaunchedIdleMs;
  char* end = nullptr;
  const unsigned long long ms = std::strtoull(value, &end, 10);
  if (*end != '\0') {
    spdlog::warn("TABBRIDGE_LAUNCHED_IDLE_MS={} is not a number of milliseconds: {} ms it is", value, kLaunchedIdleMs);
    return kLaunchedIdleMs;
  }
  return ms;
}

std::string Lower(std::string text) {
  std::ranges::transform(text, text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

Json Describe(const std::string& id, const HostLink& link) {
  const Json& hello = link.hello();
  const Json browser = field::Object(hello, "browser");
  return {{"id", id},
          {"name", field::String(browser, "name").value_or("")},
          {"version", field::String(browser, "version").value_or("")},
          {"tabCount", field::Int(hello, "tabCount").value_or(0)}};
}

}  // namespace

BrowserConnect::BrowserConnect(uv_loop_t* loop, Json args, Json hello_params, Progress progress, Done done)
    : loop_(loop),
      launch_(field::Bool(args, "launch").value_or(false)),
      wanted_(field::String(args, "browser").value_or("")),
      hello_params_(std::move(hello_params)),
      progress_(std::move(progress)),
      done_(std::move(done)),
      retry_(loop),
      socket_dir_watch_(loop) {}

BrowserConnect::~BrowserConnect() { alive_.reset(); }

void BrowserConnect::Start() {
  deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(kConnectWaitMs);
  // A starting host's socket appears in the directory: probe then. Not for a
  // forwarded socket (TABBRIDGE_HOST_SOCKET), nor where it cannot be watched.
  if (HostSocketOverride().empty()) socket_dir_watch_.Start(SocketDir(), [this] { RoundSoon(); });
  Round();
}

void BrowserConnect::RoundSoon() {
  if (finished_) return;
  if (probing_) {
    changed_while_probing_ = true;
    return;
  }
  if (launch_ && !launched_) return;  // launching: the round after the launch comes anyway
  retry_.Start(0, [this] { Round(); });
}

void BrowserConnect::Round() {
  ++rounds_;
  probing_ = true;
  changed_while_probing_ = false;
  std::weak_ptr<bool> alive = alive_;
  ProbeHosts(loop_, hello_params_, [this, alive](std::expected<ProbeResult, std::string> found) {
    if (alive.expired()) return;  // cancelled while probing; the links close with `found`
    probing_ = false;
    if (!found) {
      // Someone else's directory, or one open to others: another user may have
      // planted a fake host there. Say so at once; waiting cannot fix it.
      return Fail(found.error() + " — refusing to use it: another user could have planted a fake host there",
                  "if you did not make it, remove it (rm -r " + SocketDir() +
                      ") and reconnect; or set XDG_RUNTIME_DIR (or TABBRIDGE_SOCKET_DIR) to a private directory. "
                      "`tabbridge doctor` checks it");
    }
    if (found->hosts.empty() && !found->refused.empty() && !launch_) {
      return Fail("refused " + found->refused.front(),
                  kThisPlatform == Platform::kWindows
                      ? std::string(kStopSquatter) + ", which serves that pipe; `tabbridge doctor` checks the setup"
                      : "remove that socket if you did not expect it; `tabbridge doctor` checks the setup");
    }
    OnRound(std::move(found->hosts));
  });
}

void BrowserConnect::OnRound(std::vector<LiveHost> candidates) {
  if (anew_) {
    // Not the hosts of other browsers, nor (pid reuse aside) of the dead one.
    std::erase_if(candidates, [this](const LiveHost& c) {
      return !launched_ || field::Int(field::Object(c.link->hello(), "browser"), "pid").value_or(0) != launched_->pid();
    });
  }
  if (!candidates.empty()) {
    std::vector<LiveHost*> matching;
    for (auto& c : candidates) {
      const std::string name = Lower(field::String(field::Object(c.link->hello(), "browser"), "name").value_or(""));
      if (wanted_.empty() || c.id == wanted_ || name.find(Lower(wanted_)) != std::string::npos) matching.push_back(&c);
    }
    if (matching.size() == 1) {
      LiveHost& chosen = *matching.front();
      const Json& hello = chosen.link->hello();
      // The browser without its user agent: name and version say it in a tenth of the bytes.
      Json browser = field::Object(hello, "browser");
      browser.erase("userAgent");
      Json result = {{"connected", true},
                     {"browser", std::move(browser)},
                     {"tabCount", field::Int(hello, "tabCount").value_or(0)},
                     {"launched", launched_ != nullptr},
                     {"hostPid", field::Int(hello, "hostPid").value_or(0)}};
      // What the machine made the launch choose (no sandbox, headless), said once.
      if (!launch_notes_.empty()) result["notes"] = launch_notes_;
      return Finish({std::move(chosen.link), tools::Result(std::move(result))});
    }
    Json browsers = Json::array();
    for (auto& c : candidates) browsers.push_back(Describe(c.id, *c.link));
    const std::string error = matching.empty() ? "no running browser matches '" + wanted_ + "'"
                                               : std::to_string(matching.size()) + " browsers are running tabbridge";
    return Finish(
        {nullptr, tools::Result({{"connected", false},
                                 {"error", error},
                                 {"browsers", std::move(browsers)},
                                 {"instructions", "call connect_browser with browser set to one of these ids"}},
                                true)});
  }

  if (launch_ && !launching_ && !HostSocketOverride().empty()) {
    return Fail("TABBRIDGE_HOST_SOCKET is set (" + HostSocketOverride() +
                    "): tabbridge uses the browser that socket reaches and launches none here, and nothing answers "
                    "there",
                "start the browser with the tabbridge extension on its machine and the ssh forwarding to this one "
                "(`tabbridge remote` there prints the command), then call connect_browser without launch");
  }
  if (launch_ && !launching_) {
    launching_ = true;
    auto plan = PlanLaunch();
    if (!plan) {
      const std::string install = BrowserInstallCommand();
      return Fail(plan.error(), install.empty()
                                    ? "install Chrome or Chromium, or set TABBRIDGE_BROWSER to its path"
                                    : "run `" + install + "`, then call connect_browser {launch: true} again");
    }
    deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(kLaunchWaitMs);
    std::weak_ptr<bool> alive = alive_;
    const bool headless = IsHeadless(plan->args);
    launch_notes_ = plan->notes;
    for (const auto& note : launch_notes_) spdlog::warn("{}", note);
    const std::string log_path = plan->profile_dir + "/tabbridge-browser.log";
    spdlog::debug("timeline: launching the browser");
    // The pipe's answer and the host both within kLaunchWaitMs (deadline_).
    Launch(loop_, *plan, kLaunchWaitMs,
           [this, alive, headless, log_path](std::expected<std::unique_ptr<LaunchedBrowser>, std::string> launched) {
             if (alive.expired()) return;
             if (!launched) return Fail(launched.error(), AdviceForBrowserErrors(launched.error(), log_path));
             launched_ = std::move(*launched);
             spdlog::debug("timeline: the browser loaded the extension");
             // Its host may close the launch tab: nobody looks at a headless one.
             if (headless) hello_params_[hello_param::kLaunchedHeadlessPid] = static_cast<long>(launched_->pid());
             hello_params_[hello_param::kLaunchedPid] = static_cast<long>(launched_->pid());
             hello_params_[hello_param::kLaunchedIdleMs] = LaunchedIdleMs();
             hello_params_[hello_param::kLaunchedNoDebuggerBar] = LaunchedWithoutDebuggerBar();
             if (progress_)
               progress_(0, "launched the browser (pid " + std::to_string(launched_->pid()) +
                                "); waiting for its tabbridge host");
             Round();
           });
    return;
  }

  if (launched_) {
    if (const auto exit = launched_->exited(); exit && !HandedOver(*exit)) return FailExited(*exit);
  }
  if (std::chrono::steady_clock::now() >= deadline_) {
    if (launched_) {
      return Fail("the launched browser (pid " + std::to_string(launched_->pid()) +
                      ") did not start its tabbridge host within " + std::to_string(kLaunchWaitMs / 1000) + " s",
                  "run `tabbridge doctor`, and check tabbridge-browser.log in the profile directory");
    }
    if (const std::string path = HostSocketOverride(); !path.empty()) {
      return Fail("No browser answers at " + path + " (TABBRIDGE_HOST_SOCKET)",
                  "On the machine with the browser: open it with the tabbridge extension, and run the ssh command "
                  "`tabbridge remote` prints there (it forwards that browser's socket to " +
                      path + "). `tabbridge doctor` here checks the socket.");
    }
    std::string instructions =
        "Open Chrome (or Chromium, Brave, Edge) with the tabbridge extension enabled, or call "
        "connect_browser with launch=true. `tabbridge doctor` checks the setup.";
    // Under WSL, the installed tabbridge.exe's `claude mcp add` line (looked for under /mnt/c only:
    // asking Windows through interop could block this loop).
    if (wsl::RunsUnderWsl()) instructions += wsl::NoBrowserHint(wsl::FindInstalled(wsl::SystemProbe(false)));
    return Fail("No browser found", std::move(instructions));
  }
  if (launched_ && progress_ && rounds_ % 5 == 0) {
    progress_(rounds_, "waiting for the browser to start its tabbridge host");
  }
  retry_.Start(changed_while_probing_ ? 0 : kRetryMs, [this] { Round(); });
}

// A browser started on a profile another one of it already runs hands the
// start over to that one and exits 0 ("Opening in existing browser
// session."): that one's host is what we wait for.
bool BrowserConnect::HandedOver(const BrowserExit& exit) const {
  if (exit.status != 0 || exit.signal != 0) return false;
  std::ifstream in(launched_->log_path(), std::ios::binary);
  in.seekg(static_cast<std::streamoff>(launched_->log_offset()));
  const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return log.find("existing browser session") != std::string::npos;
}

// The launched browser is gone before its host came: say so now, in its words.
void BrowserConnect::FailExited(const BrowserExit& exit) {
  std::string errors = BrowserLogErrors(launched_->log_path(), launched_->log_offset());
  std::string error = "the launched browser (pid " + std::to_string(launched_->pid()) + ") " + DescribeExit(exit) +
                      " before its tabbridge host started";
  error += errors.empty() ? " (it logged no error)" : ": " + errors;
  Fail(std::move(error), AdviceForBrowserErrors(errors, launched_->log_path()));
}

void BrowserConnect::Fail(std::string error, std::string instructions) {
  Finish({nullptr,
          tools::Result({{"connected", false}, {"error", std::move(error)}, {"instructions", std::move(instructions)}},
                        true)});
}

void BrowserConnect::Finish(ConnectOutcome outcome) {
  if (finished_) return;
  finished_ = true;
  retry_.Stop();
  done_(std::move(outcome));  // may destroy this object
}

}  // namespace tb
