// Claude Code inside WSL runs the Windows tabbridge.exe (wsl_install.h) and
// sends it the roots it knows, WSL paths: file:///home/u/proj,
// file:///mnt/c/x. Windows reaches the first through the distro's share
// (\\wsl.localhost\<distro>\home\u\proj) and the second as C:\x; the distro
// comes from `--wsl-distro NAME` on the `claude mcp add` line, which main
// keeps in TABBRIDGE_WSL_DISTRO for the roots and upload_file's paths.
// Pure, so Linux tests it as well as Windows.
#pragma once

#include <expected>
#include <string>
#include <string_view>

namespace tb::wsl {

inline constexpr const char* kDistroVariable = "TABBRIDGE_WSL_DISTRO";

// A name WSL gives a distro ("Ubuntu", "Ubuntu-22.04", "kali-linux"): letters,
// digits, '.', '_', '-'; never one that could step out of the share ("..").
bool IsDistroName(std::string_view name);

// An absolute POSIX path inside WSL as Windows reaches it: /mnt/c/x is C:\x
// (WSL's default automount), any other \\wsl.localhost\<distro>\...; "." and
// ".." are resolved first. The error says why not: not absolute, a name
// Windows cannot spell (\ : * ? " < > | or a control character), or no
// distro (and how to give it).
std::expected<std::string, std::string> WindowsPathOf(std::string_view posix_path, std::string_view distro);

// A root's file:// URI as WindowsPathOf sees its percent-decoded path; the
// error also for a URI that is not a local file:// one.
std::expected<std::string, std::string> WindowsPathOfUri(const std::string& uri, std::string_view distro);

// TABBRIDGE_WSL_DISTRO, "" when unset.
std::string DistroFromEnvironment();

}  // namespace tb::wsl
