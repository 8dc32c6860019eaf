// `tabbridge remote [--remote-socket PATH] [USER@]HOST`: the ssh command that
// lets an agent on HOST drive the browser on this machine — OpenSSH forwards
// this machine's host socket to a socket on HOST (ssh -R remote:local, its
// stream-local forwarding), and the shim there is pointed at it with
// TABBRIDGE_HOST_SOCKET. No port is opened on either machine.
#pragma once

#include <string>
#include <vector>

namespace tb {

struct RemoteSetup {
  std::string destination;    // [user@]host, as ssh takes it
  std::string local_socket;   // this machine's host socket
  std::string remote_socket;  // where it appears on the remote machine; "" for the default below
};

// The default remote socket: in a directory of the remote user's own, where
// no other user of that machine can put a file first (a fixed /tmp name can
// be taken by anyone there, and the forwarding then fails or lands in their
// hands): $XDG_RUNTIME_DIR, else ~/.tabbridge (made 0700), as the remote
// shell spells it (the remote expands it; this machine cannot know it).
inline constexpr const char* kRemoteSocketName = "tabbridge-remote.sock";
std::string DefaultRemoteSocketWord();  // "${XDG_RUNTIME_DIR:-$HOME/.tabbridge}/tabbridge-remote.sock"
// The remote command that makes that directory (0700, and checks it is the
// user's) and prints the socket's path there.
std::string RemoteSocketProbe();

// What `tabbridge remote` prints: the ssh command and the line for the
// remote MCP client.
std::string RemoteInstructions(const RemoteSetup& setup);

// A word as a POSIX shell reads it back (quoted only when it must be).
std::string ShellQuote(const std::string& word);

// What `remote` says on Windows instead, where it cannot work (stderr, exit 1).
extern const char* const kRemoteUnavailable;

int RunRemote(const std::vector<std::string>& args);

}  // namespace tb
