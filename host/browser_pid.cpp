#include "host/browser_pid.h"

#include <algorithm>
#include <cctype>
#include <set>

#ifndef _WIN32
#include <unistd.h>
#endif

namespace tb {
namespace {

bool IsCmd(std::string exe) {
  std::ranges::transform(exe, exe.begin(), [](unsigned char c) { return std::tolower(c); });
  return exe == "cmd.exe" || exe.ends_with("\\cmd.exe");
}

const ProcessEntry* Find(const std::vector<ProcessEntry>& processes, long pid) {
  const auto it = std::ranges::find(processes, pid, &ProcessEntry::pid);
  return it == processes.end() ? nullptr : &*it;
}

}  // namespace

long BrowserPidAmong(long self, const std::vector<ProcessEntry>& processes) {
  const ProcessEntry* entry = Find(processes, self);
  if (entry == nullptr) return 0;
  std::set<long> seen{self};
  long candidate = entry->parent;
  while (const ProcessEntry* parent = Find(processes, candidate)) {
    if (!IsCmd(parent->exe) || !seen.insert(candidate).second) break;
    candidate = parent->parent;
  }
  return candidate;
}

#ifndef _WIN32
long BrowserPid() { return static_cast<long>(getppid()); }
#endif

}  // namespace tb
