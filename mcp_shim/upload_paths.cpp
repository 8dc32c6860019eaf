#include "mcp_shim/upload_paths.h"

#include <algorithm>
#include <cctype>

namespace tb {
namespace {

char LowerChar(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool IsDriveStart(std::string_view path) {
  return path.size() >= 2 && std::isalpha(static_cast<unsigned char>(path[0])) && path[1] == ':';
}

// The percent-escapes of a URI path decoded; nullopt for a bad escape or a NUL.
std::optional<std::string> Unescape(std::string_view rest) {
  std::string path;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] != '%') {
      path += rest[i];
      continue;
    }
    if (i + 2 >= rest.size() || !std::isxdigit(static_cast<unsigned char>(rest[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(rest[i + 2]))) {
      return std::nullopt;
    }
    const char c = static_cast<char>(std::stoi(std::string(rest.substr(i + 1, 2)), nullptr, 16));
    if (c == '\0') return std::nullopt;
    path += c;
    i += 2;
  }
  return path;
}

// The last component of a comparable path.
std::string_view LastPart(std::string_view path) {
  const auto slash = path.rfind('\\');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::optional<std::string> PathOfFileUri(const std::string& uri, Platform platform) {
  constexpr std::string_view kScheme = "file://";
  if (uri.size() < kScheme.size() ||
      !std::equal(kScheme.begin(), kScheme.end(), uri.begin(), [](char a, char b) { return a == LowerChar(b); })) {
    return std::nullopt;
  }
  std::string rest = uri.substr(kScheme.size());
  const auto slash = rest.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const std::string authority = rest.substr(0, slash);
  const bool local = authority.empty() || authority == "localhost";
  if (!local && platform != Platform::kWindows) return std::nullopt;
  rest = rest.substr(slash);
  if (const auto end = rest.find_first_of("?#"); end != std::string::npos) rest.resize(end);
  auto path = Unescape(rest);
  if (!path || platform != Platform::kWindows) return path;
  std::ranges::replace(*path, '/', '\\');
  if (!local) return "\\\\" + authority + *path;  // file://server/share/x: \\server\share\x
  // "\C:\Users\x" -> "C:\Users\x"; a path without a drive is not a Windows path.
  if (path->size() >= 3 && (*path)[0] == '\\' && IsDriveStart(std::string_view(*path).substr(1))) {
    path->erase(0, 1);
    if (path->size() == 2) *path += '\\';
    return path;
  }
  return std::nullopt;
}

namespace {

// WindowsComparable, keeping the case when `lower` is false (for what is said).
std::string WindowsNormal(std::string_view path, bool lower) {
  std::string out(path);
  std::ranges::replace(out, '/', '\\');
  if (lower) std::ranges::transform(out, out.begin(), LowerChar);
  std::string head = out.substr(0, 8);
  std::ranges::transform(head, head.begin(), LowerChar);
  if (head == "\\\\?\\unc\\") {
    out = "\\\\" + out.substr(8);
  } else if (out.starts_with("\\\\?\\") || out.starts_with("\\??\\")) {
    out = out.substr(4);
  }
  while (out.size() > 1 && out.back() == '\\' && !(out.size() == 3 && IsDriveStart(out))) out.pop_back();
  return out;
}

}  // namespace

std::string WindowsComparable(std::string_view path) { return WindowsNormal(path, true); }

bool IsWindowsAbsolute(std::string_view path) {
  const std::string p = WindowsComparable(path);
  return (IsDriveStart(p) && p.size() >= 3 && p[2] == '\\') || (p.starts_with("\\\\") && p.size() > 2);
}

bool WindowsUnder(std::string_view path, std::string_view dir) {
  const std::string p = WindowsComparable(path);
  const std::string d = WindowsComparable(dir);
  if (d.empty()) return false;
  if (p == d) return true;
  const std::string prefix = d.ends_with('\\') ? d : d + "\\";
  return p.starts_with(prefix);
}

std::optional<std::string> WslShareOf(std::string_view path) {
  const std::string shown = WindowsNormal(path, false);
  const std::string lowered = WindowsComparable(path);
  for (const std::string_view server : {"\\\\wsl.localhost\\", "\\\\wsl$\\"}) {
    if (!lowered.starts_with(server)) continue;
    const std::size_t end = std::min(lowered.find('\\', server.size()), lowered.size());
    if (end == server.size()) return std::nullopt;  // no distro named
    return shown.substr(0, end);
  }
  return std::nullopt;
}

std::optional<std::string> WslShareRefusal(std::string_view path, std::string_view share,
                                           std::optional<std::string>* drive_path) {
  const std::string lowered = WindowsComparable(path);
  const std::string base = WindowsComparable(share);
  if (!lowered.starts_with(base)) return std::nullopt;
  const std::string inside = lowered.substr(base.size());  // "\proc\1\environ", "" for the share itself
  for (const std::string_view system : {"\\proc", "\\sys", "\\dev"}) {
    if (inside == system || inside.starts_with(std::string(system) + "\\")) {
      return "it is in " + std::string(share) + std::string(system) +
             ", the Linux system's (a process's environment holds its secrets)";
    }
  }
  // \mnt\c or \mnt\c\rest: the Windows drive C:, seen through the share.
  if (drive_path != nullptr && inside.starts_with("\\mnt\\") && inside.size() >= 6 &&
      std::isalpha(static_cast<unsigned char>(inside[5])) && (inside.size() == 6 || inside[6] == '\\')) {
    const std::string rest = inside.size() > 6 ? inside.substr(7) : "";  // lower case: compared as such
    *drive_path = std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(inside[5])))) + ":\\" + rest;
  }
  return std::nullopt;
}

std::vector<RefusedDir> WindowsRefusedDirs(const WindowsUserDirs& dirs) {
  std::vector<RefusedDir> out;
  const auto add = [&](const std::string& dir, const std::string& why) {
    if (IsWindowsAbsolute(dir)) out.push_back({dir, why});
  };
  add(dirs.appdata,
      "it is in " + dirs.appdata + " (%APPDATA%: every program's roaming settings and tokens, Firefox's profiles)");
  if (!dirs.local_appdata.empty()) {
    for (const char* browser : {"Google\\Chrome", "Chromium", "Microsoft\\Edge", "BraveSoftware", "Vivaldi"}) {
      const std::string dir = dirs.local_appdata + "\\" + browser;
      add(dir, "it is in the browser profile " + dir + " (cookies, saved passwords, history)");
    }
    add(dirs.local_appdata + "\\tabbridge",
        "it is in tabbridge's data " + dirs.local_appdata + "\\tabbridge (its browser profile, audit log)");
  }
  add(dirs.launch_profile, "it is in the browser profile tabbridge launches, " + dirs.launch_profile +
                               " (cookies, saved passwords, history)");
  for (const std::string& file : dirs.tabbridge_files) add(file, "it is tabbridge's own (" + file + ")");
  return out;
}

std::optional<std::string> WindowsRefusal(const std::string& path, const std::vector<RefusedDir>& refused,
                                          const std::string& home) {
  std::string raw(path);
  std::ranges::replace(raw, '/', '\\');
  // Devices and the object namespace: opening one can do something by itself.
  const std::string lowered = WindowsComparable(raw);
  if (raw.starts_with("\\\\.\\") || lowered.starts_with("globalroot") || raw.starts_with("\\??\\") ||
      lowered.starts_with("\\device\\")) {
    return "it names a device, not a file";
  }
  std::string_view name = LastPart(lowered);
  name = name.substr(0, std::min(name.find('.'), name.size()));
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  for (const char* device : {"con", "prn", "aux", "nul", "conin$", "conout$"}) {
    if (name == device) return "it names the device " + std::string(device) + ", not a file";
  }
  if (name.size() == 4 && (name.starts_with("com") || name.starts_with("lpt")) &&
      std::isdigit(static_cast<unsigned char>(name[3]))) {
    return "it names the device " + std::string(name) + ", not a file";
  }
  // "file.txt:hidden" is another stream of file.txt: never the file named.
  if (lowered.find(':', IsDriveStart(lowered) ? 2 : 0) != std::string::npos) {
    return "it names an alternate data stream (a colon after the drive)";
  }
  for (const RefusedDir& place : refused) {
    if (WindowsUnder(lowered, place.dir)) return place.why;
  }
  if (!home.empty() && WindowsUnder(lowered, home)) {
    const std::string base = WindowsComparable(home);
    std::string walked = home;
    const std::string shown = WindowsNormal(raw, false);  // as lowered, in the user's case
    std::string_view original = std::string_view(shown).substr(std::min(base.size() + 1, shown.size()));
    for (std::size_t start = 0; start < original.size();) {
      const std::size_t end = std::min(original.find('\\', start), original.size());
      const std::string_view part = original.substr(start, end - start);
      walked += "\\" + std::string(part);
      if (part.starts_with('.') && part != "." && part != "..") {
        return "it is hidden under your home directory (" + walked +
               "): keys, tokens and settings live in dot-files and dot-directories";
      }
      start = end + 1;
    }
  }
  return std::nullopt;
}

}  // namespace tb
