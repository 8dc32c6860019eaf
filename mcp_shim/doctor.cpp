#include "mcp_shim/doctor.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include <uv.h>

#include "common/json_field.h"
#include "common/platform.h"
#include "common/policy.h"
#include "common/protocol.h"
#include "common/socket_dir.h"
#include "mcp_shim/doctor_report.h"
#include "mcp_shim/extension_id.h"
#include "mcp_shim/host_probe.h"
#include "mcp_shim/launcher.h"
#include "mcp_shim/native_manifest.h"
#include "mcp_shim/paths.h"

namespace tb {
namespace {

#ifdef _WIN32
constexpr const char* kReinstall = "run install.ps1 from tabbridge-windows.zip again";
constexpr const char* kEndpoint = "pipe";
const std::string kRefusedFix = std::string(kStopSquatter) + ", which serves that pipe; only your own hosts are used";
#else
constexpr const char* kReinstall = "run install/install.sh again";
constexpr const char* kEndpoint = "socket";
const std::string kRefusedFix = "remove that socket; only your own hosts are used";
#endif

// Where hosts listen. POSIX: the socket directory, which must be 0700 and
// ours. Windows: named pipes, nothing to check before connecting (each pipe
// grants our account alone and every connection checks its server's SID).
// False when there is nothing to probe.
bool CheckEndpoints(DoctorReport& report, const std::string& dir, const std::string& override_socket) {
  if (!override_socket.empty()) {
    report.Note("TABBRIDGE_HOST_SOCKET=" + override_socket + ": only the host there is used (" + dir +
                " is not looked at)");
    return true;
  }
#ifdef _WIN32
  report.Ok("pipes: " + dir + "-browser-<n> (each grants your account alone; every connection checks its server)");
  return true;
#else
  if (!std::filesystem::exists(dir)) {
    report.Note("socket directory " + dir + " does not exist yet (no host has run)");
    return false;
  }
  if (auto ok = CheckPrivateDir(dir); !ok) {
    report.Fail("socket directory: " + ok.error(), "chmod 700 " + dir + " (or remove it; the host recreates it)");
    return false;
  }
  report.Ok("socket directory: " + dir + " (0700, yours)");
  return true;
#endif
}

}  // namespace

int RunDoctor() {
  DoctorReport report;

  // 1. The programs.
  if (IsExecutable(HostBinary()))
    report.Ok("host binary: " + HostBinary());
  else
    report.Fail("tabbridge-host is not next to tabbridge (" + HostBinary() + ")", kReinstall);

  // 2. The extension and its ID.
  const std::string extension = ExtensionDir();
  const auto id = ExtensionIdOfDir(extension);
  if (!id) {
    report.Fail("no tabbridge extension at " + extension, std::string(kReinstall) + ", or set TABBRIDGE_EXTENSION_DIR");
  } else if (*id != kExtensionId) {
    report.Fail("the extension at " + extension + " has ID " + *id + ", the host allows " + std::string(kExtensionId),
                "reinstall so the extension and the binaries come from the same version");
  } else {
    report.Ok("extension: " + extension + " (ID " + *id + ")");
  }

  // 3. Registration: how the browsers find tabbridge-host (doctor_registration*.cpp).
  const std::string allowed_id = id.value_or(std::string(kExtensionId));
  // Windows registers with every browser's key whether it is installed or not; each key said its state.
  if (CheckRegistration(report, allowed_id) == 0 && kThisPlatform != Platform::kWindows)
    report.Note("no Chrome-family browser found to register with; connect_browser {launch: true} still works");

  // 3b. What a launched browser would be, and what this machine makes it do.
  if (auto plan = PlanLaunch(); plan) {
    report.Ok("launch: " + plan->executable);
    for (const auto& note : plan->notes) report.Note("launch: " + note);
  } else {
    report.Note("launch: " + plan.error());
  }

  // 4. Where hosts listen (or the one socket the user named).
  const std::string override_socket = HostSocketOverride();
  const std::string dir = SocketDir();
  const bool dir_ok = CheckEndpoints(report, dir, override_socket);

  // 5. Live hosts.
  if (dir_ok) {
    const auto slots = override_socket.empty() ? ListSlots(dir) : std::vector<int>{0};
    uv_loop_t loop;
    uv_loop_init(&loop);
    std::vector<LiveHost> live;
    std::vector<std::string> refused;
    ProbeHosts(&loop, {{"name", "tabbridge-doctor"}}, [&](std::expected<ProbeResult, std::string> found) {
      if (found) {
        live = std::move(found->hosts);
        refused = std::move(found->refused);
      }
      uv_stop(&loop);  // the live links stay open; we are done waiting
    });
    uv_run(&loop, UV_RUN_DEFAULT);
    for (auto& host : live) {
      const Json& hello = host.link->hello();
      const Json browser = field::Object(hello, "browser");
      report.Ok("live host " + host.id + ": " + field::String(browser, "name").value_or("?") + " " +
                field::String(browser, "version").value_or("") + ", " +
                std::to_string(field::Int(hello, "tabCount").value_or(0)) + " tabs");
      // The host's own view: the browser's environment picked its policy file.
      const Json host_policy = field::Object(hello, "policy");
      const std::string state = field::String(host_policy, "state").value_or("unknown");
      const std::string policy_path = policy::ShortPath(field::String(host_policy, "path").value_or("?"));
      if (state == "malformed") {
        report.Fail("live host " + host.id + ": its policy " + policy_path + " is malformed: " +
                        field::String(host_policy, "error").value_or("?") + " — it denies everything",
                    "fix the file (docs/policy.md); the host re-reads it when it changes");
      } else if (state == "file") {
        report.Ok("live host " + host.id + ": policy " + policy_path + " (" +
                  std::to_string(field::Int(host_policy, "rules").value_or(0)) + " rules)");
      } else if (state == "none") {
        report.Ok("live host " + host.id + ": no policy file at " + policy_path +
                  " (the person is asked for each site)");
      }
      const Json webmcp = field::String(hello, "webmcp").value_or("unknown");
      if (webmcp == "native") {
        report.Ok("live host " + host.id + ": the browser has native WebMCP (pages' own tools need no polyfill)");
      } else {
        report.Note("live host " + host.id + ": native WebMCP " +
                    std::string(webmcp == "absent" ? "is off" : "not seen yet") +
                    " — pages' own tools still work through @mcp-b/global, forms and the older API; start the "
                    "browser with --enable-features=WebMCP for native ones (connect_browser {launch: true} does)");
      }
    }
    for (const auto& why : refused) report.Fail("refused " + why, kRefusedFix);
    // No pipe outlives its server: on Windows a pipe that did not answer is no stale one.
    if (override_socket.empty() && live.size() < slots.size() && kThisPlatform != Platform::kWindows) {
      report.Note(std::to_string(slots.size() - live.size()) +
                  " stale socket(s) from crashed hosts; the next host replaces them");
    }
    if (live.empty() && !override_socket.empty()) {
      report.Fail("no tabbridge host answers at " + override_socket,
                  kThisPlatform == Platform::kWindows
                      ? "unset TABBRIDGE_HOST_SOCKET, or name the pipe of a running host"
                      : "on the machine with the browser, run the ssh command `tabbridge remote` prints there");
    } else if (live.empty()) {
      report.Fail("no browser is running the tabbridge extension",
                  "open your browser and load the extension (chrome://extensions → Developer mode → Load unpacked → " +
                      extension + "), or let connect_browser {launch: true} start one");
    }
    live.clear();
    uv_run(&loop, UV_RUN_DEFAULT);  // let the probe's handles close
    uv_loop_close(&loop);
  } else if (!std::filesystem::exists(dir)) {
    report.Fail(
        "no browser is running the tabbridge extension",
        "open your browser with the extension loaded (" + extension + "), or use connect_browser {launch: true}");
  }

  // 6. The policy file, as this environment finds it (docs/policy.md).
  const auto found = policy::Load(policy::DefaultPath());
  const std::string policy_path = policy::ShortPath(found.path);
  switch (found.source) {
    case policy::Policy::Source::kNone:
      report.Note("policy: no file at " + policy_path +
                  " — the person is asked the first time an agent uses a site (docs/policy.md)");
      break;
    case policy::Policy::Source::kFile:
      report.Ok("policy: " + policy_path + " (" + std::to_string(found.rules.size()) +
                " rules; `tabbridge policy` shows them)");
      break;
    case policy::Policy::Source::kMalformed:
      report.Fail("policy: " + policy_path + " is malformed: " + found.error + " — the host denies everything",
                  "fix it (docs/policy.md); `tabbridge policy` checks it again");
      break;
  }
  // What no policy covers (docs/policy.md "Threat model"), said where the policy is.
  report.Note(
      "policy does not cover: frames of other sites inside an allowed page are read with it "
      "(acting in them is decided for their own site); \"*\" is the web, local files only where a rule "
      "names file:; any process of your own user can connect to the " +
      std::string(kEndpoint) + " and drive every session");

  // 7. What MCP clients can speak to this shim.
  report.Ok("MCP revisions spoken: " + mcp::ProtocolVersionList() + " (tabbridge " + std::string(kVersion) + ")");

  std::printf(report.failures == 0 ? "\nall links work\n" : "\n%d problem(s) found\n", report.failures);
  return report.failures == 0 ? 0 : 1;
}

}  // namespace tb
