#include "mcp_shim/remote_command.h"

#include <cstdio>

#include <uv.h>

#include "common/platform.h"
#include "common/socket_dir.h"
#include "mcp_shim/host_probe.h"

namespace tb {

namespace {

// This machine's live host socket, or "" when no browser runs the extension.
std::string LiveHostSocket() {
  uv_loop_t loop;
  uv_loop_init(&loop);
  std::string path;
  ProbeHosts(&loop, {{"name", "tabbridge-remote"}}, [&](std::expected<ProbeResult, std::string> found) {
    if (found && !found->hosts.empty()) path = found->hosts.front().link->path();
  });
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
  return path;
}

constexpr const char* kUsage =
    "usage: tabbridge remote [--remote-socket PATH] [USER@]HOST\n"
    "  prints the ssh command that lets an agent on HOST drive the browser on this machine;\n"
    "  the socket there goes into HOST's $XDG_RUNTIME_DIR, else ~/.tabbridge (0700), unless PATH is given\n";

}  // namespace

const char* const kRemoteUnavailable =
    "tabbridge remote: not available on Windows — ssh -R forwards to a Unix socket and the host here listens on a "
    "named pipe. Run the agent on this machine (or in WSL: `tabbridge.exe wsl` prints the line), or run the browser "
    "on a Linux or macOS machine and `tabbridge remote` there.\n";

std::string ShellQuote(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") ==
          std::string::npos) {
    return word;
  }
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string DefaultRemoteSocketWord() {
  return std::string("${XDG_RUNTIME_DIR:-$HOME/.tabbridge}/") + kRemoteSocketName;
}

std::string RemoteSocketProbe() {
  return std::string(
             "d=${XDG_RUNTIME_DIR:-$HOME/.tabbridge}; mkdir -p -m 700 \"$d\" && test -O \"$d\" && printf %s "
             "\"$d/") +
         kRemoteSocketName + "\"";
}

std::string RemoteInstructions(const RemoteSetup& s) {
  const std::string dest = ShellQuote(s.destination);
  const bool chosen = !s.remote_socket.empty();
  // With a path given, it is written as it is; else the remote says where its user's directory is.
  const std::string forward =
      chosen ? ShellQuote(s.remote_socket + ":" + s.local_socket) : "\"$sock\":" + ShellQuote(s.local_socket);
  const std::string env =
      "TABBRIDGE_HOST_SOCKET=" + (chosen ? ShellQuote(s.remote_socket) : "\"" + DefaultRemoteSocketWord() + "\"");
  const std::string remove =
      chosen ? "rm " + ShellQuote(s.remote_socket) : ShellQuote("rm \"" + DefaultRemoteSocketWord() + "\"");
  std::string text;
  if (chosen) {
    text = "# On this machine (it runs the browser), log in to " + s.destination +
           " with the browser's socket forwarded:\n";
  } else {
    text = "# On this machine (it runs the browser): ask " + s.destination +
           " for its socket directory (its $XDG_RUNTIME_DIR, else\n"
           "# ~/.tabbridge, made 0700: no other user there can take the name), then log in with the browser's\n"
           "# socket forwarded into it:\n"
           "sock=$(ssh " +
           dest + " " + ShellQuote(RemoteSocketProbe()) + ") &&\n";
  }
  return text + "ssh -o ExitOnForwardFailure=yes -R " + forward + " " + dest +
         "\n"
         "# There, start tabbridge with " +
         env +
         ", e.g. for Claude Code:\n"
         "#   claude mcp add tabbridge -e " +
         env +
         " -- tabbridge\n"
         "# If ssh says the forwarding failed, the socket of an earlier login is still there: remove it\n"
         "# (ssh " +
         dest + " " + remove + "), or set StreamLocalBindUnlink yes in the remote sshd_config.\n";
}

int RunRemote(const std::vector<std::string>& args) {
  if (kThisPlatform == Platform::kWindows) {
    // ssh -R forwards to a Unix socket, and the host here listens on a named
    // pipe: nothing on this side could take the forwarded connections.
    std::fputs(kRemoteUnavailable, stderr);
    return 1;
  }
  RemoteSetup setup;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--remote-socket" && i + 1 < args.size()) {
      setup.remote_socket = args[++i];
    } else if (args[i].starts_with("-") || !setup.destination.empty()) {
      std::fputs(kUsage, stderr);
      return 2;
    } else {
      setup.destination = args[i];
    }
  }
  if (setup.destination.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  setup.local_socket = LiveHostSocket();
  if (setup.local_socket.empty()) {
    setup.local_socket = SocketPath(SocketDir(), 0);
    std::fprintf(stderr,
                 "tabbridge: no browser runs the tabbridge extension on this machine yet; the command below forwards "
                 "the socket its host will open (%s)\n",
                 setup.local_socket.c_str());
  }
  std::fputs(RemoteInstructions(setup).c_str(), stdout);
  return 0;
}

}  // namespace tb
