#include "mcp_shim/session_tabs.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "common/json_field.h"

namespace tb {
namespace {

std::optional<KnownTab> TabOf(const Json& entry) {
  const auto id = field::Int(entry, "id");
  const auto url = field::String(entry, "url");
  if (!id || !url) return std::nullopt;
  return KnownTab{*id, *url};
}

// The time of day in UTC, from the clock alone (no gmtime_r, which Windows lacks).
std::string Clock(std::chrono::system_clock::time_point at) {
  const auto of_day = at - std::chrono::floor<std::chrono::days>(at);
  const std::chrono::hh_mm_ss hms(std::chrono::floor<std::chrono::seconds>(of_day));
  char text[32];
  std::snprintf(text, sizeof(text), "%02d:%02d:%02d UTC", static_cast<int>(hms.hours().count()),
                static_cast<int>(hms.minutes().count()), static_cast<int>(hms.seconds().count()));
  return text;
}

}  // namespace

std::optional<SessionTabs> ParseSessionTabs(const Json& params) {
  const Json* tabs = field::Find(params, "tabs");
  if (tabs == nullptr || !tabs->is_array()) return std::nullopt;
  SessionTabs out;
  for (const auto& entry : *tabs) {
    auto tab = TabOf(entry);
    if (!tab) return std::nullopt;
    out.tabs.push_back(std::move(*tab));
  }
  out.focused = field::Int(params, "focusedTabId");
  return out;
}

std::vector<KnownTab> ParseOpenTabs(const Json& structured) {
  std::vector<KnownTab> out;
  for (const auto& entry : field::Array(structured, "tabs")) {
    if (auto tab = TabOf(entry)) out.push_back(std::move(*tab));
  }
  return out;
}

std::vector<RestoreStep> PlanRestore(const SessionTabs& remembered, const std::vector<KnownTab>& open_now) {
  std::set<std::int64_t> claimed;
  std::vector<RestoreStep> steps;
  // First the same tab (a host restart keeps the browser's tab ids), then any
  // unclaimed tab at the same URL (the browser or another session reopened it).
  for (const auto& was : remembered.tabs) {
    RestoreStep step{was, std::nullopt};
    const auto same = std::ranges::find_if(open_now, [&](const KnownTab& t) { return t.id == was.id; });
    if (same != open_now.end() && same->url == was.url) {
      step.found = same->id;
      claimed.insert(same->id);
    }
    steps.push_back(std::move(step));
  }
  for (auto& step : steps) {
    if (step.found) continue;
    const auto other = std::ranges::find_if(
        open_now, [&](const KnownTab& t) { return t.url == step.was.url && !claimed.contains(t.id); });
    if (other == open_now.end()) continue;
    step.found = other->id;
    claimed.insert(other->id);
  }
  return steps;
}

bool Crashed(const BrowserExit& exit) { return exit.signal != 0 || exit.status != 0; }

std::string HowItEnded(const BrowserExit& exit) {
  if (exit.signal != 0) return "had crashed (signal " + std::to_string(exit.signal) + ")";
  if (IsWindowsException(exit.status)) return "had crashed (exception " + ExceptionCode(exit.status) + ")";
  if (exit.status != 0) return "had exited (status " + std::to_string(exit.status) + ")";
  return "had been closed (status 0)";
}

std::string WhenSaid(std::chrono::system_clock::time_point at, std::chrono::system_clock::time_point now) {
  const auto ago = std::chrono::duration_cast<std::chrono::seconds>(now - at).count();
  return Clock(at) + " (" + std::to_string(std::max<long long>(ago, 0)) + " s ago)";
}

std::string GoneNote(const std::string& browser, long pid, std::chrono::system_clock::time_point at,
                     std::chrono::system_clock::time_point now) {
  std::string who = browser.empty() ? "the browser" : "the browser (" + browser;
  if (pid > 0) who += browser.empty() ? " (pid " + std::to_string(pid) + ")" : ", pid " + std::to_string(pid);
  if (!browser.empty()) who += ")";
  return who + " went away at " + WhenSaid(at, now) +
         ": it crashed or was closed. This session did not launch it, so it does not start it again (the "
         "tabbridge session that launched it does, if it crashed) — once it runs again, call connect_browser "
         "(or connect_browser with launch=true for a browser of this session's own); this session's tabs are "
         "reopened then";
}

std::string RestoreSummary(const std::vector<Restored>& restored, std::optional<std::int64_t> focused_now) {
  if (restored.empty()) return "";
  std::string out = restored.size() == 1 ? "this session's tab: " : "this session's tabs: ";
  bool first = true;
  for (const auto& r : restored) {
    out += first ? "" : "; ";
    first = false;
    const std::string was = "tab " + std::to_string(r.was.id);
    if (!r.now) {
      out += was + " could not be reopened: " + r.error;
    } else if (*r.now == r.was.id) {
      out += was + " is still open";
    } else {
      out += was + " is now tab " + std::to_string(*r.now);
    }
  }
  out += focused_now ? "; focus is on tab " + std::to_string(*focused_now) + " again" : "";
  return out;
}

}  // namespace tb
