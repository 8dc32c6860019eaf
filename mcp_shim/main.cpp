// tabbridge: the MCP server an MCP client spawns. With no arguments it speaks
// MCP on stdin/stdout (stdout carries protocol only; logs go to stderr).
#include <signal.h>
#include <stdlib.h>
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <expected>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>
#include <uv.h>

#include "common/logging.h"
#include "common/policy.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "mcp_shim/audit_command.h"
#include "mcp_shim/browser_command.h"
#include "mcp_shim/console.h"
#include "mcp_shim/doctor.h"
#include "mcp_shim/mcp_server.h"
#include "mcp_shim/native_manifest.h"
#include "mcp_shim/paths.h"
#include "mcp_shim/policy_command.h"
#include "mcp_shim/register_command.h"
#include "mcp_shim/remote_command.h"
#include "mcp_shim/tools_command.h"
#include "mcp_shim/usage.h"
#include "mcp_shim/wsl_command.h"
#include "mcp_shim/wsl_roots.h"

namespace {

constexpr std::string_view kDisableAutoRegister = "--disable-webmcp-auto-register";
constexpr std::string_view kReadOnly = "--read-only";
constexpr std::string_view kUploadRoot = "--upload-root";
constexpr std::string_view kWslDistro = "--wsl-distro";

// --caps LIST (or all): the less common page tools (tools::kAllCaps).
std::expected<std::vector<std::string>, std::string> ParseCaps(const std::string& list) {
  std::vector<std::string> caps;
  std::stringstream in(list);
  for (std::string cap; std::getline(in, cap, ',');) {
    if (cap == "all") {
      caps.assign(std::begin(tb::tools::kAllCaps), std::end(tb::tools::kAllCaps));
    } else if (std::ranges::find(tb::tools::kAllCaps, cap) != std::end(tb::tools::kAllCaps)) {
      caps.push_back(cap);
    } else if (!cap.empty()) {
      std::string known;
      for (const auto name : tb::tools::kAllCaps) known += std::string(name) + ", ";
      return std::unexpected("unknown capability '" + cap + "' (known: " + known + "all)");
    }
  }
  return caps;
}

// MCP's messages are lines of JSON: on Windows the C runtime must not turn
// "\n" into "\r\n" on stdout (or drop "\r" on stdin), so both are binary.
void BinaryStdio() {
#ifdef _WIN32
  ::_setmode(::_fileno(stdin), _O_BINARY);
  ::_setmode(::_fileno(stdout), _O_BINARY);
#endif
}

void SetEnv(const char* name, const std::string& value) {
#ifdef _WIN32
  ::_putenv_s(name, value.c_str());
#else
  ::setenv(name, value.c_str(), 1);
#endif
}

int Serve(tb::SessionOptions options) {
  BinaryStdio();
  tb::InitLogging("tabbridge", "info");
  // Said here too: MCP clients show their servers' stderr, the browser's host logs where few look.
  if (const auto policy = tb::policy::Load(tb::policy::DefaultPath());
      policy.source == tb::policy::Policy::Source::kMalformed) {
    spdlog::error(
        "the policy file {} is malformed: {} — the host denies every call until it is fixed "
        "(`tabbridge policy` checks it)",
        tb::policy::ShortPath(policy.path), policy.error);
  }
#ifdef SIGPIPE
  ::signal(SIGPIPE, SIG_IGN);  // a vanished peer is an error code, not a death
#endif
  uv_loop_t* loop = uv_default_loop();
  std::string error;
  auto stdio = tb::Transport::ForStdio(loop, tb::Framing::kLine, tb::kMaxLineBytes, &error);
  if (!stdio) {
    spdlog::error("{} — tabbridge speaks MCP on stdin/stdout; run it from an MCP client", error);
    return 2;
  }
  {
    tb::McpServer server(loop, std::move(stdio), std::move(options));
    server.Start();
    uv_run(loop, UV_RUN_DEFAULT);
  }
  uv_run(loop, UV_RUN_DEFAULT);  // let close callbacks free their handles
  uv_loop_close(loop);
  return 0;
}

// tabbridge [--caps LIST] [--read-only] [--disable-webmcp-auto-register] [--surface S] [--upload-root DIR]...:
// the MCP server.
int ServeWithOptions(const std::vector<std::string>& args) {
  tb::SessionOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == kDisableAutoRegister) {
      options.list_page_tools = false;
    } else if (arg == kReadOnly) {
      options.read_only = true;
    } else if (arg == "--host-socket" || arg.starts_with("--host-socket=")) {
      const bool inline_value = arg.starts_with("--host-socket=");
      if (!inline_value && i + 1 >= args.size()) {
        std::fprintf(stderr, "tabbridge: --host-socket needs a path\n\n%s", tb::Usage().c_str());
        return 2;
      }
      // One source for the probe, doctor and this session: the environment.
      SetEnv("TABBRIDGE_HOST_SOCKET", inline_value ? arg.substr(14) : args[++i]);
    } else if (arg == kUploadRoot || arg.starts_with("--upload-root=")) {
      const bool inline_value = arg.starts_with("--upload-root=");
      if (!inline_value && i + 1 >= args.size()) {
        std::fprintf(stderr, "tabbridge: --upload-root needs a directory\n\n%s", tb::Usage().c_str());
        return 2;
      }
      const std::string dir = inline_value ? arg.substr(kUploadRoot.size() + 1) : args[++i];
      std::error_code ec;
      if (dir.empty() || !std::filesystem::is_directory(dir, ec)) {
        std::fprintf(stderr, "tabbridge: --upload-root %s is not a directory\n", dir.c_str());
        return 2;
      }
      options.upload_roots.push_back(std::filesystem::absolute(dir, ec).lexically_normal().string());
    } else if (arg == kWslDistro || arg.starts_with("--wsl-distro=")) {
      // The `claude mcp add` line `tabbridge wsl` prints: the client runs in this WSL distro (wsl_roots.h).
      const bool inline_value = arg.starts_with("--wsl-distro=");
      if (!inline_value && i + 1 >= args.size()) {
        std::fprintf(stderr, "tabbridge: --wsl-distro needs a name\n\n%s", tb::Usage().c_str());
        return 2;
      }
      const std::string distro = inline_value ? arg.substr(kWslDistro.size() + 1) : args[++i];
      if (distro.empty()) {  // "$WSL_DISTRO_NAME" unset where the line was pasted: serve anyway
        std::fprintf(stderr,
                     "tabbridge: --wsl-distro is empty: the client's WSL roots outside /mnt are left out (give the "
                     "name `wsl.exe -l` lists)\n");
      } else if (!tb::wsl::IsDistroName(distro)) {
        std::fprintf(stderr, "tabbridge: --wsl-distro %s: not a WSL distro's name\n", distro.c_str());
        return 2;
      }
      SetEnv(tb::wsl::kDistroVariable, distro);
    } else if (arg == "--surface" || arg.starts_with("--surface=")) {
      const bool inline_value = arg.starts_with("--surface=");
      if (!inline_value && i + 1 >= args.size()) {
        std::fprintf(stderr,
                     "tabbridge: --surface needs state, state-pinned, stable, stable-deferred or dispatch\n\n%s",
                     tb::Usage().c_str());
        return 2;
      }
      const std::string name = inline_value ? arg.substr(10) : args[++i];
      options.surface = tb::tools::ParseSurface(name);
      if (!options.surface) {
        std::fprintf(stderr,
                     "tabbridge: --surface %s: not one of state, state-pinned, stable, stable-deferred, dispatch\n",
                     name.c_str());
        return 2;
      }
    } else if (arg == "--caps" || arg.starts_with("--caps=")) {
      const bool inline_value = arg.starts_with("--caps=");
      if (!inline_value && i + 1 >= args.size()) {
        std::fprintf(stderr, "tabbridge: --caps needs a list\n\n%s", tb::Usage().c_str());
        return 2;
      }
      auto parsed = ParseCaps(inline_value ? arg.substr(7) : args[++i]);
      if (!parsed) {
        std::fprintf(stderr, "tabbridge: %s\n", parsed.error().c_str());
        return 2;
      }
      options.caps = std::move(*parsed);
    } else {
      std::fprintf(stderr, "tabbridge: unknown option '%s'\n\n%s", arg.c_str(), tb::Usage().c_str());
      return 2;
    }
  }
  return Serve(std::move(options));
}

}  // namespace

int main(int argc, char** argv) {
  tb::console::UseUtf8Output();  // Windows: UTF-8 on a console; pipes and files untouched
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0].starts_with("--caps") || args[0].starts_with("--host-socket") ||
      args[0].starts_with("--surface") || args[0] == kDisableAutoRegister || args[0] == kReadOnly ||
      args[0].starts_with(kUploadRoot) || args[0].starts_with(kWslDistro)) {
    return ServeWithOptions(args);
  }
  const std::string& command = args[0];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(tb::Usage().c_str(), stdout);
    return 0;
  }
  if (command == "--version") {
    std::printf("tabbridge %s (MCP %s)\n", std::string(tb::kVersion).c_str(), tb::mcp::ProtocolVersionList().c_str());
    return 0;
  }
  if (command == "doctor") return tb::RunDoctor();
  if (command == "policy") return tb::RunPolicy({args.begin() + 1, args.end()});
  if (command == "allow") return tb::RunAllow({args.begin() + 1, args.end()});
  if (command == "audit") return tb::RunAudit({args.begin() + 1, args.end()});
  if (command == "tools") return tb::RunTools({args.begin() + 1, args.end()});
  if (command == "register") return tb::RunRegister({args.begin() + 1, args.end()});
  if (command == "remote") return tb::RunRemote({args.begin() + 1, args.end()});
  if (command == "browser" && args.size() == 1) return tb::RunBrowser();
  if (command == "unregister") return tb::RunUnregister({args.begin() + 1, args.end()});
  if (command == "wsl") return tb::RunWsl({args.begin() + 1, args.end()});
  std::fprintf(stderr, "tabbridge: unknown command '%s'\n\n%s", command.c_str(), tb::Usage().c_str());
  return 2;
}
