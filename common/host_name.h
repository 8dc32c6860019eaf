// Host names as the policy compares them (common/policy.h): lower case,
// international names as punycode (RFC 3492), IPv4 as a dotted quad, IPv6
// compressed in brackets (RFC 5952) — what Chrome writes in a URL, so a
// pattern and a URL name the same host the same way.
#pragma once

#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace tb::host_name {

inline char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// `raw` as hosts are compared, or what is wrong with it. `strict` (patterns):
// letters, digits, "-" and "_" only, no empty labels, IPv4 in decimal only;
// otherwise (URLs) any IPv4 form a browser accepts ("0x7f.1") but ASCII only:
// a URL's international host must be punycode, as browsers write it in tab
// URLs (their UTS 46 mapping is not ours). A trailing dot goes.
std::expected<std::string, std::string> CanonicalHost(std::string_view raw, bool strict);
// "%41" → "A" in a URL's host; other "%" stay (and make the host invalid).
std::string PercentDecode(std::string_view s);
// Whether a canonical host is an IP address (IPv6 in brackets, or IPv4).
bool IsIpHost(std::string_view host);
// A port as written: digits only, 1-65535 (leading zeros allowed, as browsers do).
std::optional<int> ParsePort(std::string_view text);

}  // namespace tb::host_name
