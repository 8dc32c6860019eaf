#include "mcp_shim/usage.h"

#include "common/capabilities.h"
#include "common/platform.h"

namespace tb {
namespace {

constexpr bool kWindows = kThisPlatform == Platform::kWindows;

// The lines that differ on Windows: a pipe not a socket, the registry not
// manifest directories, no ssh forwarding, where files live.
const char* Registration() {
  return kWindows ? "       tabbridge register        write the manifest to %LOCALAPPDATA%\\tabbridge and point every\n"
                    "                                 Chrome-family browser's HKCU key at it (install.ps1 does)\n"
                    "       tabbridge unregister      remove the keys that point at it, and the manifest\n"
                  : "       tabbridge register [DIR]  write the native-messaging manifest for every browser found\n"
                    "                                 (or into DIR, a NativeMessagingHosts directory)\n"
                    "       tabbridge register --system [--root R] [--host-path P]\n"
                    "                                 into every browser's system-wide directory (as root; the .deb\n"
                    "                                 ships these); --print shows the manifest instead\n"
                    "       tabbridge unregister [--system]\n"
                    "                                 remove those manifests\n";
}

const char* Remote() {
  return kWindows
             ? "       tabbridge remote          not on Windows (ssh forwards Unix sockets; the host here has a pipe)\n"
             : "       tabbridge remote [--remote-socket PATH] [USER@]HOST\n"
               "                                 the ssh command that lets an agent on HOST drive this machine's "
               "browser\n";
}

// --linux only where a Linux policy file can differ from the browser's: in WSL.
const char* PolicyCommands() {
  return kWindows
             ? "       tabbridge policy [URL]    print the effective policy; with URL, what is allowed there and why\n"
               "       tabbridge allow SITE [read|act|eval|download]\n"
               "                                 let agents use SITE without asking (a rule in the policy file)\n"
             : "       tabbridge policy [--linux] [URL]\n"
               "                                 print the effective policy; with URL, what is allowed there and "
               "why\n"
               "       tabbridge allow [--linux] SITE [read|act|eval|download]\n"
               "                                 let agents use SITE without asking (a rule in the policy file); in\n"
               "                                 WSL both go to the Windows tabbridge.exe unless --linux\n";
}

const char* Files() {
  return kWindows
             ? "             TABBRIDGE_POLICY (the policy file, else %APPDATA%\\tabbridge\\policy.json), "
               "XDG_STATE_HOME\n"
               "             (the audit log, else %LOCALAPPDATA%\\tabbridge\\audit.jsonl)\n"
             : "             TABBRIDGE_POLICY (the policy file), XDG_CONFIG_HOME, XDG_STATE_HOME (the audit log)\n";
}

}  // namespace

std::string Usage() {
  return std::string(
             "usage: tabbridge [--caps LIST] [--read-only] [--disable-webmcp-auto-register] [--host-socket PATH]\n"
             "                 [--upload-root DIR]... [--surface S] [--wsl-distro NAME]\n"
             "                                 serve MCP on stdin/stdout (what MCP clients run)\n"
             "                                 LIST: comma-separated extra page tools, or all:\n") +
         caps::SessionCapsHelp("                                   ", 100) +
         std::string(
             "                                 --read-only: this session may only read pages, whatever the\n"
             "                                 policy file allows\n"
             "                                 --disable-webmcp-auto-register: keep the page's own tools\n"
             "                                 (WebMCP, forms) out of tools/list; list_webmcp_tools and\n"
             "                                 call_webmcp_tool still reach them\n"
             "                                 --host-socket PATH: use only the browser host at PATH (as\n"
             "                                 TABBRIDGE_HOST_SOCKET), e.g. one forwarded over ssh\n"
             "                                 --surface: how tools/list follows the browser; by default dispatch\n"
             "                                 (tabbridge's tools always listed, the page's own said in answers and\n"
             "                                 run with call_webmcp_tool) for clients that defer tools (Claude\n"
             "                                 Code), state (the list follows the state) for the others; also\n"
             "                                 stable, stable-deferred, state-pinned (docs/clients.md)\n"
             "                                 --upload-root DIR: upload_file may also read files under DIR\n"
             "                                 (repeatable); by default only under the MCP client's roots, or\n"
             "                                 the working directory when the client has none. Never: browser\n"
             "                                 profiles, hidden files under ~, tabbridge's own, /proc /sys /dev\n"
             "                                 --wsl-distro NAME (tabbridge.exe run from WSL; `tabbridge wsl`\n"
             "                                 puts it in the line): the client's roots in WSL become\n"
             "                                 \\\\wsl.localhost\\NAME\\… paths\n"
             "       tabbridge doctor          check every link: registration, extension, host, policy\n") +
         PolicyCommands() +
         std::string(
             "       tabbridge audit [-n N] [--json]\n"
             "                                 the last N (20) entries of the audit log\n"
             "       tabbridge tools [--json]  the tools tabbridge serves, with the policy capability each needs\n"
             "       tabbridge browser         the browser connect_browser {launch: true} would start here\n") +
         Remote() + Registration() +
         "       tabbridge wsl             the `claude mcp add` line for Claude Code inside WSL (on Windows or in\n"
         "                                 WSL)\n"
         "       tabbridge --version\n"
         "\n"
         "environment: TABBRIDGE_BROWSER, TABBRIDGE_BROWSER_ARGS, TABBRIDGE_PROFILE_DIR, TABBRIDGE_HOST_SOCKET,\n"
         "             TABBRIDGE_EXTENSION_DIR, TABBRIDGE_SOCKET_DIR, TABBRIDGE_LOG_FILE, TABBRIDGE_LOG_LEVEL,\n" +
         Files();
}

}  // namespace tb
