#include "mcp_shim/wsl_install.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/windows_names.h"

namespace tb::wsl {
namespace {

constexpr std::string_view kUsers = "/mnt/c/Users";
constexpr std::string_view kUnderProfile = "/AppData/Local/tabbridge/tabbridge.exe";

std::string Lower(std::string_view text) {
  std::string lower(text);
  std::ranges::transform(lower, lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower;
}

// Windows' own profiles, never a person's.
bool SystemProfile(std::string_view name) {
  const std::string lower = Lower(name);
  return lower == "public" || lower == "default" || lower == "default user" || lower == "all users" ||
         lower == "desktop.ini";
}

// What `command` prints (its first 64 KiB), or nullopt when it fails.
std::optional<std::string> Output(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::array<char, 4096> buffer{};
  std::string text;
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) {
    if (text.size() < 64 * 1024) text.append(buffer.data(), n);
  }
  if (::pclose(pipe) != 0) return std::nullopt;
  return text;
}

std::string TrimmedLine(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
  return std::string(line);
}

// The first line of `command`'s output, or nullopt when it fails or prints nothing.
std::optional<std::string> FirstLine(const std::string& command) {
  const auto text = Output(command);
  if (!text) return std::nullopt;
  std::string line = TrimmedLine(std::string_view(*text).substr(0, text->find('\n')));
  if (line.empty()) return std::nullopt;
  return line;
}

std::optional<std::string> FileText(const char* path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text;
}

}  // namespace

std::optional<std::string> MountPath(std::string_view windows_path) {
  if (windows_path.size() < 3 || !std::isalpha(static_cast<unsigned char>(windows_path[0])) || windows_path[1] != ':' ||
      (windows_path[2] != '\\' && windows_path[2] != '/')) {
    return std::nullopt;
  }
  std::string path = "/mnt/" + Lower(windows_path.substr(0, 1));
  for (const char c : windows_path.substr(2)) path += c == '\\' ? '/' : c;
  while (path.size() > 7 && path.back() == '/') path.pop_back();  // "/mnt/c/" stays
  return path;
}

std::vector<std::string> FindInstalled(const Probe& probe) {
  std::vector<std::string> found;
  auto add = [&](const std::string& exe) {
    if (std::ranges::find(found, exe) == found.end() && probe.exists(exe)) found.push_back(exe);
  };
  if (const auto windows_dir = probe.local_app_data ? probe.local_app_data() : std::nullopt) {
    auto mounted = probe.wsl_path ? probe.wsl_path(*windows_dir) : std::nullopt;
    if (!mounted) mounted = MountPath(*windows_dir);
    if (mounted) add(*mounted + "/tabbridge/tabbridge.exe");
  }
  std::vector<std::string> profiles = probe.list_dir(std::string(kUsers));
  std::erase_if(profiles, SystemProfile);
  std::ranges::sort(profiles);
  // The Windows profile named like the WSL user first: most people use one name.
  std::ranges::stable_partition(profiles, [&](const std::string& name) { return Lower(name) == Lower(probe.user); });
  for (const auto& name : profiles) add(std::string(kUsers) + "/" + name + std::string(kUnderProfile));
  return found;
}

std::string ShellWord(std::string_view text) {
  const bool plain = !text.empty() && std::ranges::all_of(text, [](unsigned char c) {
    return std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-' || c == ':' || c == '+' || c == '@';
  });
  if (plain) return std::string(text);
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string McpAddLine(std::string_view exe, std::string_view distro_word) {
  std::string line = "claude mcp add tabbridge -- " + ShellWord(exe);
  if (!distro_word.empty()) line += " --wsl-distro " + std::string(distro_word);
  return line;
}

Interop InteropFrom(const std::optional<std::string>& wsl_interop, const std::optional<std::string>& wsl_interop_late) {
  if (!wsl_interop && !wsl_interop_late) return Interop::kMissing;
  // Either registration that says "enabled" on its first line lets Windows programs run.
  for (const auto& text : {wsl_interop, wsl_interop_late}) {
    if (text && TrimmedLine(std::string_view(*text).substr(0, text->find('\n'))) == "enabled") {
      return Interop::kEnabled;
    }
  }
  return Interop::kDisabled;
}

Interop ReadInterop() {
  return InteropFrom(FileText("/proc/sys/fs/binfmt_misc/WSLInterop"),
                     FileText("/proc/sys/fs/binfmt_misc/WSLInterop-late"));
}

bool RunsUnderWsl() {
  const auto version = FileText("/proc/version");
  return version && windows::IsWsl(*version);
}

std::string InteropProblem(Interop interop) {
  if (interop == Interop::kEnabled) return "";
  const std::string why = interop == Interop::kMissing ? "/proc/sys/fs/binfmt_misc/WSLInterop is missing"
                                                       : "/proc/sys/fs/binfmt_misc/WSLInterop is not \"enabled\"";
  return "Windows programs cannot run from this WSL (" + why +
         "), so the `claude mcp add` line would fail with \"Exec format error\". Enable interop: put "
         "\"[interop]\\nenabled=true\" in /etc/wsl.conf and run `wsl --shutdown` from Windows, or for this boot "
         "only `sudo sh -c 'echo 1 > /proc/sys/fs/binfmt_misc/WSLInterop'`.";
}

std::string NoBrowserHint(const std::vector<std::string>& installed, Interop interop, std::string_view distro) {
  const std::string intro =
      " This is WSL: a browser on Windows is reached through the Windows tabbridge.exe, not this Linux tabbridge.";
  const std::string distro_word = distro.empty() ? std::string() : ShellWord(distro);
  std::string hint;
  if (installed.empty()) {
    hint = intro + " None is installed under " + std::string(kUsers) +
           "/*/AppData/Local/tabbridge: install it on Windows (tabbridge-windows.zip, install.ps1; docs/windows.md), "
           "then configure the MCP client with `" +
           McpAddLine(kTemplatePath, distro_word) + "`.";
  } else {
    hint = intro + " Configure the MCP client with it: `" + McpAddLine(installed.front(), distro_word) +
           "` (`tabbridge wsl` prints it).";
  }
  if (const std::string problem = InteropProblem(interop); !problem.empty()) hint += " But: " + problem;
  return hint;
}

std::string NoBrowserHint(const std::vector<std::string>& installed) {
  const char* distro = std::getenv("WSL_DISTRO_NAME");
  return NoBrowserHint(installed, ReadInterop(), distro != nullptr ? distro : "");
}

bool IsValidUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t extra = 0;
    char32_t code = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1, code = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2, code = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3, code = c & 0x07;
    } else {
      return false;  // a continuation byte first, an overlong lead (C0, C1) or beyond U+10FFFF
    }
    if (i + extra >= text.size()) return false;  // cut short
    for (std::size_t k = 1; k <= extra; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3F);
    }
    // Overlong forms, UTF-16 surrogates and beyond U+10FFFF are not UTF-8.
    if ((extra == 2 && code < 0x800) || (extra == 3 && code < 0x10000) || (code >= 0xD800 && code <= 0xDFFF) ||
        code > 0x10FFFF) {
      return false;
    }
    i += extra + 1;
  }
  return true;
}

std::optional<std::string> ParseLocalAppData(std::string_view output) {
  for (std::size_t start = 0; start < output.size();) {
    const std::size_t end = std::min(output.find('\n', start), output.size());
    const std::string line = TrimmedLine(output.substr(start, end - start));
    start = end + 1;
    if (!MountPath(line)) continue;               // "Active code page: 65001", an empty line, "%LOCALAPPDATA%"
    if (!IsValidUtf8(line)) return std::nullopt;  // another code page's bytes: not a path to build on
    return line;
  }
  return std::nullopt;
}

Probe SystemProbe(bool interop) {
  Probe probe;
  if (interop) {
    // From a Windows directory, or cmd.exe warns about UNC paths; `timeout` so no call hangs.
    // cmd.exe writes to a pipe in the console's code page (OEM: 850, 437…):
    // chcp 65001 makes that UTF-8, and ParseLocalAppData refuses anything else.
    probe.local_app_data = []() -> std::optional<std::string> {
      const auto output =
          Output("cd /mnt/c 2>/dev/null; timeout 10 cmd.exe /d /c 'chcp 65001 >nul & echo %LOCALAPPDATA%' 2>/dev/null");
      return output ? ParseLocalAppData(*output) : std::nullopt;
    };
    probe.wsl_path = [](const std::string& windows_path) {
      return FirstLine("timeout 10 wslpath -u " + ShellWord(windows_path) + " 2>/dev/null");
    };
  }
  probe.list_dir = [](const std::string& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(dir, ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec)) {
      names.push_back(it->path().filename().string());
    }
    return names;
  };
  probe.exists = [](const std::string& path) {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
  };
  const char* user = std::getenv("USER");
  probe.user = user != nullptr ? user : "";
  return probe;
}

}  // namespace tb::wsl
