// The per-site policy file: parsing, site patterns, decisions (policy.h).
//
// The file is one JSON object:
//   {"default": "allow"|"deny"|"ask",      optional, "allow" when absent
//    "rules": [{"sites": [pattern, ...],    at least one
//               "allow": [cap, ...],        at least one of allow/deny,
//               "deny":  [cap, ...]}, ...]} each non-empty when present
// Capabilities: read, act, navigate, eval, download, and "all" (every one).
// "rules" may be absent (no rules: everything goes by "default"). Parsing is
// strict — unknown or duplicate keys, unknown capability names, wrong types,
// empty lists, invalid patterns — and a file with any error is kMalformed,
// which denies everything: a typo must never widen what the agent may do.
// Errors name the place, rules counted from 1: `rule 2: unknown capability "reed" (…)`.
//
// Patterns: "*" (every site, hostless ones like about:blank included, local
// files not: a file: URL is reached only where a rule names "file:"),
// "x.com" (that host), "*.x.com" (x.com and its subdomains), each with an
// optional ":port" ("*:8080", "[::1]:8080"); "file:" / "file://" / "file:///"
// (local files). Host names are lower-cased (ASCII, and the upper-case letters
// of Latin-1, Latin Extended-A, Greek and Cyrillic — not the full IDNA mapping),
// a trailing dot is dropped, non-ASCII labels become punycode ("xn--…", RFC 3492),
// IPv4 must be written as four decimal numbers and IPv6 in brackets (both are
// exact hosts: "*.127.0.0.1" is refused). "*" goes alone or as the leading "*.".
//
// URLs (SiteOf) are parsed by hand like the WHATWG URL parser does for the
// special schemes, so that a URL Chrome has not canonicalized yet lands on the
// same site: percent-escapes in the host decoded, IPv4 in any form Chrome
// accepts ("0x7f.1") written as a dotted quad, IPv6 compressed (RFC 5952).
//
// Decide: among the rules with a pattern matching the URL's site, a deny wins;
// then an allow; a capability none of them allows is denied (with "default":
// "ask", asked: only a deny is final); a site no rule matches gets "default".
// A URL that does not parse is a hostless site only "*" matches. No file
// asks, a malformed file denies everything.
#include "common/policy.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <set>

#include <nlohmann/json.hpp>

#include "common/host_name.h"
#include "common/json_field.h"
#include "common/platform.h"
#include "common/user_dirs.h"

namespace tb::policy {
namespace {

using host_name::CanonicalHost;
using host_name::IsAlpha;
using host_name::IsDigit;
using host_name::IsIpHost;
using host_name::Lower;
using host_name::ParsePort;
using host_name::PercentDecode;

using Json = nlohmann::json;

constexpr std::size_t kMaxDescribe = 60;      // Site::Describe() of a hostless URL
constexpr std::size_t kMaxUrlInMessage = 80;  // a URL that is no site, in a denial
constexpr std::size_t kMaxQuoted = 60;        // a string of the file quoted in an error
constexpr int kMaxNesting = 4;                // blob:blob:…

constexpr std::string_view kCapsExpected = "expected read, act, navigate, eval, download or all";

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = Lower(c);
  return out;
}

// At most `max` bytes, cut on a UTF-8 character boundary, "…" marking a cut.
std::string Cut(std::string_view s, std::size_t max) {
  if (s.size() <= max) return std::string(s);
  constexpr std::string_view kEllipsis = "…";
  std::size_t end = max > kEllipsis.size() ? max - kEllipsis.size() : 0;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return std::string(s.substr(0, end)) + std::string(kEllipsis);
}

// `s` in double quotes, JSON-escaped, cut: for error messages.
std::string Quote(std::string_view s) {
  return Json(Cut(s, kMaxQuoted)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

// "a string", "a list", … : what a value of the file is, for "must be X, not Y".
std::string Kind(const Json& v) {
  if (v.is_string()) return "a string";
  if (v.is_number()) return "a number";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_array()) return "a list";
  if (v.is_object()) return "an object";
  return "null";
}

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

int DefaultPort(std::string_view scheme) {
  if (scheme == "http" || scheme == "ws") return 80;
  if (scheme == "https" || scheme == "wss") return 443;
  return -1;
}

// ---- URLs -------------------------------------------------------------------

// A hostless URL, short: "about:blank", "chrome://settings", "data: URL".
std::string HostlessText(std::string_view scheme, std::string_view rest) {
  if (scheme == "data" || scheme == "javascript" || scheme == "blob" || scheme == "filesystem") {
    return std::string(scheme) + ": URL";
  }
  rest = rest.substr(0, rest.find_first_of("?#"));
  if (rest.size() > 2 && rest.ends_with('/')) rest.remove_suffix(1);
  return Cut(std::string(scheme) + ":" + std::string(rest), kMaxDescribe);
}

std::optional<Site> SiteOfImpl(std::string_view url, int nesting) {
  // Like browsers: leading and trailing spaces and controls go, tabs and newlines anywhere.
  while (!url.empty() && static_cast<unsigned char>(url.front()) <= 0x20) url.remove_prefix(1);
  while (!url.empty() && static_cast<unsigned char>(url.back()) <= 0x20) url.remove_suffix(1);
  std::string text;
  for (char c : url) {
    if (c != '\t' && c != '\n' && c != '\r') text.push_back(c);
  }
  std::size_t colon = 0;
  if (text.empty() || !IsAlpha(text[0])) return std::nullopt;
  while (colon < text.size() && (IsAlpha(text[colon]) || IsDigit(text[colon]) || text[colon] == '+' ||
                                 text[colon] == '-' || text[colon] == '.')) {
    ++colon;
  }
  if (colon == text.size() || text[colon] != ':') return std::nullopt;
  Site site;
  site.scheme = LowerAscii(std::string_view(text).substr(0, colon));
  const std::string_view rest = std::string_view(text).substr(colon + 1);

  if (site.scheme == "blob" || site.scheme == "filesystem") {
    // blob:https://x.com/uuid is x.com's; blob:null/uuid (an opaque origin) is nobody's.
    if (nesting < kMaxNesting) {
      if (auto inner = SiteOfImpl(rest, nesting + 1)) return inner;
    }
    site.text = HostlessText(site.scheme, rest);
    return site;
  }
  if (site.scheme == "file") {
    site.text = "file:";
    return site;
  }
  const int default_port = DefaultPort(site.scheme);
  if (default_port < 0) {
    site.text = HostlessText(site.scheme, rest);
    return site;
  }

  // scheme://[userinfo@]host[:port][/path][?query][#fragment]; any slashes
  // and backslashes before the host, as browsers accept.
  std::string_view authority = rest;
  while (!authority.empty() && (authority.front() == '/' || authority.front() == '\\')) authority.remove_prefix(1);
  authority = authority.substr(0, authority.find_first_of("/\\?#"));
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
  std::string_view host = authority;
  std::optional<std::string_view> port;
  if (authority.starts_with('[')) {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return std::nullopt;
      port = after.substr(1);
    }
  } else if (const std::size_t c = authority.find(':'); c != std::string_view::npos) {
    host = authority.substr(0, c);
    port = authority.substr(c + 1);
  }
  if (host.empty()) return std::nullopt;
  const auto canonical = CanonicalHost(host.starts_with('[') ? std::string(host) : PercentDecode(host), false);
  if (!canonical || canonical->empty()) return std::nullopt;
  site.host = *canonical;
  site.port = default_port;
  if (port && !port->empty()) {
    const auto number = ParsePort(*port);
    if (!number) {
      // "x.com:0" is a URL browsers accept (and never reach); anything else is no URL.
      if (!std::all_of(port->begin(), port->end(), [](char c) { return c == '0'; })) return std::nullopt;
      site.port = 0;
    } else {
      site.port = *number;
    }
  }
  return site;
}

// ---- The file ---------------------------------------------------------------

// Duplicate keys, which nlohmann resolves silently (the last wins): a rule
// written {"sites": […], "deny": ["all"], "deny": []} must not lose its deny.
class DuplicateKeys {
 public:
  bool Event(Json::parse_event_t event, const Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
        Item();
        stack_.push_back({true, {}, {}, 0});
        break;
      case Json::parse_event_t::array_start:
        Item();
        stack_.push_back({false, {}, {}, 0});
        break;
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        if (!stack_.empty()) stack_.pop_back();
        break;
      case Json::parse_event_t::key:
        if (!stack_.empty() && parsed.is_string()) {
          Frame& top = stack_.back();
          top.key = parsed.get<std::string>();
          if (!top.keys.insert(top.key).second && error_.empty()) error_ = Where() + "duplicate key " + Quote(top.key);
        }
        break;
      case Json::parse_event_t::value:
        Item();
        break;
    }
    return true;
  }
  const std::string& error() const { return error_; }

 private:
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;    // objects: the key being read
    std::size_t items;  // arrays: the values so far
  };
  void Item() {
    if (!stack_.empty() && !stack_.back().object) ++stack_.back().items;
  }
  // "rule N: " when the object is an element of the top level's "rules".
  std::string Where() const {
    if (stack_.size() == 3 && stack_[0].object && stack_[0].key == "rules" && !stack_[1].object) {
      return "rule " + std::to_string(stack_[1].items) + ": ";
    }
    return "";
  }
  std::vector<Frame> stack_;
  std::string error_;
};

// `not JSON: <what> at line L, column C (byte N)`.
std::string NotJson(std::string_view text, const Json::parse_error& e) {
  std::string_view what = e.what();
  if (const std::size_t p = what.find("] "); p != std::string_view::npos) what.remove_prefix(p + 2);
  if (what.starts_with("parse error")) {
    if (const std::size_t p = what.find(": "); p != std::string_view::npos) what.remove_prefix(p + 2);
  }
  // e.byte counts the character the parser stopped at (one past the end at the end).
  const std::string_view before = text.substr(0, e.byte > 0 ? e.byte - 1 : 0);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t line_start = before.rfind('\n');
  const std::size_t column = line_start == std::string_view::npos ? before.size() + 1 : before.size() - line_start;
  return "not JSON: " + std::string(what) + " at line " + std::to_string(line) + ", column " + std::to_string(column) +
         " (byte " + std::to_string(e.byte) + ")";
}

// "allow"/"deny" of a rule: the capabilities ("all" expanded), the names as written.
std::optional<std::string> ReadCaps(const Json& rule, std::string_view key, const std::string& where,
                                    std::vector<Cap>& caps, std::vector<std::string>& names) {
  const Json* list = field::Find(rule, key);
  if (list == nullptr) return std::nullopt;
  if (!list->is_array()) {
    return where + "\"" + std::string(key) + "\" must be a list of capabilities, e.g. [\"read\"], not " + Kind(*list);
  }
  if (list->empty()) return where + "\"" + std::string(key) + "\" is empty; list capabilities or leave it out";
  for (std::size_t i = 0; i < list->size(); ++i) {
    const Json& item = (*list)[i];
    if (!item.is_string()) {
      return where + std::string(key) + "[" + std::to_string(i) + "] must be a string, not " + Kind(item);
    }
    const std::string& name = item.get_ref<const std::string&>();
    std::vector<Cap> adding;
    if (name == "all") {
      adding.assign(std::begin(kAllCaps), std::end(kAllCaps));
    } else if (const auto cap = CapFromName(name)) {
      adding.push_back(*cap);
    } else {
      return where + "unknown capability " + Quote(name) + " (" + std::string(kCapsExpected) + ")";
    }
    for (Cap cap : adding) {
      if (std::find(caps.begin(), caps.end(), cap) == caps.end()) caps.push_back(cap);
    }
    names.push_back(name);
  }
  return std::nullopt;
}

std::expected<Rule, std::string> ReadRule(const Json& json, std::size_t number) {
  const std::string where = "rule " + std::to_string(number) + ": ";
  if (!json.is_object()) {
    return std::unexpected(where + "must be an object like {\"sites\": [\"x.com\"], \"deny\": [\"all\"]}, not " +
                           Kind(json));
  }
  for (const auto& [key, value] : json.items()) {
    if (key != "sites" && key != "allow" && key != "deny") {
      return std::unexpected(where + "unknown key " + Quote(key) + " (expected \"sites\", \"allow\" or \"deny\")");
    }
  }
  Rule rule;
  const Json* sites = field::Find(json, "sites");
  if (sites == nullptr) {
    return std::unexpected(where + "\"sites\" is missing (a list of site patterns, e.g. [\"x.com\", \"*.x.com\"])");
  }
  if (!sites->is_array()) {
    return std::unexpected(where + "\"sites\" must be a list of site patterns, e.g. [\"x.com\"], not " + Kind(*sites));
  }
  if (sites->empty()) return std::unexpected(where + "\"sites\" is empty; list at least one site pattern");
  for (std::size_t i = 0; i < sites->size(); ++i) {
    const Json& item = (*sites)[i];
    const std::string at = where + "sites[" + std::to_string(i) + "] ";
    if (!item.is_string()) return std::unexpected(at + "must be a string, not " + Kind(item));
    auto pattern = ParsePattern(item.get_ref<const std::string&>());
    if (!pattern) return std::unexpected(at + pattern.error());
    rule.sites.push_back(std::move(*pattern));
  }
  if (auto error = ReadCaps(json, "allow", where, rule.allow, rule.allow_text)) return std::unexpected(*error);
  if (auto error = ReadCaps(json, "deny", where, rule.deny, rule.deny_text)) return std::unexpected(*error);
  if (field::Find(json, "allow") == nullptr && field::Find(json, "deny") == nullptr) {
    return std::unexpected(where + "has neither \"allow\" nor \"deny\"");
  }
  return rule;
}

// The rules and default of the file, or what is wrong with it. May throw
// (allocation); Parse catches.
std::optional<std::string> ParseInto(std::string_view text, Policy& policy) {
  if (std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; })) {
    return "not JSON: the file is empty";
  }
  DuplicateKeys duplicates;
  Json json;
  try {
    json = Json::parse(text,
                       [&](int, Json::parse_event_t event, Json& parsed) { return duplicates.Event(event, parsed); });
  } catch (const Json::parse_error& e) {
    return NotJson(text, e);
  }
  if (!duplicates.error().empty()) return duplicates.error();
  if (!json.is_object()) return "the top level must be an object like {\"rules\": [...]}, not " + Kind(json);
  for (const auto& [key, value] : json.items()) {
    if (key != "default" && key != "rules") return "unknown key " + Quote(key) + " (expected \"default\" or \"rules\")";
  }
  if (const Json* def = field::Find(json, "default")) {
    const auto value = field::String(json, "default");
    if (!value || (*value != "allow" && *value != "deny" && *value != "ask")) {
      return "\"default\" must be \"allow\", \"deny\" or \"ask\", not " + (value ? Quote(*value) : Kind(*def));
    }
    policy.fallback = *value == "deny" ? Default::kDeny : *value == "ask" ? Default::kAsk : Default::kAllow;
  }
  if (const Json* rules = field::Find(json, "rules")) {
    if (!rules->is_array()) return "\"rules\" must be a list of rules, not " + Kind(*rules);
    for (std::size_t i = 0; i < rules->size(); ++i) {
      auto rule = ReadRule((*rules)[i], i + 1);
      if (!rule) return rule.error();
      policy.rules.push_back(std::move(*rule));
    }
  }
  return std::nullopt;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string CapsText(const std::vector<std::string>& text, const std::vector<Cap>& caps) {
  if (!text.empty()) return Join(text);
  std::vector<std::string> names;
  for (Cap cap : caps) names.emplace_back(Name(cap));
  return Join(names);
}

bool Has(const std::vector<Cap>& caps, Cap cap) { return std::find(caps.begin(), caps.end(), cap) != caps.end(); }

std::string RuleReason(const Policy& policy, std::size_t index) {
  return "rule " + std::to_string(index + 1) + " (" + policy.rules[index].Describe() + ")";
}

// Whether `url` starts with a scheme whose URLs have a host (http, https, ws,
// wss, and blob: of one), leading spaces and controls skipped as browsers do.
bool IsWebUrl(std::string_view url) {
  while (!url.empty() && static_cast<unsigned char>(url.front()) <= 0x20) url.remove_prefix(1);
  std::string lower = LowerAscii(url.substr(0, 12));
  if (lower.starts_with("blob:")) lower = lower.substr(5);
  for (const std::string_view scheme : {"http:", "https:", "ws:", "wss:"}) {
    if (lower.starts_with(scheme)) return true;
  }
  return false;
}

}  // namespace

std::string_view Name(Cap cap) {
  switch (cap) {
    case Cap::kRead:
      return "read";
    case Cap::kAct:
      return "act";
    case Cap::kNavigate:
      return "navigate";
    case Cap::kEval:
      return "eval";
    case Cap::kDownload:
      return "download";
  }
  return "?";
}

std::optional<Cap> CapFromName(std::string_view name) {
  for (Cap cap : kAllCaps) {
    if (Name(cap) == name) return cap;
  }
  return std::nullopt;
}

std::string Site::Describe() const {
  if (!host.empty()) return port < 0 || port == DefaultPort(scheme) ? host : host + ":" + std::to_string(port);
  if (scheme == "file") return "file:";
  if (!text.empty()) return text;
  return scheme.empty() ? "" : scheme + ":";
}

std::optional<Site> SiteOf(std::string_view url) { return SiteOfImpl(url, 0); }

std::expected<Pattern, std::string> ParsePattern(std::string_view text) {
  const std::string quoted = Quote(text);
  const auto fail = [&](std::string_view what) { return std::unexpected(quoted + ": " + std::string(what)); };
  if (text.empty()) return fail("empty; write *, a host name like x.com, *.x.com or file:");
  if (std::any_of(text.begin(), text.end(),
                  [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7F; })) {
    return fail("no spaces or control characters in a site pattern");
  }
  Pattern pattern;
  pattern.text = std::string(text);
  const std::string lower = LowerAscii(text);
  if (lower == "file:" || lower == "file://" || lower == "file:///") {
    pattern.file = true;
    return pattern;
  }
  if (lower.starts_with("file:"))
    return fail("file: stands for every local file and takes no host or path; write file:");
  if (const std::size_t scheme_end = text.find("://"); scheme_end != std::string_view::npos) {
    std::string_view authority = text.substr(scheme_end + 3);
    authority = authority.substr(0, authority.find_first_of("/?#"));
    if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
    return fail("write the host name, e.g. " + std::string(authority.empty() ? "x.com" : authority));
  }
  if (const std::size_t slash = text.find_first_of("/?#\\"); slash != std::string_view::npos) {
    const std::string_view site = text.substr(0, slash);
    return fail("a site pattern has no path; write " + std::string(site.empty() ? "x.com" : site));
  }
  if (const std::size_t at = text.rfind('@'); at != std::string_view::npos) {
    const std::string_view site = text.substr(at + 1);
    return fail("a site pattern has no user name; write " + std::string(site.empty() ? "x.com" : site));
  }

  // host[:port]; an IPv6 address in brackets.
  std::string_view host = text;
  std::optional<std::string_view> port;
  if (const std::size_t close = text.rfind(']'); close != std::string_view::npos) {
    host = text.substr(0, close + 1);
    const std::string_view after = text.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return fail("only \":port\" may follow \"]\"");
      port = after.substr(1);
    }
  } else if (text.find('[') != std::string_view::npos) {
    return fail("an IPv6 address needs its closing \"]\"");
  } else if (const std::size_t colons = static_cast<std::size_t>(std::count(text.begin(), text.end(), ':'));
             colons > 1) {
    const bool ipv6 = std::all_of(text.begin(), text.end(), [](char c) {
      return IsDigit(c) || (Lower(c) >= 'a' && Lower(c) <= 'f') || c == ':' || c == '.';
    });
    return fail(ipv6 ? "an IPv6 address goes in brackets, e.g. [::1] or [::1]:8080" : "one \":port\" at most");
  } else if (colons == 1) {
    const std::size_t colon = text.find(':');
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (port) {
    const auto number = ParsePort(*port);
    if (!number) return fail("the port must be a number from 1 to 65535");
    pattern.port = *number;
  }
  if (host.empty())
    return fail("no host before the port; write *" + std::string(text) + " for every site on that port");
  if (host == "*") {
    pattern.any = true;
    return pattern;
  }
  if (host.starts_with("*.")) {
    pattern.subdomains = true;
    host.remove_prefix(2);
  }
  if (host.find('*') != std::string_view::npos) return fail("\"*\" goes alone or at the start, as in *.x.com");
  if (host.starts_with('.') && host.size() > 1 && !pattern.subdomains) {
    return fail("write *" + std::string(text) + " for " + std::string(text.substr(1)) + " and its subdomains");
  }
  auto canonical = CanonicalHost(host, true);
  if (!canonical) return fail(canonical.error());
  if (pattern.subdomains && IsIpHost(*canonical)) {
    return fail("an IP address has no subdomains; write " + *canonical);
  }
  pattern.host = std::move(*canonical);
  return pattern;
}

// Other spellings of this machine's loopback that reach what a rule names
// (docs/policy.md "Sites"): in a deny, 127.0.0.1 stands for 127.0.0.0/8 and
// 0.0.0.0, localhost for *.localhost (RFC 6761); an allow names its address
// only (an "Always" for 127.0.0.1:8000 is not 127.0.0.2:8000, maybe another
// program). localhost and 127.0.0.1 stay two sites: a rule names each one it means.
static bool LoopbackAlias(std::string_view pattern_host, std::string_view site_host) {
  if (pattern_host == "127.0.0.1")
    return site_host == "0.0.0.0" || (site_host.starts_with("127.") && IsIpHost(site_host));
  if (pattern_host == "localhost") return site_host.ends_with(".localhost");
  return false;
}

bool Matches(const Pattern& pattern, const Site& site, bool aliases) {
  bool match = false;
  if (pattern.any) {
    match = site.scheme != "file";  // "*" is the web; local files are named (file:)
  } else if (pattern.file) {
    match = site.scheme == "file";
  } else if (!site.host.empty() && !pattern.host.empty()) {
    match = site.host == pattern.host || (aliases && LoopbackAlias(pattern.host, site.host)) ||
            (pattern.subdomains && site.host.size() > pattern.host.size() && site.host.ends_with(pattern.host) &&
             site.host[site.host.size() - pattern.host.size() - 1] == '.');
  }
  return match && (!pattern.port || *pattern.port == site.port);
}

std::string Rule::Describe() const {
  std::vector<std::string> patterns;
  for (const auto& pattern : sites) patterns.push_back(pattern.text);
  std::string out = "sites " + Join(patterns);
  if (!allow.empty() || !allow_text.empty()) out += "; allow " + CapsText(allow_text, allow);
  if (!deny.empty() || !deny_text.empty()) out += "; deny " + CapsText(deny_text, deny);
  return out;
}

Policy Parse(std::string_view json, std::string path) {
  Policy policy;
  policy.path = std::move(path);
  std::optional<std::string> error;
  try {
    error = ParseInto(json, policy);
  } catch (const std::exception& e) {
    error = std::string("cannot parse it: ") + e.what();
  }
  if (error) {
    policy.source = Policy::Source::kMalformed;
    policy.error = std::move(*error);
    policy.rules.clear();
    policy.fallback = Default::kDeny;
  } else {
    policy.source = Policy::Source::kFile;
  }
  return policy;
}

std::string DefaultPath() {
  if (std::string path = Env("TABBRIDGE_POLICY"); !path.empty()) return path;
  std::string config = XdgDir("XDG_CONFIG_HOME", ".config");
  while (config.size() > 1 && config.back() == '/') config.pop_back();
  // Windows takes either separator; a person reads the path better with one.
  const char slash = kThisPlatform == Platform::kWindows ? '\\' : '/';
  return config + slash + "tabbridge" + slash + "policy.json";
}

Decision Decide(const Policy& policy, Cap cap, std::string_view url) {
  switch (policy.source) {
    case Policy::Source::kNone:
      if (policy.fallback == Default::kAllow)
        return {.allowed = true, .rule = std::nullopt, .reason = "no policy file"};
      break;  // no file: no rules, "ask"
    case Policy::Source::kMalformed:
      return {.allowed = false,
              .rule = std::nullopt,
              .reason = "the policy file is malformed (" + policy.error + ") — everything is denied until it is fixed"};
    case Policy::Source::kFile:
      break;
  }
  const auto parsed = SiteOf(url);
  // A web URL whose host we cannot read (a Unicode host, a bad IPv6) must not
  // pass as a hostless page that "*" allows: it may name a denied site.
  if (!parsed && IsWebUrl(url)) {
    return {.allowed = false,
            .rule = std::nullopt,
            .reason = "its host cannot be read (write an international host name in punycode, xn--…)"};
  }
  // No URL or no parsable one: a site without scheme or host, which only "*" matches.
  const Site site = parsed.value_or(Site{});
  // matching: the rules whose sites reach it, loopback aliases too (their
  // denials count); exact: without the aliases (their allows count).
  std::vector<std::size_t> matching;
  std::vector<std::size_t> exact;
  for (std::size_t i = 0; i < policy.rules.size(); ++i) {
    const auto& patterns = policy.rules[i].sites;
    if (std::any_of(patterns.begin(), patterns.end(), [&](const Pattern& p) { return Matches(p, site, true); })) {
      matching.push_back(i);
    }
    if (std::any_of(patterns.begin(), patterns.end(), [&](const Pattern& p) { return Matches(p, site, false); })) {
      exact.push_back(i);
    }
  }
  for (std::size_t i : matching) {
    if (Has(policy.rules[i].deny, cap)) return {.allowed = false, .rule = i, .reason = RuleReason(policy, i)};
  }
  for (std::size_t i : exact) {
    if (Has(policy.rules[i].allow, cap)) return {.allowed = true, .rule = i, .reason = RuleReason(policy, i)};
  }
  if (!matching.empty()) {
    std::string numbers;
    for (std::size_t i : matching) numbers += (numbers.empty() ? "" : ", ") + std::to_string(i + 1);
    if (policy.fallback == Default::kAsk && site.scheme != "file") {
      return {.allowed = false,
              .ask = true,
              .rule = std::nullopt,
              .reason = "no rule decides " + std::string(Name(cap)) + " there and the default is ask"};
    }
    return {.allowed = false,
            .rule = std::nullopt,
            .reason = "no rule allows " + std::string(Name(cap)) + " there (" +
                      (matching.size() == 1 ? "rule " + numbers + " matches" : "rules " + numbers + " match") + ")"};
  }
  // The user's files (~/.ssh, …) are never reached by a default: a rule names them.
  if (site.scheme == "file") {
    return {.allowed = false, .rule = std::nullopt, .reason = "local files are reached only where a rule names file:"};
  }
  if (policy.fallback == Default::kDeny) {
    return {.allowed = false, .rule = std::nullopt, .reason = "no rule matches it and the default is deny"};
  }
  // A page without a host (about:blank) holds nothing of the person's to ask about.
  if (policy.fallback == Default::kAsk && !site.host.empty()) {
    return {.allowed = false,
            .ask = true,
            .rule = std::nullopt,
            .reason = policy.source == Policy::Source::kNone ? "there is no policy file, so the person decides"
                                                             : "no rule matches it and the default is ask"};
  }
  return {.allowed = true, .rule = std::nullopt, .reason = "no rule matches it (default allow)"};
}

std::string DenialMessage(const Policy& policy, std::string_view tool, std::string_view url, const Decision& decision) {
  std::string where;
  if (const auto site = SiteOf(url)) {
    where = site->Describe();
  } else {
    where = url.empty() ? "a page without URL" : Cut(url, kMaxUrlInMessage);
  }
  std::string message = std::string(tool) + " denied on " + where + ": " + decision.reason;
  if (!policy.path.empty()) message += " in " + ShortPath(policy.path);
  return message;
}

std::string ShortPath(const std::string& path) {
  const std::string home = HomeDir();
  if (!home.empty() && path.size() > home.size() + 1 && path.starts_with(home) && path[home.size()] == '/') {
    return "~/" + path.substr(home.size() + 1);
  }
  return path;
}

}  // namespace tb::policy
