// How the page's own tools (WebMCP, forms, result lists, buttons) are named and described for the
// model: seed 001's webmcp_{domain}_page{idx}_{tool}, kept within what every
// client accepts, and page-written text made safe to show. Pure functions.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>

namespace tb::own_tools {

// The site part of a name and its human form: 127.0.0.1:8000, localhost:8000
// and [::1]:8000 are all localhost_8000 / localhost:8000; github.com is
// github_com / github.com; anything unparsable is "unknown".
struct Site {
  std::string name;
  std::string display;
};
Site SiteOf(std::string_view url);

// Every character outside [A-Za-z0-9_] becomes '_' (seed 001 §3).
std::string Sanitize(std::string_view text);

// A short, stable hash (4 hex digits) that tells shortened names apart.
std::string ShortHash(std::string_view text);

// webmcp_{site}_page{idx}_{tool}: at most kMaxToolNameChars, never one of
// `taken`. Too long → the site is cut and a hash of the whole added (the
// tool's own name stays whole while it fits); a clash → another hash.
std::string WebMcpName(const Site& site, std::size_t page_index, std::string_view tool,
                       const std::set<std::string>& taken);

// A form tool's name from the extension's suggestion (snake_case): "form_"
// first (the page names the rest, so it cannot name one like a tool of ours
// or another server's), lowercase [a-z0-9_], at most kMaxToolNameChars,
// "_2", "_3"… when another own tool in `taken` has it.
std::string FormName(std::string_view suggested, const std::set<std::string>& taken);

// A result-list tool's name (the extension suggests select_{what the list
// holds}): the same rules behind the mark "select_" (select_search_result).
std::string ResultListName(std::string_view suggested, const std::set<std::string>& taken);

// A button tool's name (the extension suggests press_{the button's label}):
// the same rules behind the mark "press_" (press_star). `taken` holds
// tabbridge's own names too: a button "Key" is press_key_2, never press_key.
std::string ButtonName(std::string_view suggested, const std::set<std::string>& taken);

// Untrusted page text for a model: one line (whitespace runs become one
// space), cleaned as all page text is (common/page_text.h), at most
// `max_chars` characters (cut with "…").
std::string CleanText(std::string_view text, std::size_t max_chars);

}  // namespace tb::own_tools
