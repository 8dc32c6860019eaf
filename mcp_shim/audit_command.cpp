#include "mcp_shim/audit_command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>

#include "common/audit_log.h"

namespace tb {
namespace {

constexpr std::size_t kDefaultCount = 20;

// A positive count, or nothing.
std::optional<std::size_t> ParseCount(std::string_view text) {
  std::size_t count = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (error != std::errc() || end != text.data() + text.size() || count == 0) return std::nullopt;
  return count;
}

int Usage(const std::string& problem) {
  std::fprintf(stderr, "tabbridge audit: %s\nusage: tabbridge audit [-n N] [--json]\n", problem.c_str());
  return 2;
}

}  // namespace

int RunAudit(const std::vector<std::string>& args) {
  std::size_t count = kDefaultCount;
  bool json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::optional<std::string_view> value;
    if (arg == "--json") {
      json = true;
      continue;
    } else if (arg == "-h" || arg == "--help") {
      std::printf(
          "usage: tabbridge audit [-n N] [--json]\n"
          "prints the last N (default 20) entries of %s, oldest first;\n"
          "--json prints them as the JSON lines they are stored as\n",
          audit::DefaultPath().c_str());
      return 0;
    } else if (arg == "-n") {
      if (i + 1 == args.size()) return Usage("-n needs a number");
      value = args[++i];
    } else if (arg.starts_with("-n")) {
      value = std::string_view(arg).substr(2);
    } else {
      return Usage("unknown argument '" + arg + "'");
    }
    const auto parsed = ParseCount(*value);
    if (!parsed) return Usage("-n needs a positive number, not '" + std::string(*value) + "'");
    count = *parsed;
  }

  const std::string path = audit::DefaultPath();
  const auto lines = audit::TailLines(path, count);
  if (lines.empty()) {
    // A file that exists but cannot be read is not "no entries".
    if (::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), R_OK) != 0) {
      std::fprintf(stderr, "error: cannot read %s: %s\n", path.c_str(), std::strerror(errno));
      return 1;
    }
    // With --json, stdout stays JSON lines only.
    std::fprintf(json ? stderr : stdout, "no audit entries yet (%s)\n", path.c_str());
    return 0;
  }
  for (const auto& line : lines) {
    if (json) {
      std::printf("%s\n", line.c_str());
    } else {
      std::printf("%s\n", audit::Format(Json::parse(line, nullptr, false)).c_str());
    }
  }
  return 0;
}

}  // namespace tb
