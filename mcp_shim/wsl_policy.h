// `tabbridge allow` and `tabbridge policy` typed inside WSL. The browser's
// host runs on Windows and obeys the Windows policy file
// (%APPDATA%\tabbridge\policy.json), never this Linux's: so the command is
// run by the Windows tabbridge.exe (interop passes the arguments, its output
// and its exit code through), or, when it cannot run, the person is told
// where that file is. `--linux` keeps it here, for a Linux browser in WSLg.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_shim/wsl_install.h"

namespace tb::wsl {

inline constexpr std::string_view kLinuxFlag = "--linux";

enum class PolicyRoute {
  kHere,     // not WSL, or --linux: this tabbridge, this Linux's file
  kForward,  // the Windows tabbridge.exe runs it
  kExplain,  // it cannot run (no interop, none installed): say where the Windows file is
};

PolicyRoute RoutePolicyCommand(bool is_wsl, bool linux_flag, Interop interop, bool windows_exe_found);

// The Windows policy file as WSL sees it, from where tabbridge.exe is
// installed (/mnt/c/Users/me/AppData/Local/tabbridge/tabbridge.exe ->
// /mnt/c/Users/me/AppData/Roaming/tabbridge/policy.json); nullopt when the
// install is elsewhere.
std::optional<std::string> WindowsPolicyFile(std::string_view installed_exe);

// Why `tabbridge <command>` does not change what the Windows host obeys,
// where the Windows file is, and what to do.
std::string WindowsPolicyExplanation(std::string_view command, const std::vector<std::string>& installed,
                                     Interop interop, std::string_view linux_file);

// What RouteInWsl asks of the machine (tests inject one).
struct PolicyMachine {
  bool is_wsl = false;                                                          // windows::IsWsl(/proc/version)
  std::function<Interop()> interop;                                             // ReadInterop
  std::function<std::vector<std::string>(Interop)> installed;                   // FindInstalled, best first
  std::function<int(const std::string&, const std::vector<std::string>&)> run;  // exe, args: its exit status
  std::function<void(const std::string&)> say;                                  // to stderr
  std::string linux_file;                                                       // policy::DefaultPath()
};

// For RunAllow and RunPolicy: takes --linux out of `args`, then either runs
// `tabbridge.exe <command> <args>` (its exit status) or explains (1), or
// nullopt: run it here.
std::optional<int> RouteInWsl(std::string_view command, std::vector<std::string>& args, const PolicyMachine& machine);
// The same on this machine (on Windows: always nullopt, --linux left in for the usage to refuse).
std::optional<int> RouteInWsl(std::string_view command, std::vector<std::string>& args);

#ifndef _WIN32
// Runs `exe` with `args`, its stdin, stdout and stderr ours: its exit status
// (128 + the signal that ended it), or 1 when it cannot start (said on stderr).
int RunWithOurStdio(const std::string& exe, const std::vector<std::string>& args);
#endif

}  // namespace tb::wsl
