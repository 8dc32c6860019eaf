#include "mcp_shim/launcher.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/jsonrpc.h"
#include "common/uv_util.h"
#include "mcp_shim/browser_paths.h"
#include "mcp_shim/browser_process.h"
#include "mcp_shim/launch_env.h"
#include "mcp_shim/native_manifest.h"
#include "mcp_shim/paths.h"

namespace tb {
namespace fs = std::filesystem;

namespace {

std::string DetectBrowser() {
  const auto env = [](const char* name) {
    const char* value = std::getenv(name);
    return std::string(value != nullptr ? value : "");
  };
  const auto candidates = BrowserCandidates(kThisPlatform, env);
  if (kThisPlatform != Platform::kLinux) return PickBrowser(candidates, IsExecutable);
  for (const auto& program : candidates) {
    if (auto found = FindOnPath(program); !found.empty()) return found;
  }
  return "";
}

std::vector<std::string> SplitArgs(const char* text) {
  std::vector<std::string> args;
  std::stringstream in(text != nullptr ? text : "");
  for (std::string arg; in >> arg;) args.push_back(arg);
  return args;
}

// A launched browser: its process and, while it runs, our ends of its DevTools pipe.
class SpawnedBrowser : public LaunchedBrowser {
 public:
  explicit SpawnedBrowser(std::unique_ptr<BrowserProcess> process) : process_(std::move(process)) {}
  ~SpawnedBrowser() override {
    CloseHandle(reinterpret_cast<uv_handle_t*>(to_browser_));
    CloseHandle(reinterpret_cast<uv_handle_t*>(from_browser_));
  }
  int pid() const override { return process_->pid(); }
  std::optional<BrowserExit> exited() const override { return process_->exited(); }
  std::string log_path() const override { return log_path_; }
  std::uint64_t log_offset() const override { return log_offset_; }

  std::unique_ptr<BrowserProcess> process_;
  std::string log_path_;
  std::uint64_t log_offset_ = 0;
  uv_pipe_t* to_browser_ = nullptr;    // the browser reads CDP from it
  uv_pipe_t* from_browser_ = nullptr;  // and answers on it
  std::string reply_;
};

}  // namespace

namespace {

bool ListsFeature(std::string_view list, std::string_view feature) {
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    if (list.substr(start, comma - start) == feature) return true;
    start = comma + 1;
  }
  return false;
}

}  // namespace

// Chrome honours only the last --enable-features (and the last
// --disable-features), so a feature joins the last such switch.
void AddFeature(std::vector<std::string>& args, std::string_view which, std::string_view feature) {
  for (const auto& arg : args) {
    for (std::string_view decides : {"--enable-features=", "--disable-features="}) {
      if (arg.starts_with(decides) && ListsFeature(std::string_view(arg).substr(decides.size()), feature)) return;
    }
  }
  for (auto it = args.rbegin(); it != args.rend(); ++it) {
    if (it->starts_with(which)) {
      *it += (it->size() == which.size() ? "" : ",") + std::string(feature);
      return;
    }
  }
  args.push_back(std::string(which) + std::string(feature));
}

bool LaunchedWithoutDebuggerBar() {
  const char* bar = std::getenv("TABBRIDGE_DEBUGGER_BAR");
  return bar == nullptr || std::string_view(bar) != "show";
}

bool IsHeadless(const std::vector<std::string>& args) {
  for (const auto& arg : args) {
    if (arg == "--headless" || arg == "--headless=new" || arg == "--headless=old") return true;
  }
  return false;
}

void KeepHeadlessAlive(std::vector<std::string>& args) {
  constexpr std::string_view kKeepAlive = "--keep-alive-for-test";
  if (!IsHeadless(args) || std::ranges::find(args, kKeepAlive) != args.end()) return;
  args.emplace_back(kKeepAlive);
}

void EnableWebMcp(std::vector<std::string>& args) { AddFeature(args, "--enable-features=", "WebMCP"); }

// Renderers a browser keeps alive for a person, not for an agent (measured with
// bench/peers.mjs on Chromium 156): the WebUI omnibox popup (~140 MiB RSS,
// ~20 MiB private, from start on; the native popup does the same job) and the
// spare renderer kept ready for the next new site (~75 MiB RSS).
void DisableIdleRenderers(std::vector<std::string>& args) {
  for (std::string_view feature : {"WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "SpareRendererForSitePerProcess"}) {
    AddFeature(args, "--disable-features=", feature);
  }
}

std::expected<LaunchPlan, std::string> PlanLaunch() {
  LaunchPlan plan;
  const char* env_browser = std::getenv("TABBRIDGE_BROWSER");
  plan.executable = env_browser != nullptr && *env_browser != '\0' ? env_browser : DetectBrowser();
  if (plan.executable.empty()) {
    const std::string install = BrowserInstallCommand();
    // Windows finds browsers where their installers put them, not on PATH, and has no install.sh.
    constexpr bool kWindows = kThisPlatform == Platform::kWindows;
    return std::unexpected(
        std::string(kWindows ? "no Chrome, Edge, Brave, Vivaldi or Chromium found in Program Files or %LOCALAPPDATA% — "
                             : "no Chrome-family browser found on PATH — ") +
        (install.empty() ? std::string("install Chrome or Chromium") : "install one with `" + install + "`") +
        (kWindows ? "" : " (or run install/install.sh, which does)") +
        ", or set TABBRIDGE_BROWSER to a browser's path");
  }
  if (!IsExecutable(plan.executable)) {
    return std::unexpected("TABBRIDGE_BROWSER=" + plan.executable + " is not an executable");
  }
  plan.profile_dir = ProfileDir();
  plan.extension_dir = ExtensionDir();
  if (!fs::exists(plan.extension_dir + "/manifest.json")) {
    return std::unexpected("the tabbridge extension is not at " + plan.extension_dir +
                           " — reinstall, or set TABBRIDGE_EXTENSION_DIR");
  }
  const char* method = std::getenv("TABBRIDGE_LAUNCH_METHOD");  // "pipe" or "flag": tests force one
  plan.load_over_pipe = method != nullptr && *method != '\0' ? std::string(method) == "pipe"
                                                             : IsBrandedChrome(plan.executable, kThisPlatform);

  // --silent-debugger-extension-api: no "started debugging this browser" bar,
  // which would shrink every tab's viewport ~150 ms after our first attach (the
  // first click waited for it: worker/debugger_bar.js); nobody but the agent
  // uses a browser tabbridge launched. TABBRIDGE_DEBUGGER_BAR=show keeps the
  // bar, as the person's own browser shows it (tests of its race).
  plan.args = {"--user-data-dir=" + plan.profile_dir, "--no-first-run", "--no-default-browser-check"};
  if (LaunchedWithoutDebuggerBar()) plan.args.emplace_back("--silent-debugger-extension-api");
  if (plan.load_over_pipe) {
    plan.args.insert(plan.args.end(), {"--remote-debugging-pipe", "--enable-unsafe-extension-debugging"});
  } else {
    plan.args.push_back("--load-extension=" + plan.extension_dir);
  }
  const auto user_args = SplitArgs(std::getenv("TABBRIDGE_BROWSER_ARGS"));
  LaunchChoice choice = ChooseLaunchArgs(ReadLaunchEnv(plan.executable), user_args);
  plan.args.insert(plan.args.end(), choice.args.begin(), choice.args.end());
  plan.notes = std::move(choice.notes);
  plan.args.insert(plan.args.end(), user_args.begin(), user_args.end());
  EnableWebMcp(plan.args);
  DisableIdleRenderers(plan.args);
  KeepHeadlessAlive(plan.args);
  plan.args.push_back("about:blank");
  return plan;
}

std::expected<void, std::string> PrepareProfileDir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return std::unexpected("cannot create the profile " + dir + ": " + ec.message());
  // The browser keeps the user's logins (cookies) here: the user's alone,
  // also when an older tabbridge made it 0755.
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
  if (ec) return std::unexpected("cannot make the profile " + dir + " private: " + ec.message());
  return {};
}

namespace {

// Waiting for the browser's answer on the DevTools pipe.
struct PipeRead {
  std::unique_ptr<SpawnedBrowser> browser;
  std::function<void(std::expected<std::unique_ptr<LaunchedBrowser>, std::string>)> done;
  char buffer[4096];
  std::unique_ptr<Timer> deadline;  // ends the wait for an answer that never comes
};

// The exit callback comes a moment after the pipe's end: how long to wait
// for it, so the answer can say how the browser ended.
constexpr int kExitPolls = 20;
constexpr std::uint64_t kExitPollMs = 25;

// The pipe ended before the answer: the browser is gone (or going). Answers
// with how it ended and its own last error lines.
void ReportPipeClosed(PipeRead* r, int polls_left) {
  const auto exit = r->browser->exited();
  if (!exit && polls_left > 0) {
    r->deadline->Start(kExitPollMs, [r, polls_left] { ReportPipeClosed(r, polls_left - 1); });
    return;
  }
  std::unique_ptr<PipeRead> owned(r);
  std::string error = "the launched browser (pid " + std::to_string(owned->browser->pid()) + ") " +
                      (exit ? DescribeExit(*exit) + ", closing" : "closed") +
                      " its DevTools pipe before loading the extension";
  if (const std::string errors = BrowserLogErrors(owned->browser->log_path(), owned->browser->log_offset());
      !errors.empty()) {
    error += ": " + errors;
  }
  owned->done(std::unexpected(std::move(error)));
}

}  // namespace

void Launch(uv_loop_t* loop, const LaunchPlan& plan, std::uint64_t answer_within_ms,
            std::function<void(std::expected<std::unique_ptr<LaunchedBrowser>, std::string>)> done) {
  if (auto ready = PrepareProfileDir(plan.profile_dir); !ready) return done(std::unexpected(ready.error()));
  if (const auto owner = ClearStaleProfileLock(plan.profile_dir)) {
    spdlog::warn("removed the profile lock left by a browser that is gone ({})", *owner);
  }
  if (!IsExecutable(HostBinary())) {
    return done(std::unexpected("tabbridge-host is missing next to tabbridge (" + HostBinary() + ") — reinstall"));
  }
  // Chrome on Windows reads native-messaging hosts from the registry only
  // (`tabbridge register`); elsewhere the profile's own directory serves.
  if (kThisPlatform != Platform::kWindows) {
    if (auto written = WriteManifest(plan.profile_dir + "/NativeMessagingHosts", HostBinary()); !written) {
      return done(std::unexpected(written.error()));
    }
  }
  StartBrowser(loop, plan, answer_within_ms, std::move(done));
}

void StartBrowser(uv_loop_t* loop, const LaunchPlan& plan, std::uint64_t answer_within_ms,
                  std::function<void(std::expected<std::unique_ptr<LaunchedBrowser>, std::string>)> done) {
  // The browser's output goes to a log in its profile: our stdout is MCP.
  const std::string log_path = plan.profile_dir + "/tabbridge-browser.log";
  std::error_code ec;
  const auto log_size = fs::file_size(log_path, ec);
  auto spawned = SpawnBrowser(loop, plan.executable, plan.args, plan.load_over_pipe, log_path);
  if (!spawned) return done(std::unexpected(spawned.error()));
  auto browser = std::make_unique<SpawnedBrowser>(std::move(spawned->process));
  browser->log_path_ = log_path;
  browser->log_offset_ = ec ? 0 : static_cast<std::uint64_t>(log_size);
  spdlog::info("launched {} (pid {}) with profile {}", plan.executable, browser->pid(), plan.profile_dir);
  if (!plan.load_over_pipe) return done(std::move(browser));
  browser->to_browser_ = NewHandle<uv_pipe_t>();
  browser->from_browser_ = NewHandle<uv_pipe_t>();
  uv_pipe_init(loop, browser->to_browser_, 0);
  uv_pipe_init(loop, browser->from_browser_, 0);
  uv_pipe_open(browser->to_browser_, spawned->to_browser);
  uv_pipe_open(browser->from_browser_, spawned->from_browser);

  // CDP over the pipe: NUL-terminated JSON messages.
  const std::string command =
      rpc::Dump(Json{{"id", 1}, {"method", "Extensions.loadUnpacked"}, {"params", {{"path", plan.extension_dir}}}}) +
      std::string(1, '\0');
  auto* write = new std::pair<uv_write_t, std::string>{{}, command};
  uv_buf_t command_buf = uv_buf_init(write->second.data(), static_cast<unsigned>(write->second.size()));
  uv_write(&write->first, reinterpret_cast<uv_stream_t*>(browser->to_browser_), &command_buf, 1,
           [](uv_write_t* req, int) { delete reinterpret_cast<std::pair<uv_write_t, std::string>*>(req); });

  auto* read = new PipeRead{std::move(browser), std::move(done), {}, std::make_unique<Timer>(loop)};
  read->browser->from_browser_->data = read;
  uv_read_start(
      reinterpret_cast<uv_stream_t*>(read->browser->from_browser_),
      [](uv_handle_t* h, std::size_t, uv_buf_t* out) {
        auto* r = static_cast<PipeRead*>(h->data);
        *out = uv_buf_init(r->buffer, sizeof(r->buffer));
      },
      [](uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
        auto* r = static_cast<PipeRead*>(s->data);
        if (nread > 0) r->browser->reply_.append(buf->base, static_cast<std::size_t>(nread));
        const auto end = r->browser->reply_.find('\0');
        if (nread >= 0 && end == std::string::npos) return;
        uv_read_stop(s);
        s->data = nullptr;
        std::unique_ptr<PipeRead> owned(r);
        if (end == std::string::npos) return ReportPipeClosed(owned.release(), kExitPolls);
        const Json reply = Json::parse(owned->browser->reply_.substr(0, end), nullptr, false);
        if (const Json* error = field::Find(reply, "error")) {
          return owned->done(std::unexpected("the browser refused to load the extension: " +
                                             field::String(*error, "message").value_or("unknown error")));
        }
        owned->done(std::move(owned->browser));
      });
  read->deadline->Start(answer_within_ms, [read, answer_within_ms] {
    uv_read_stop(reinterpret_cast<uv_stream_t*>(read->browser->from_browser_));
    read->browser->from_browser_->data = nullptr;
    std::unique_ptr<PipeRead> owned(read);
    // Without the extension it is of no use, and it would hold the profile.
    const int pid = owned->browser->pid();
    owned->browser->process_->Stop();
    owned->done(std::unexpected("the launched browser (pid " + std::to_string(pid) +
                                ") did not answer on its DevTools pipe within " +
                                std::to_string(answer_within_ms / 1000) + " s, so tabbridge stopped it"));
  });
}

std::string BrowserLogErrors(const std::string& log_path, std::uint64_t offset, std::size_t max_lines) {
  std::ifstream in(log_path, std::ios::binary);
  if (!in) return "";
  in.seekg(static_cast<std::streamoff>(offset));
  std::vector<std::string> errors;
  for (std::string line; std::getline(in, line);) {
    // [12:12:1125/101010.123456:ERROR:zygote_host_impl_linux.cc(101)] Running as root without …
    std::string text = line;
    if (line.starts_with('[')) {
      const auto close = line.find("] ");
      if (close == std::string::npos) continue;
      const std::string prefix = line.substr(0, close);
      if (prefix.find(":ERROR:") == std::string::npos && prefix.find(":FATAL:") == std::string::npos) continue;
      text = line.substr(close + 2);
    } else if (line.find("rror") == std::string::npos && line.find("cannot") == std::string::npos &&
               line.find("not found") == std::string::npos) {
      continue;  // a wrapper script's own words count only when they say something failed
    }
    while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.pop_back();
    if (text.empty() || (!errors.empty() && errors.back() == text)) continue;
    errors.push_back(text.size() > 300 ? text.substr(0, 299) + "…" : text);
  }
  if (errors.size() > max_lines) errors.erase(errors.begin(), errors.end() - static_cast<std::ptrdiff_t>(max_lines));
  std::string joined;
  for (const auto& e : errors) joined += (joined.empty() ? "" : "\n") + e;
  return joined;
}

std::string AdviceForBrowserErrors(const std::string& errors, const std::string& log_path) {
  const std::string log = "the whole log is " + log_path;
  if (errors.find("without --no-sandbox") != std::string::npos ||
      errors.find("No usable sandbox") != std::string::npos) {
    return "the browser's sandbox cannot start here: put --no-sandbox in TABBRIDGE_BROWSER_ARGS (tabbridge adds it "
           "itself as root and where user namespaces are blocked); " +
           log;
  }
  if (errors.find("Missing X server") != std::string::npos ||
      errors.find("platform failed to initialize") != std::string::npos) {
    return "the browser found no display: set DISPLAY, or put --headless=new in TABBRIDGE_BROWSER_ARGS; " + log;
  }
  if (errors.find("in use by another") != std::string::npos || errors.find("ProcessSingleton") != std::string::npos) {
    return "another browser holds the profile: close it, or set TABBRIDGE_PROFILE_DIR to another directory; " + log;
  }
  return "run `tabbridge doctor`; " + log;
}

bool IsWindowsException(std::int64_t status) { return status >= 0xC0000000LL && status <= 0xFFFFFFFFLL; }

std::string ExceptionCode(std::int64_t status) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%08llX", static_cast<unsigned long long>(status));
  return text;
}

std::string DescribeExit(const BrowserExit& exit) {
  if (exit.signal != 0) return "was killed by signal " + std::to_string(exit.signal);
  if (IsWindowsException(exit.status)) return "crashed (exception " + ExceptionCode(exit.status) + ")";
  return "exited with status " + std::to_string(exit.status);
}

}  // namespace tb
