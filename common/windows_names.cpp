#include "common/windows_names.h"

#include <algorithm>
#include <cctype>

#include "common/protocol.h"
#include "common/socket_dir.h"

namespace tb::windows {

std::string PipeName(std::string_view user, int slot) { return PipePrefix(user) + "-" + SlotName(slot); }

std::string PipePrefix(std::string_view user) {
  std::string safe(user.empty() ? std::string_view("user") : user);
  for (char& c : safe) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '.' && c != '_' && c != '-') c = '_';
  }
  return "\\\\.\\pipe\\tabbridge-" + safe;
}

std::string PrivatePipePrefix(std::string_view user, const unsigned char (&random)[16]) {
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string prefix = PipePrefix(user) + "-";
  for (const unsigned char byte : random) {
    prefix += kHex[byte >> 4];
    prefix += kHex[byte & 0xf];
  }
  return prefix;
}

bool IsPrivatePipePrefix(std::string_view text, std::string_view user) {
  const std::string base = PipePrefix(user) + "-";
  if (text.size() != base.size() + 32 || !text.starts_with(base)) return false;
  return std::ranges::all_of(text.substr(base.size()),
                             [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool IsSid(std::string_view sid) {
  if (!sid.starts_with("S-1-")) return false;
  int parts = 0;
  for (std::size_t start = 4; start <= sid.size(); ++parts) {
    const std::size_t dash = std::min(sid.find('-', start), sid.size());
    const std::string_view part = sid.substr(start, dash - start);
    if (part.empty() || part.size() > 10 || !std::ranges::all_of(part, [](char c) { return c >= '0' && c <= '9'; })) {
      return false;
    }
    start = dash + 1;
  }
  return parts >= 2 && parts <= 16;  // authority + at most 15 sub-authorities
}

std::expected<std::string, std::string> PipeSecurityDescriptor(std::string_view user_sid) {
  if (!IsSid(user_sid)) return std::unexpected("not a SID: " + std::string(user_sid));
  const std::string sid(user_sid);
  // O: owner, G: group, D:P protected DACL. (D;;GA;;;NU) first: deny the
  // NETWORK logon SID everything, so our own account from another machine
  // (SMB) is refused even where PIPE_REJECT_REMOTE_CLIENTS is missing; then
  // (A;;GA;;;sid) allow the user generic-all.
  return "O:" + sid + "G:" + sid + "D:P(D;;GA;;;NU)(A;;GA;;;" + sid + ")";
}

std::vector<RegistryKey> NativeMessagingKeys() {
  const std::string host = "\\NativeMessagingHosts\\" + std::string(kNativeHostName);
  return {
      {"Google Chrome", "Software\\Google\\Chrome" + host},
      {"Chromium", "Software\\Chromium" + host},
      {"Microsoft Edge", "Software\\Microsoft\\Edge" + host},
      {"Brave", "Software\\BraveSoftware\\Brave-Browser" + host},
      {"Vivaldi", "Software\\Vivaldi" + host},
  };
}

bool IsWsl(std::string_view proc_version) {
  // The kernel release alone ("5.15.153.1-microsoft-standard-WSL2",
  // "4.4.0-19041-Microsoft"): the builder's user@host that follows may say
  // anything, and a false match sends `tabbridge allow` to Windows.
  constexpr std::string_view kLead = "Linux version ";
  if (proc_version.starts_with(kLead)) {
    proc_version.remove_prefix(kLead.size());
    proc_version = proc_version.substr(0, proc_version.find(' '));
  }
  std::string lower(proc_version);
  std::ranges::transform(lower, lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find("microsoft") != std::string::npos || lower.find("wsl") != std::string::npos;
}

}  // namespace tb::windows
