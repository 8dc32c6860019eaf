#include "host/call_targets.h"

#include <algorithm>
#include <cctype>

#include "common/json_field.h"

namespace tb {

std::string PolicyTarget(const std::string& base, std::string target) {
  // The URL parser drops leading spaces and controls, and tabs and newlines anywhere.
  std::erase_if(target, [](char c) { return c == '\t' || c == '\n' || c == '\r'; });
  const auto first =
      std::find_if(target.begin(), target.end(), [](char c) { return static_cast<unsigned char>(c) > 0x20; });
  target.erase(target.begin(), first);
  const auto colon = target.find(':');
  const auto scheme_end = target.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");
  if (colon != std::string::npos && colon > 0 && scheme_end == colon &&
      std::isalpha(static_cast<unsigned char>(target[0]))) {
    return target;
  }
  const auto is_slash = [](char c) { return c == '/' || c == '\\'; };
  if (target.size() >= 2 && is_slash(target[0]) && is_slash(target[1])) {
    return base.substr(0, base.find(':') + 1) + "//" + target.substr(2);
  }
  return base;
}

std::expected<CallTargets, std::string> TargetsOf(const tools::PolicyTargets& declared, const Json& args,
                                                  std::optional<std::int64_t> focused_tab, const TabUrlOf& tab_url) {
  if (!declared.Declared()) {
    return std::unexpected(
        "declares no policy targets in the tool catalog (common/tool_catalog.cpp) — a tool that does not say what "
        "the policy checks cannot run");
  }
  CallTargets targets;
  // The tab the call acts on: the one an argument names, else the focused one.
  std::optional<std::int64_t> tab;
  if (!declared.tab_arg.empty()) {
    const auto named = field::Int(args, declared.tab_arg);
    tab = named ? named : focused_tab;
  } else if (declared.focused_tab) {
    tab = focused_tab;
  }
  const bool on_a_tab = !declared.tab_arg.empty() || declared.focused_tab;
  if (const auto url = tab ? tab_url(*tab) : std::nullopt) {
    targets.tab_url = *url;
    targets.urls.push_back(*url);
  }
  if (!declared.url_arg.empty()) {
    if (const auto target = field::String(args, declared.url_arg)) {
      // No tab (open_tab): where it goes, as given; else as the tab's page resolves it.
      targets.goes_to = on_a_tab ? PolicyTarget(targets.tab_url, *target) : *target;
      targets.urls.push_back(targets.goes_to);
    } else if (!on_a_tab) {
      targets.urls.emplace_back();  // nowhere: decided as no site (the tool refuses it too)
    }
  }
  return targets;
}

}  // namespace tb
