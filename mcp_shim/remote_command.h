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
  std::string remote_socket;  // where it appears on the remote machine
};

// The remote socket when none is given: /tmp/tabbridge-<user>.sock, <user>
// the login name on the remote machine (from user@host, else `local_user`).
std::string DefaultRemoteSocket(const std::string& destination, const std::string& local_user);

// What `tabbridge remote` prints: the ssh command and the line for the
// remote MCP client.
std::string RemoteInstructions(const RemoteSetup& setup);

// A word as a POSIX shell reads it back (quoted only when it must be).
std::string ShellQuote(const std::string& word);

int RunRemote(const std::vector<std::string>& args);

}  // namespace tb
