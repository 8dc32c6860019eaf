// Who may do what, where: the per-site policy file (docs/policy.md).
// Pure functions: parsing the file, matching site patterns against URLs and
// deciding one capability on one URL. The host enforces the decisions
// (host/policy_gate.h); `tabbridge policy` prints them.
#pragma once

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tb::policy {

// What a tool does to a page; every tool needs one (common/tool_catalog.cpp).
enum class Cap { kRead, kAct, kNavigate, kEval, kDownload };
inline constexpr Cap kAllCaps[] = {Cap::kRead, Cap::kAct, Cap::kNavigate, Cap::kEval, Cap::kDownload};
std::string_view Name(Cap cap);
std::optional<Cap> CapFromName(std::string_view name);

// Where a URL is, as patterns see it. http(s)/ws(s): the host name (lower
// case, IDN as punycode "xn--…", IPv6 in brackets) and the port (the scheme's
// default when the URL gives none). file: URLs are the site "file:". Other
// URLs (about:blank, data:, chrome://…) have no host: only "*" matches them.
struct Site {
  std::string scheme;            // "https", "file", "about", …
  std::string host;              // empty when the URL has none
  int port = -1;                 // -1 when the URL has no host
  std::string Describe() const;  // "mail.google.com", "localhost:8080", "file:", "about:blank"
  // Hostless sites: the URL, short, for Describe() ("about:blank", "chrome://settings", "data: URL").
  std::string text;
};
// blob:/filesystem: URLs are the site of the URL inside them.
std::optional<Site> SiteOf(std::string_view url);

// One entry of a rule's "sites": "*" (every site but local files), "x.com",
// "*.x.com" (x.com and its subdomains), each with an optional ":port";
// "file:" for local files, which only it matches.
struct Pattern {
  std::string text;         // as written, for messages
  std::string host;         // lower case, punycode; empty for "*" and "file:"
  bool any = false;         // "*": not file: URLs
  bool subdomains = false;  // "*.host"
  bool file = false;        // "file:" / "file://"
  std::optional<int> port;
};
std::expected<Pattern, std::string> ParsePattern(std::string_view text);
// aliases: the loopback spellings a rule's host stands for count (a deny's
// reach); without them, the host itself (an allow's).
bool Matches(const Pattern& pattern, const Site& site, bool aliases = true);

struct Rule {
  std::vector<Pattern> sites;
  std::vector<Cap> allow;  // "all" expanded
  std::vector<Cap> deny;
  std::string Describe() const;  // "sites *.mybank.com, mail.google.com; deny all"
  // As written (for Describe): the capability names, "all" kept.
  std::vector<std::string> allow_text;
  std::vector<std::string> deny_text;
};

// What a site no rule decides gets: everything, nothing, or the person's
// answer (docs/policy.md "Asking the person").
enum class Default { kAllow, kDeny, kAsk };

struct Policy {
  enum class Source { kNone, kFile, kMalformed };
  Source source = Source::kNone;  // kNone: no file — see fallback
  std::string path;               // the file (also when absent or malformed)
  std::string error;              // kMalformed: what is wrong, e.g. `rule 2: unknown capability "reed"`
  std::vector<Rule> rules;
  // "default"; absent in a file: allow (files written before "ask" keep
  // their meaning). No file: ask — except a Policy{} as host unit tests make
  // it, which allows everything (no path, nobody to ask).
  Default fallback = Default::kAllow;
};

// The policy in `json` (the contents of `path`): kFile, or kMalformed with the error.
Policy Parse(std::string_view json, std::string path);
// The largest policy file Load reads: a policy is a few rules.
inline constexpr std::size_t kMaxFileBytes = std::size_t{1} << 20;
// Reads `path`: kNone when it does not exist, kMalformed when it cannot be read or parsed
// (policy_load.cpp, policy_load_windows.cpp).
Policy Load(const std::string& path);
// $TABBRIDGE_POLICY, else $XDG_CONFIG_HOME/tabbridge/policy.json, else
// ~/.config/tabbridge/policy.json.
std::string DefaultPath();

struct Decision {
  bool allowed = false;
  // Not allowed and not denied: no rule decides and the default is "ask" —
  // the person's answer decides (host/policy_gate.h).
  bool ask = false;
  // The rule that decided (0-based), if one did: a deny, else the first allow.
  std::optional<std::size_t> rule;
  // Why, for messages: `rule 1 (sites …; deny all)`, `no rule allows eval there (rule 3 matches)`,
  // `no rule matches it and the default is deny`, `the policy file is malformed (…)`, `no policy file`.
  std::string reason;
};
// `cap` on `url`. Deny wins over allow; among the rules matching the URL's
// site, a capability none allows is denied (asked with "default": "ask"); a
// site no rule matches gets "default". A local file no rule names is denied.
// No file asks; a malformed file denies all.
Decision Decide(const Policy& policy, Cap cap, std::string_view url);

// `click denied on mail.google.com: rule 1 (sites *.mybank.com, mail.google.com;
// deny all) in ~/.config/tabbridge/policy.json`
std::string DenialMessage(const Policy& policy, std::string_view tool, std::string_view url, const Decision& decision);
// `path` with the home directory written as "~".
std::string ShortPath(const std::string& path);

}  // namespace tb::policy
