#include "mcp_shim/wsl_policy.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>

#ifndef _WIN32
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#endif

#include "common/policy.h"
#include "common/windows_names.h"

#ifndef _WIN32
extern char** environ;
#endif

namespace tb::wsl {
namespace {

constexpr std::string_view kInstallTail = "/AppData/Local/tabbridge/tabbridge.exe";

#ifndef _WIN32
// Runs `exe` with `args`, its stdin, stdout and stderr ours; its exit status.
int RunWindowsExe(const std::string& exe, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int error = ::posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(), environ); error != 0) {
    std::fprintf(stderr, "tabbridge: cannot run %s: %s\n", exe.c_str(), std::strerror(error));
    return 1;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
#endif

}  // namespace

PolicyRoute RoutePolicyCommand(bool is_wsl, bool linux_flag, Interop interop, bool windows_exe_found) {
  if (!is_wsl || linux_flag) return PolicyRoute::kHere;
  if (interop == Interop::kEnabled && windows_exe_found) return PolicyRoute::kForward;
  return PolicyRoute::kExplain;
}

std::optional<std::string> WindowsPolicyFile(std::string_view installed_exe) {
  if (!installed_exe.ends_with(kInstallTail)) return std::nullopt;
  return std::string(installed_exe.substr(0, installed_exe.size() - kInstallTail.size())) +
         "/AppData/Roaming/tabbridge/policy.json";
}

std::string WindowsPolicyExplanation(std::string_view command, const std::vector<std::string>& installed,
                                     Interop interop, std::string_view linux_file) {
  const auto windows_file = installed.empty() ? std::nullopt : WindowsPolicyFile(installed.front());
  std::string text = "tabbridge " + std::string(command) +
                     ": this is WSL, and the browser's host runs on Windows: it obeys the Windows policy file, "
                     "%APPDATA%\\tabbridge\\policy.json" +
                     (windows_file ? " (here " + *windows_file + ")" : std::string()) + ", not " +
                     std::string(linux_file) + ".\n";
  if (const std::string problem = InteropProblem(interop); !problem.empty()) {
    text += problem + "\n";
  } else if (installed.empty()) {
    text +=
        "No Windows tabbridge.exe is installed under /mnt/c/Users/*/AppData/Local/tabbridge (install.ps1; "
        "docs/windows.md).\n";
  }
  text += "Run `tabbridge.exe " + std::string(command) +
          " ...` on Windows; or, for a Linux browser in this WSL (WSLg), `tabbridge " + std::string(command) + " " +
          std::string(kLinuxFlag) + " ...` writes the Linux file.\n";
  return text;
}

std::optional<int> RouteInWsl(std::string_view command, std::vector<std::string>& args) {
  const auto flag = std::ranges::find(args, kLinuxFlag);
  const bool linux_flag = flag != args.end();
  if (linux_flag) args.erase(flag);
#ifdef _WIN32
  if (linux_flag) args.emplace(args.begin(), kLinuxFlag);  // means nothing on Windows: the usage says so
  return std::nullopt;
#else
  std::ifstream in("/proc/version");
  std::string version;
  std::getline(in, version);
  const bool is_wsl = windows::IsWsl(version);
  if (RoutePolicyCommand(is_wsl, linux_flag, Interop::kEnabled, true) == PolicyRoute::kHere) return std::nullopt;
  const Interop interop = ReadInterop();
  const auto installed = FindInstalled(SystemProbe(interop == Interop::kEnabled));
  switch (RoutePolicyCommand(is_wsl, linux_flag, interop, !installed.empty())) {
    case PolicyRoute::kHere:
      return std::nullopt;
    case PolicyRoute::kForward: {
      std::fprintf(stderr, "tabbridge %s: this is WSL: running the Windows %s, whose policy file the host obeys\n",
                   std::string(command).c_str(), installed.front().c_str());
      std::vector<std::string> forwarded{std::string(command)};
      forwarded.insert(forwarded.end(), args.begin(), args.end());
      return RunWindowsExe(installed.front(), forwarded);
    }
    case PolicyRoute::kExplain:
      std::fputs(WindowsPolicyExplanation(command, installed, interop, policy::DefaultPath()).c_str(), stderr);
      return 1;
  }
  return 1;
#endif
}

}  // namespace tb::wsl
