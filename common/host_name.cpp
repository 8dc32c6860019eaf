// Host names as the policy compares them (host_name.h).
#include "common/host_name.h"

#ifdef _WIN32
#include <ws2tcpip.h>  // inet_pton
#else
#include <arpa/inet.h>
#endif

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tb::host_name {
namespace {

// Strict UTF-8 (no overlong forms, no surrogates); nullopt when invalid.
std::optional<std::u32string> DecodeUtf8(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    char32_t c = 0;
    char32_t min = 0;
    if (b < 0x80) {
      len = 1, c = b;
    } else if ((b & 0xE0) == 0xC0) {
      len = 2, c = b & 0x1Fu, min = 0x80;
    } else if ((b & 0xF0) == 0xE0) {
      len = 3, c = b & 0x0Fu, min = 0x800;
    } else if ((b & 0xF8) == 0xF0) {
      len = 4, c = b & 0x07u, min = 0x10000;
    } else {
      return std::nullopt;
    }
    if (i + len > s.size()) return std::nullopt;
    for (std::size_t k = 1; k < len; ++k) {
      const auto cont = static_cast<unsigned char>(s[i + k]);
      if ((cont & 0xC0) != 0x80) return std::nullopt;
      c = (c << 6) | (cont & 0x3Fu);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return std::nullopt;
    out.push_back(c);
    i += len;
  }
  return out;
}

// The lower-case letter of the common upper-case ones beyond ASCII (Latin-1,
// Latin Extended-A, Greek, Cyrillic). Not UTS 46: enough for a pattern written
// "München.de"; URLs from the browser arrive in punycode already.
char32_t FoldCase(char32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 0x20;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 0x20;
  if (c >= 0x100 && c <= 0x12F && c % 2 == 0) return c + 1;
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 0x20;
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  if (c >= 0x410 && c <= 0x42F) return c + 0x20;
  return c;
}

// RFC 3492 punycode of one label (without the "xn--" prefix); nullopt on overflow.
std::optional<std::string> Punycode(std::u32string_view input) {
  constexpr std::uint64_t kBase = 36, kTMin = 1, kTMax = 26, kSkew = 38, kDamp = 700;
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 62;
  const auto digit = [](std::uint64_t d) { return static_cast<char>(d < 26 ? 'a' + d : '0' + (d - 26)); };
  const auto adapt = [&](std::uint64_t delta, std::uint64_t points, bool first) {
    delta = first ? delta / kDamp : delta / 2;
    delta += delta / points;
    std::uint64_t k = 0;
    while (delta > ((kBase - kTMin) * kTMax) / 2) {
      delta /= kBase - kTMin;
      k += kBase;
    }
    return k + (kBase - kTMin + 1) * delta / (delta + kSkew);
  };
  std::string out;
  for (char32_t c : input) {
    if (c < 0x80) out.push_back(static_cast<char>(c));
  }
  const std::uint64_t basic = out.size();
  std::uint64_t handled = basic;
  if (basic > 0) out.push_back('-');
  std::uint64_t n = 0x80, delta = 0, bias = 72;
  while (handled < input.size()) {
    std::uint64_t m = UINT64_MAX;
    for (char32_t c : input) {
      if (c >= n && c < m) m = c;
    }
    delta += (m - n) * (handled + 1);
    n = m;
    for (char32_t c : input) {
      if (c < n) ++delta;
      if (delta > kLimit) return std::nullopt;
      if (c != n) continue;
      std::uint64_t q = delta;
      for (std::uint64_t k = kBase;; k += kBase) {
        const std::uint64_t t = k <= bias ? kTMin : k >= bias + kTMax ? kTMax : k - bias;
        if (q < t) break;
        out.push_back(digit(t + (q - t) % (kBase - t)));
        q = (q - t) / (kBase - t);
      }
      out.push_back(digit(q));
      bias = adapt(delta, handled + 1, handled == basic);
      delta = 0;
      ++handled;
    }
    ++delta;
    ++n;
  }
  return out;
}

// RFC 5952 text of an IPv6 address (what Chrome writes): lower-case hex, the
// longest run of two or more zero groups (the first of equals) as "::".
std::optional<std::string> CanonicalIpv6(std::string_view text) {
  unsigned char bytes[16];
  if (text.empty() || text.size() > 64 || inet_pton(AF_INET6, std::string(text).c_str(), bytes) != 1) {
    return std::nullopt;
  }
  std::array<unsigned, 8> groups{};
  for (std::size_t i = 0; i < 8; ++i) groups[i] = (unsigned{bytes[2 * i]} << 8) | bytes[2 * i + 1];
  std::size_t best = 8, best_len = 0;
  for (std::size_t i = 0; i < 8;) {
    std::size_t j = i;
    while (j < 8 && groups[j] == 0) ++j;
    if (j - i > best_len) best = i, best_len = j - i;
    i = j == i ? i + 1 : j;
  }
  if (best_len < 2) best = 8;
  std::string out;
  static constexpr char kHex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < 8; ++i) {
    if (i == best) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out.push_back(':');
    bool started = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      const unsigned nibble = (groups[i] >> shift) & 0xFu;
      if (nibble != 0 || started || shift == 0) out.push_back(kHex[nibble]), started = true;
    }
  }
  return out;
}

// The dotted quad an IPv4-mapped IPv6 address (::ffff:0:0/96) carries.
std::optional<std::string> MappedIpv4(std::string_view text) {
  unsigned char bytes[16];
  if (text.empty() || text.size() > 64 || inet_pton(AF_INET6, std::string(text).c_str(), bytes) != 1) {
    return std::nullopt;
  }
  for (int i = 0; i < 10; ++i)
    if (bytes[i] != 0) return std::nullopt;
  if (bytes[10] != 0xff || bytes[11] != 0xff) return std::nullopt;
  return std::to_string(bytes[12]) + "." + std::to_string(bytes[13]) + "." + std::to_string(bytes[14]) + "." +
         std::to_string(bytes[15]);
}

// One part of a WHATWG IPv4 address: decimal, 0x hex or 0-led octal.
std::optional<std::uint64_t> Ipv4Number(std::string_view part) {
  if (part.empty()) return std::nullopt;
  unsigned radix = 10;
  if (part.size() >= 2 && part[0] == '0' && (part[1] == 'x' || part[1] == 'X')) {
    radix = 16, part.remove_prefix(2);
  } else if (part.size() >= 2 && part[0] == '0') {
    radix = 8, part.remove_prefix(1);
  }
  std::uint64_t value = 0;
  for (char c : part) {
    unsigned d = 0;
    if (IsDigit(c)) {
      d = static_cast<unsigned>(c - '0');
    } else if (radix == 16 && Lower(c) >= 'a' && Lower(c) <= 'f') {
      d = static_cast<unsigned>(Lower(c) - 'a' + 10);
    } else {
      return std::nullopt;
    }
    if (d >= radix) return std::nullopt;
    value = std::min<std::uint64_t>(value * radix + d, std::uint64_t{1} << 40);  // past any valid value
  }
  return value;
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t end = s.find(sep, start);
    parts.push_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// Whether the host is meant as an IPv4 address (WHATWG "ends in a number").
bool EndsInNumber(std::string_view host) {
  std::vector<std::string_view> parts = Split(host, '.');
  if (parts.back().empty()) {
    if (parts.size() == 1) return false;
    parts.pop_back();
  }
  const std::string_view last = parts.back();
  if (!last.empty() && std::all_of(last.begin(), last.end(), IsDigit)) return true;
  return Ipv4Number(last).has_value();
}

std::string DottedQuad(std::uint64_t address) {
  return std::to_string((address >> 24) & 0xFF) + "." + std::to_string((address >> 16) & 0xFF) + "." +
         std::to_string((address >> 8) & 0xFF) + "." + std::to_string(address & 0xFF);
}

// The WHATWG IPv4 parser ("127.1", "0x7f.0.0.1", …), as a dotted quad.
std::optional<std::string> ParseIpv4Loose(std::string_view host) {
  std::vector<std::string_view> parts = Split(host, '.');
  if (parts.size() > 1 && parts.back().empty()) parts.pop_back();
  if (parts.size() > 4) return std::nullopt;
  std::uint64_t address = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto number = Ipv4Number(parts[i]);
    if (!number) return std::nullopt;
    if (i + 1 < parts.size()) {
      if (*number > 255) return std::nullopt;
      address |= *number << (8 * (3 - i));
    } else {
      if (*number >= (std::uint64_t{1} << (8 * (5 - parts.size())))) return std::nullopt;
      address |= *number;
    }
  }
  return DottedQuad(address);
}

// Four decimal numbers 0-255 without leading zeros: the only IPv4 form a
// pattern may use ("0177.0.0.1" is 127.0.0.1 to a browser, not 177.0.0.1).
bool IsStrictIpv4(std::string_view host) {
  const std::vector<std::string_view> parts = Split(host, '.');
  if (parts.size() != 4) return false;
  for (std::string_view part : parts) {
    if (part.empty() || part.size() > 3 || !std::all_of(part.begin(), part.end(), IsDigit)) return false;
    if (part.size() > 1 && part[0] == '0') return false;
    if (std::stoi(std::string(part)) > 255) return false;
  }
  return true;
}

// What a URL's host may not contain (WHATWG forbidden domain code points).
bool ForbiddenInUrlHost(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u <= 0x20 || u == 0x7F || std::string_view("#%/:<>?@[\\]^|").find(c) != std::string_view::npos;
}

bool AllowedInPatternHost(char c) { return (c >= 'a' && c <= 'z') || IsDigit(c) || c == '-' || c == '_'; }

}  // namespace

// The host as sites and patterns compare it: lower case, punycode, no trailing
// dot, IPv4 as a dotted quad, IPv6 "[…]" compressed. `strict` (patterns):
// letters, digits, "-" and "_" only, no empty labels, IPv4 in decimal only.
// The error is for patterns; callers parsing URLs only test for one.
std::expected<std::string, std::string> CanonicalHost(std::string_view raw, bool strict) {
  if (raw.starts_with('[')) {
    if (!raw.ends_with(']')) return std::unexpected("an IPv6 address needs its closing \"]\"");
    const auto v6 = CanonicalIpv6(raw.substr(1, raw.size() - 2));
    if (!v6) return std::unexpected("not an IPv6 address");
    // An IPv4-mapped address (::ffff:a.b.c.d) reaches that IPv4 host: it is
    // that site, so a rule on 127.0.0.1 or 169.254.169.254 holds for it too.
    if (auto v4 = MappedIpv4(raw.substr(1, raw.size() - 2))) return *v4;
    return "[" + *v6 + "]";
  }
  if (raw.find_first_of("[]") != std::string_view::npos) return std::unexpected("not a host name");
  const auto chars = DecodeUtf8(raw);
  if (!chars) return std::unexpected("not valid UTF-8");
  std::u32string folded;
  for (char32_t c : *chars) {
    // The full stops of CJK scripts separate labels as "." does (UTS 46).
    if (!strict && c >= 0x80)
      return std::unexpected("an international host name in a URL must be written in punycode (xn--…)");
    folded.push_back(c == 0x3002 || c == 0xFF0E || c == 0xFF61 ? U'.' : FoldCase(c));
  }
  if (!folded.empty() && folded.back() == U'.') folded.pop_back();
  if (folded.empty()) return std::unexpected("no host name");
  std::string host;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = std::min(folded.find(U'.', start), folded.size());
    const std::u32string_view label = std::u32string_view(folded).substr(start, end - start);
    if (strict && label.empty()) return std::unexpected("not a host name (an empty label)");
    if (std::all_of(label.begin(), label.end(), [](char32_t c) { return c < 0x80; })) {
      for (char32_t c : label) {
        const char a = static_cast<char>(c);
        if (strict ? !AllowedInPatternHost(a) : ForbiddenInUrlHost(a)) {
          return std::unexpected("a host name has only letters, digits, \"-\" and \".\"");
        }
        host.push_back(a);
      }
    } else {
      if (strict && std::any_of(label.begin(), label.end(),
                                [](char32_t c) { return c < 0x80 && !AllowedInPatternHost(static_cast<char>(c)); })) {
        return std::unexpected("a host name has only letters, digits, \"-\" and \".\"");
      }
      // A URL's host is compared only as the browser writes it (punycode): UTS 46
      // maps far more than FoldCase does (full-width letters, soft hyphens), so
      // a Unicode host typed into a URL could name another site than it seems.
      if (!strict) return std::unexpected("an international host name in a URL must be written in punycode (xn--…)");
      const auto encoded = Punycode(label);
      if (!encoded) return std::unexpected("not a host name");
      host += "xn--" + *encoded;
    }
    if (end == folded.size()) break;
    host.push_back('.');
    start = end + 1;
  }
  if (EndsInNumber(host)) {
    if (strict) {
      if (!IsStrictIpv4(host))
        return std::unexpected("not an IP address; write four numbers from 0 to 255, e.g. 127.0.0.1");
      return host;
    }
    const auto v4 = ParseIpv4Loose(host);
    if (!v4) return std::unexpected("not an IP address");
    return *v4;
  }
  return host;
}

std::string PercentDecode(std::string_view s) {
  const auto hex = [](char c) -> int {
    if (IsDigit(c)) return c - '0';
    c = Lower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
  };
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

bool IsIpHost(std::string_view host) { return host.starts_with('[') || EndsInNumber(host); }

std::optional<int> ParsePort(std::string_view text) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), IsDigit)) return std::nullopt;
  while (text.size() > 1 && text[0] == '0') text.remove_prefix(1);
  if (text.size() > 5) return std::nullopt;
  const int port = std::stoi(std::string(text));
  if (port < 1 || port > 65535) return std::nullopt;
  return port;
}

}  // namespace tb::host_name
