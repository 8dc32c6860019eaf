#include "host/own_tool_names.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>

#include "common/page_text.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"

namespace tb::own_tools {
namespace {

constexpr std::string_view kWebMcpPrefix = "webmcp_";
constexpr std::string_view kFormPrefix = "form_";       // form tools: the page names the rest
constexpr std::string_view kResultsPrefix = "select_";  // result-list tools: likewise
constexpr std::string_view kButtonPrefix = "press_";    // button tools: likewise
constexpr std::size_t kHashChars = 4;

std::string Lower(std::string_view text) {
  std::string out(text);
  std::ranges::transform(out, out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Decodes one UTF-8 code point at `i` (the parser already checked the text is
// valid UTF-8; a stray byte is taken as itself) and advances `i`.
char32_t NextCodePoint(std::string_view text, std::size_t& i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t length = lead < 0x80           ? 1
                             : (lead >> 5) == 0x6  ? 2
                             : (lead >> 4) == 0xe  ? 3
                             : (lead >> 3) == 0x1e ? 4
                                                   : 1;
  if (i + length > text.size() || length == 1) {
    ++i;
    return lead;
  }
  char32_t cp = lead & (0xff >> (length + 1));
  for (std::size_t k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3f);
  i += length;
  return cp;
}

// Cuts `name` so that it ends within kMaxToolNameChars.
std::string Cut(std::string name, std::size_t max) {
  if (name.size() > max) name.resize(max);
  return name;
}

// A name the extension suggested for a tool it made from the page (a form, a
// list of results), behind a fixed mark the page cannot drop.
std::string MarkedName(std::string_view prefix, std::string_view suggested, const std::set<std::string>& taken) {
  std::string base = Lower(Sanitize(suggested));
  // No leading/trailing/double underscores: "search__flights_" → "search_flights".
  std::string squeezed;
  for (char c : base) {
    if (c == '_' && (squeezed.empty() || squeezed.back() == '_')) continue;
    squeezed.push_back(c);
  }
  while (!squeezed.empty() && squeezed.back() == '_') squeezed.pop_back();
  // A fixed mark, as WebMCP tools have theirs: a page cannot name a form like
  // one of our tools or another server's ("take_screenshot" -> form_take_screenshot).
  if (!squeezed.starts_with(prefix)) squeezed = std::string(prefix) + (squeezed.empty() ? "1" : squeezed);
  base = squeezed;
  base = Cut(base, kMaxToolNameChars);
  std::string name = base;
  for (int n = 2; taken.contains(name); ++n) {
    const std::string suffix = "_" + std::to_string(n);
    name = Cut(base, kMaxToolNameChars - suffix.size()) + suffix;
  }
  return name;
}

}  // namespace

Site SiteOf(std::string_view url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return {"unknown", "unknown"};
  std::string_view rest = url.substr(scheme_end + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const auto at = rest.rfind('@'); at != std::string_view::npos) rest = rest.substr(at + 1);
  std::string_view host = rest;
  std::string_view port;
  if (rest.starts_with('[')) {  // [::1]:8000
    const auto close = rest.find(']');
    if (close == std::string_view::npos) return {"unknown", "unknown"};
    host = rest.substr(0, close + 1);
    if (close + 1 < rest.size() && rest[close + 1] == ':') port = rest.substr(close + 2);
  } else if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    host = rest.substr(0, colon);
    port = rest.substr(colon + 1);
  }
  const std::string lower = Lower(host);
  if (lower.empty()) return {"unknown", "unknown"};
  if (lower == "localhost" || lower == "127.0.0.1" || lower == "[::1]") {
    const std::string p = port.empty() ? "80" : std::string(port);  // seed 001 §4
    return {Sanitize("localhost_" + p), "localhost:" + Sanitize(p)};
  }
  // The display form sits inside "[WebMCP • … ]": only host-name characters.
  std::string display;
  for (char c : lower) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '[' || c == ']' || c == ':')
      display.push_back(c);
  }
  if (display.empty()) display = "unknown";
  return {Sanitize(lower), port.empty() ? display : display + ":" + Sanitize(port)};
}

std::string Sanitize(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char32_t cp = NextCodePoint(text, i);
    out.push_back(cp < 0x80 && (std::isalnum(static_cast<int>(cp)) || cp == '_') ? static_cast<char>(cp) : '_');
  }
  return out;
}

std::string ShortHash(std::string_view text) {
  std::uint32_t h = 2166136261u;  // FNV-1a: stable across runs and builds
  for (unsigned char c : text) h = (h ^ c) * 16777619u;
  char buffer[9];
  std::snprintf(buffer, sizeof buffer, "%08x", h);
  return std::string(buffer, kHashChars);
}

std::string WebMcpName(const Site& site, std::size_t page_index, std::string_view tool,
                       const std::set<std::string>& taken) {
  std::string clean = Sanitize(tool);
  if (std::ranges::none_of(clean, [](char c) { return std::isalnum(static_cast<unsigned char>(c)); })) {
    clean = "tool_" + ShortHash(tool);  // "添加" would be "__": say something distinct
  }
  const std::size_t max = kMaxToolNameChars;
  const std::string middle = "_page" + std::to_string(page_index) + "_";
  std::string name = std::string(kWebMcpPrefix) + site.name + middle + clean;
  for (int attempt = 0; name.size() > max || taken.contains(name); ++attempt) {
    // Hash what tells this tool apart: the site, the page's own name, the attempt.
    const std::string hash = ShortHash(site.name + "\n" + std::string(tool) + "\n" + std::to_string(attempt));
    const std::size_t fixed = kWebMcpPrefix.size() + middle.size() + hash.size();
    // Keep the tool's name whole while at least 4 characters of the site fit.
    const std::size_t tool_room = max - fixed - std::min<std::size_t>(site.name.size(), 4);
    const std::string kept_tool = clean.substr(0, std::min(clean.size(), tool_room));
    const std::size_t site_room = max - fixed - kept_tool.size();
    name = std::string(kWebMcpPrefix) + site.name.substr(0, std::min(site.name.size(), site_room)) + hash + middle +
           kept_tool;
  }
  return name;
}

std::string FormName(std::string_view suggested, const std::set<std::string>& taken) {
  return MarkedName(kFormPrefix, suggested, taken);
}

std::string ResultListName(std::string_view suggested, const std::set<std::string>& taken) {
  return MarkedName(kResultsPrefix, suggested, taken);
}

std::string ButtonName(std::string_view suggested, const std::set<std::string>& taken) {
  return MarkedName(kButtonPrefix, suggested, taken);
}

std::string CleanText(std::string_view text, std::size_t max_chars) {
  std::string clean = page_text::Clean(text, page_text::Lines::kJoin);
  // At most max_chars characters, the last of them "…" when cut.
  std::size_t chars = 0;
  std::size_t kept_bytes = 0;  // the first max_chars - 1 characters
  for (std::size_t i = 0; i < clean.size(); ++i) {
    if ((static_cast<unsigned char>(clean[i]) & 0xc0) == 0x80) continue;  // inside a character
    if (chars + 1 == max_chars) kept_bytes = i;
    if (++chars > max_chars) {
      clean.resize(kept_bytes);
      return clean + "…";
    }
  }
  return clean;
}

}  // namespace tb::own_tools
