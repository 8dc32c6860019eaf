#include "mcp_shim/wsl_roots.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

#include "mcp_shim/upload_paths.h"

#ifdef _WIN32
#include "common/utf16_windows.h"
#endif

namespace tb::wsl {
namespace {

// The path's names with "." and ".." resolved (".." at the top stays at the top).
std::vector<std::string_view> NormalParts(std::string_view path) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const std::string_view part = path.substr(start, end - start);
    start = end + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  return parts;
}

// WSL's default automount: /mnt/<one letter>.
bool IsDriveMount(const std::vector<std::string_view>& parts) {
  return parts.size() >= 2 && parts[0] == "mnt" && parts[1].size() == 1 &&
         std::isalpha(static_cast<unsigned char>(parts[1][0]));
}

}  // namespace

bool IsDistroName(std::string_view name) {
  return !name.empty() && name.size() <= 64 && name != "." && name != ".." &&
         std::ranges::all_of(name, [](unsigned char c) { return std::isalnum(c) || c == '.' || c == '_' || c == '-'; });
}

std::expected<std::string, std::string> WindowsPathOf(std::string_view posix_path, std::string_view distro) {
  if (!posix_path.starts_with('/')) return std::unexpected(std::string(posix_path) + " is not an absolute path");
  // Windows would read these as separators, streams or wildcards: the name would be another file's.
  if (const auto bad = std::ranges::find_if(posix_path,
                                            [](unsigned char c) {
                                              return c < 0x20 || c == '\\' || c == ':' || c == '*' || c == '?' ||
                                                     c == '"' || c == '<' || c == '>' || c == '|';
                                            });
      bad != posix_path.end()) {
    return std::unexpected(
        std::string(posix_path) + " has a character Windows cannot name (" +
        (static_cast<unsigned char>(*bad) < 0x20 ? std::string("a control character") : std::string(1, *bad)) + ")");
  }
  const auto parts = NormalParts(posix_path);
  std::string windows;
  std::size_t first = 0;
  if (IsDriveMount(parts)) {
    windows = std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(parts[1][0])))) + ":";
    first = 2;
    if (parts.size() == 2) return windows + "\\";
  } else {
    if (distro.empty()) {
      return std::unexpected(std::string(posix_path) +
                             " is a WSL path and tabbridge.exe was not told the distro: add --wsl-distro NAME to "
                             "the `claude mcp add` line (`tabbridge wsl` prints it)");
    }
    if (!IsDistroName(distro)) return std::unexpected("\"" + std::string(distro) + "\" is not a WSL distro's name");
    windows = "\\\\wsl.localhost\\" + std::string(distro);
  }
  for (std::size_t i = first; i < parts.size(); ++i) windows += "\\" + std::string(parts[i]);
  return windows;
}

std::expected<std::string, std::string> WindowsPathOfUri(const std::string& uri, std::string_view distro) {
  const auto path = PathOfFileUri(uri, Platform::kLinux);  // file:// with no host, percent-decoded
  if (!path) return std::unexpected(uri + " is not a local file:// URI");
  return WindowsPathOf(*path, distro);
}

std::string DistroFromEnvironment() {
#ifdef _WIN32
  return EnvUtf8(kDistroVariable);
#else
  const char* distro = std::getenv(kDistroVariable);
  return distro != nullptr ? distro : "";
#endif
}

}  // namespace tb::wsl
