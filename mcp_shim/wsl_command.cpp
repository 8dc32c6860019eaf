#include "mcp_shim/wsl_command.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "common/utf8_path.h"
#include "mcp_shim/paths.h"
#include "mcp_shim/wsl_install.h"

namespace tb {

int RunWsl(const std::vector<std::string>& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "tabbridge wsl: takes no arguments\n");
    return 2;
  }
#ifdef _WIN32
  // This tabbridge.exe, under WSL's /mnt/<drive>.
  const std::string self = Utf8String(Utf8Path(ExecutableDir()) / "tabbridge.exe");
  if (const auto mounted = wsl::MountPath(self)) {
    // Pasted into a WSL shell, "$WSL_DISTRO_NAME" becomes that distro's name.
    std::printf("%s\n", wsl::McpAddLine(*mounted, wsl::kDistroFromShell).c_str());
    return 0;
  }
  std::fprintf(stderr, "tabbridge wsl: %s is not on a drive WSL mounts under /mnt\n", self.c_str());
  return 1;
#else
  if (!wsl::RunsUnderWsl()) {
    std::fprintf(stderr,
                 "tabbridge wsl: this Linux is not WSL (/proc/version names no Microsoft kernel); on Windows, "
                 "`tabbridge.exe wsl` prints the line for WSL\n");
    return 1;
  }
  const wsl::Interop interop = wsl::ReadInterop();
  const auto installed = wsl::FindInstalled(wsl::SystemProbe(interop == wsl::Interop::kEnabled));
  const char* distro = std::getenv("WSL_DISTRO_NAME");
  const std::string distro_word = distro != nullptr && distro[0] != '\0' ? wsl::ShellWord(distro) : "";
  const std::string line = wsl::McpAddLine(installed.empty() ? wsl::kTemplatePath : installed.front(), distro_word);
  if (interop != wsl::Interop::kEnabled) {
    std::fprintf(stderr, "tabbridge wsl: %s\nOnce it is enabled:\n  %s\n", wsl::InteropProblem(interop).c_str(),
                 line.c_str());
    return 1;
  }
  if (installed.empty()) {
    std::fprintf(stderr,
                 "tabbridge wsl: no tabbridge.exe under /mnt/c/Users/*/AppData/Local/tabbridge; install it on Windows "
                 "(tabbridge-windows.zip, install.ps1; docs/windows.md), then run:\n  %s\n",
                 line.c_str());
    return 1;
  }
  if (distro_word.empty()) {
    std::fprintf(stderr,
                 "tabbridge wsl: WSL_DISTRO_NAME is not set: without --wsl-distro NAME (`wsl.exe -l` lists the "
                 "names) tabbridge.exe cannot read uploads under your WSL roots, only under /mnt/<drive>\n");
  }
  std::printf("%s\n", line.c_str());
  for (std::size_t i = 1; i < installed.size(); ++i) {
    std::fprintf(stderr, "tabbridge wsl: also installed: %s\n", installed[i].c_str());
  }
  return 0;
#endif
}

}  // namespace tb
