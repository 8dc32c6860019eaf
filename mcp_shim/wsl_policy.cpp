#include "mcp_shim/wsl_policy.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#ifndef _WIN32
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#endif

#include "common/policy.h"

#ifndef _WIN32
extern char** environ;
#endif

namespace tb::wsl {
namespace {

constexpr std::string_view kInstallTail = "/AppData/Local/tabbridge/tabbridge.exe";

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

std::optional<int> RouteInWsl(std::string_view command, std::vector<std::string>& args, const PolicyMachine& machine) {
  const auto flag = std::ranges::find(args, kLinuxFlag);
  const bool linux_flag = flag != args.end();
  if (linux_flag) args.erase(flag);
  // Nothing asked of Windows (interop, cmd.exe) unless this is WSL without --linux.
  if (RoutePolicyCommand(machine.is_wsl, linux_flag, Interop::kEnabled, true) == PolicyRoute::kHere) {
    return std::nullopt;
  }
  const Interop interop = machine.interop();
  const auto installed = machine.installed(interop);
  switch (RoutePolicyCommand(machine.is_wsl, linux_flag, interop, !installed.empty())) {
    case PolicyRoute::kHere:
      return std::nullopt;
    case PolicyRoute::kForward: {
      // WSL builds the Windows command line by quoting each argument without
      // escaping an inner '"': such an argument would arrive split or joined.
      if (const auto odd = std::ranges::find_if(args, [](const std::string& a) { return a.find('"') != a.npos; });
          odd != args.end()) {
        machine.say("tabbridge " + std::string(command) + ": " + *odd +
                    " holds a '\"', which WSL cannot pass to the Windows tabbridge.exe unchanged; "
                    "percent-encode it (%22) or run the command on Windows\n");
        return 2;
      }
      machine.say("tabbridge " + std::string(command) + ": this is WSL: running the Windows " + installed.front() +
                  ", whose policy file the browser's host obeys\n");
      std::vector<std::string> forwarded{std::string(command)};
      forwarded.insert(forwarded.end(), args.begin(), args.end());
      return machine.run(installed.front(), forwarded);
    }
    case PolicyRoute::kExplain:
      machine.say(WindowsPolicyExplanation(command, installed, interop, machine.linux_file));
      return 1;
  }
  return 1;
}

#ifdef _WIN32
std::optional<int> RouteInWsl(std::string_view /*command*/, std::vector<std::string>& /*args*/) {
  return std::nullopt;  // --linux means nothing here: the usage refuses it
}
#else
int RunWithOurStdio(const std::string& exe, const std::vector<std::string>& args) {
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

std::optional<int> RouteInWsl(std::string_view command, std::vector<std::string>& args) {
  PolicyMachine machine{
      .is_wsl = RunsUnderWsl(),
      .interop = ReadInterop,
      .installed = [](Interop interop) { return FindInstalled(SystemProbe(interop == Interop::kEnabled)); },
      .run = RunWithOurStdio,
      .say = [](const std::string& text) { std::fputs(text.c_str(), stderr); },
      .linux_file = policy::DefaultPath(),
  };
  return RouteInWsl(command, args, machine);
}
#endif

}  // namespace tb::wsl
