// The person's grants and their rules in the policy file (policy_grants.h).
#include "common/policy_grants.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#ifndef _WIN32
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#endif

#include "common/atomic_file.h"
#include "common/utf8_path.h"

namespace tb::policy {
namespace {

using Ordered = nlohmann::ordered_json;  // the person's file keeps its order
namespace fs = std::filesystem;

constexpr std::array<std::pair<Access, std::string_view>, 4> kAccessNames = {
    {{Access::kRead, "read"}, {Access::kAct, "act"}, {Access::kEval, "eval"}, {Access::kDownload, "download"}}};

// The file's text, "" when it does not exist; an error when it cannot be read.
std::expected<std::string, std::string> ReadText(const fs::path& file) {
  std::error_code error;
  if (!fs::exists(file, error)) return std::string();
  if (fs::file_size(file, error) > kMaxFileBytes || error) return std::unexpected("it is too large or unreadable");
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::unexpected("cannot open it");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The file as JSON, checked by the same parser the host uses.
std::expected<Ordered, std::string> ReadFile(const std::string& path) {
  const fs::path file = Utf8Path(path);
  auto text = ReadText(file);
  if (!text) return std::unexpected(ShortPath(path) + ": " + text.error());
  if (text->empty()) return Ordered{{"default", "ask"}, {"rules", Ordered::array()}};
  const Policy parsed = Parse(*text, path);
  if (parsed.source == Policy::Source::kMalformed) {
    return std::unexpected(ShortPath(path) + " is malformed (" + parsed.error + "): fix it first");
  }
  Ordered json = Ordered::parse(*text);
  if (!json.contains("rules")) json["rules"] = Ordered::array();
  return json;
}

// Writers of the file among themselves (tabbridge allow, the person's
// "Always" in each host) take turns: an advisory lock on its directory. An
// editor takes no lock; ReplaceFileIf catches its save (common/atomic_file.h).
class DirLock {
 public:
  explicit DirLock(const fs::path& file) {
#ifndef _WIN32
    std::error_code error;
    fs::create_directories(file.parent_path(), error);
    fd_ = ::open(file.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ >= 0) {
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
#else
    (void)file;
#endif
  }
  ~DirLock() {
#ifndef _WIN32
    if (fd_ >= 0) ::close(fd_);  // lets go of the lock
#endif
  }
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

 private:
  int fd_ = -1;
};

// Reads the file, lets `change` edit it (false: nothing to write) and writes
// it back — read again and redone when someone else saved it meanwhile, so
// that no edit of theirs is lost. -> whether it was written.
constexpr int kEditTries = 20;
std::expected<bool, std::string> Edit(const std::string& path,
                                      const std::function<std::expected<bool, std::string>(Ordered&)>& change) {
  const DirLock lock(Utf8Path(path));
  for (int attempt = 0; attempt < kEditTries; ++attempt) {
    const FileStamp stamp = StampOf(path);
    auto json = ReadFile(path);
    if (!json) return std::unexpected(json.error());
    auto changed = change(*json);
    if (!changed) return std::unexpected(changed.error());
    if (!*changed) return false;
    auto replaced = ReplaceFileIf(path, json->dump(2) + "\n", stamp);
    if (!replaced) return std::unexpected(replaced.error());
    if (*replaced) return true;
  }
  return std::unexpected(ShortPath(path) + " kept changing while it was written: nothing was written");
}

bool IsGrantJson(const Ordered& rule, std::string_view site) {
  if (!rule.is_object() || rule.size() != 2 || !rule.contains("sites") || !rule.contains("allow")) return false;
  const Ordered& sites = rule["sites"];
  return sites.is_array() && sites.size() == 1 && sites[0].is_string() && sites[0].get<std::string>() == site &&
         rule["allow"].is_array();
}

}  // namespace

std::string_view Name(Access access) {
  for (const auto& [value, name] : kAccessNames) {
    if (value == access) return name;
  }
  return "read";
}

std::optional<Access> AccessFromName(std::string_view name) {
  for (const auto& [value, text] : kAccessNames) {
    if (text == name) return value;
  }
  return std::nullopt;
}

Access AccessFor(Cap cap) {
  switch (cap) {
    case Cap::kAct:
      return Access::kAct;
    case Cap::kEval:
      return Access::kEval;
    case Cap::kDownload:
      return Access::kDownload;
    case Cap::kRead:
    case Cap::kNavigate:
      break;
  }
  return Access::kRead;
}

std::vector<Cap> Allowed(Access access) {
  std::vector<Cap> caps = {Cap::kRead, Cap::kNavigate};
  if (access == Access::kAct) caps.push_back(Cap::kAct);
  if (access == Access::kEval) caps.push_back(Cap::kEval);
  if (access == Access::kDownload) caps.push_back(Cap::kDownload);
  return caps;
}

std::vector<Cap> Denied(Access access) {
  if (access == Access::kRead) return std::vector<Cap>(std::begin(kAllCaps), std::end(kAllCaps));
  if (access == Access::kAct) return {Cap::kAct};
  if (access == Access::kEval) return {Cap::kEval};
  return {Cap::kDownload};
}

std::string_view Verb(Access access) {
  switch (access) {
    case Access::kAct:
      return "read and act on";
    case Access::kEval:
      return "run JavaScript on";
    case Access::kDownload:
      return "download from";
    case Access::kRead:
      break;
  }
  return "read";
}

std::string GrantSite(std::string_view url) {
  const auto site = SiteOf(url);
  if (!site || site->host.empty()) return "";
  std::string described = site->Describe();
  const std::string& host = site->host;
  const bool local = host == "localhost" || host.ends_with(".localhost") || host.front() == '[' ||
                     host.find_first_not_of("0123456789.") == std::string::npos;
  const bool has_port = described.size() > host.size();  // Describe adds ":port" when not the scheme's
  if (local && !has_port && site->port > 0) described += ":" + std::to_string(site->port);
  return described;
}

bool IsGrant(const Rule& rule) { return rule.sites.size() == 1 && rule.deny.empty() && !rule.allow.empty(); }

std::expected<std::string, std::string> AddGrant(const std::string& path, std::string_view site,
                                                 const std::vector<Cap>& caps) {
  // One host: not "*", not "*.x.com", not "file:" (local files are named in the file by hand).
  if (const auto pattern = ParsePattern(site); !pattern || pattern->any || pattern->subdomains || pattern->file) {
    return std::unexpected("\"" + std::string(site) + "\" is not one site (write a host such as github.com)");
  }
  std::string described;
  auto written = Edit(path, [&](Ordered& json) -> std::expected<bool, std::string> {
    Ordered& rules = json["rules"];
    auto found = std::find_if(rules.begin(), rules.end(), [&](const Ordered& rule) { return IsGrantJson(rule, site); });
    if (found == rules.end()) {
      rules.push_back(Ordered{{"sites", Ordered::array({std::string(site)})}, {"allow", Ordered::array()}});
      found = rules.end() - 1;
    }
    Ordered& allow = (*found)["allow"];
    for (const Cap cap : caps) {
      const std::string name(Name(cap));
      const bool has =
          std::any_of(allow.begin(), allow.end(), [&](const Ordered& c) { return c == name || c == "all"; });
      if (!has) allow.push_back(name);
    }
    const std::size_t index = static_cast<std::size_t>(found - rules.begin());
    const Policy check = Parse(json.dump(), path);
    if (check.source != Policy::Source::kFile) return std::unexpected("the grant would break the file: " + check.error);
    described = check.rules[index].Describe();
    return true;
  });
  if (!written) return std::unexpected(written.error());
  return described;
}

std::expected<bool, std::string> RemoveGrant(const std::string& path, std::string_view site) {
  std::error_code error;
  if (!fs::exists(Utf8Path(path), error)) return false;
  return Edit(path, [&](Ordered& json) -> std::expected<bool, std::string> {
    Ordered& rules = json["rules"];
    const auto before = rules.size();
    for (auto it = rules.begin(); it != rules.end();) {
      it = IsGrantJson(*it, site) ? rules.erase(it) : it + 1;
    }
    return rules.size() != before;
  });
}

}  // namespace tb::policy
