#include "common/policy.h"

#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace tb::policy {
namespace {

// The example of issue 9 and docs/policy.md.
constexpr std::string_view kExample = R"({"rules": [{"sites": ["*.mybank.com", "mail.google.com"], "deny": ["all"]}, )"
                                      R"({"sites": ["localhost", "127.0.0.1"], "allow": ["eval", "download"]}, )"
                                      R"({"sites": ["*"], "allow": ["read", "act", "navigate"]}]})";

Pattern P(std::string_view text) {
  auto pattern = ParsePattern(text);
  EXPECT_TRUE(pattern.has_value()) << text << ": " << (pattern ? "" : pattern.error());
  return pattern.value_or(Pattern{});
}

std::string PatternError(std::string_view text) {
  const auto pattern = ParsePattern(text);
  EXPECT_FALSE(pattern.has_value()) << text << " parsed";
  return pattern ? "" : pattern.error();
}

Site S(std::string_view url) {
  const auto site = SiteOf(url);
  EXPECT_TRUE(site.has_value()) << url;
  return site.value_or(Site{});
}

bool M(std::string_view pattern, std::string_view url) { return Matches(P(pattern), S(url)); }

Policy FromJson(std::string_view json) {
  Policy policy = Parse(json, "/etc/policy.json");
  EXPECT_EQ(policy.source, Policy::Source::kFile) << policy.error;
  return policy;
}

std::string ParseError(std::string_view json) {
  const Policy policy = Parse(json, "/etc/policy.json");
  EXPECT_EQ(policy.source, Policy::Source::kMalformed) << json;
  return policy.error;
}

// ---- Capabilities -----------------------------------------------------------

TEST(PolicyCap, NamesRoundTrip) {
  for (Cap cap : kAllCaps) EXPECT_EQ(CapFromName(Name(cap)), cap) << Name(cap);
  EXPECT_EQ(Name(Cap::kNavigate), "navigate");
}

TEST(PolicyCap, AllAndUnknownNamesAreNoCapability) {
  EXPECT_EQ(CapFromName("all"), std::nullopt);
  EXPECT_EQ(CapFromName("Read"), std::nullopt);
  EXPECT_EQ(CapFromName(""), std::nullopt);
}

// ---- Patterns ---------------------------------------------------------------

TEST(PolicyPattern, StarIsEverySite) {
  const Pattern p = P("*");
  EXPECT_TRUE(p.any);
  EXPECT_FALSE(p.port);
  EXPECT_EQ(p.host, "");
}

TEST(PolicyPattern, StarTakesAPort) {
  const Pattern p = P("*:8080");
  EXPECT_TRUE(p.any);
  EXPECT_EQ(p.port, 8080);
}

TEST(PolicyPattern, HostIsLowerCasedWithoutTrailingDot) {
  const Pattern p = P("Mail.Google.COM.");
  EXPECT_EQ(p.host, "mail.google.com");
  EXPECT_EQ(p.text, "Mail.Google.COM.");
  EXPECT_FALSE(p.subdomains);
  EXPECT_FALSE(p.any);
}

TEST(PolicyPattern, StarDotIsSubdomainPattern) {
  const Pattern p = P("*.x.com");
  EXPECT_TRUE(p.subdomains);
  EXPECT_EQ(p.host, "x.com");
}

TEST(PolicyPattern, HostTakesAPort) {
  const Pattern p = P("localhost:3000");
  EXPECT_EQ(p.host, "localhost");
  EXPECT_EQ(p.port, 3000);
}

TEST(PolicyPattern, PortMayHaveLeadingZeros) { EXPECT_EQ(P("x.com:08080").port, 8080); }

TEST(PolicyPattern, HighestPortIsValid) { EXPECT_EQ(P("x.com:65535").port, 65535); }

TEST(PolicyPattern, Ipv6InBracketsTakesAPort) {
  const Pattern p = P("[::1]:8080");
  EXPECT_EQ(p.host, "[::1]");
  EXPECT_EQ(p.port, 8080);
}

TEST(PolicyPattern, Ipv6IsWrittenAsBrowsersWriteIt) {
  EXPECT_EQ(P("[0:0:0:0:0:0:0:1]").host, "[::1]");
  EXPECT_EQ(P("[2001:DB8:0:0:1:0:0:1]").host, "[2001:db8::1:0:0:1]");
}

TEST(PolicyPattern, Ipv4IsAnExactHost) {
  const Pattern p = P("127.0.0.1");
  EXPECT_EQ(p.host, "127.0.0.1");
  EXPECT_FALSE(p.subdomains);
}

TEST(PolicyPattern, FileForms) {
  for (const char* text : {"file:", "file://", "file:///", "FILE:"}) {
    const Pattern p = P(text);
    EXPECT_TRUE(p.file) << text;
    EXPECT_EQ(p.host, "") << text;
  }
}

TEST(PolicyPattern, UnicodeHostBecomesPunycode) { EXPECT_EQ(P("bücher.de").host, "xn--bcher-kva.de"); }

TEST(PolicyPattern, UnicodeSubdomainPatternBecomesPunycode) {
  const Pattern p = P("*.münchen.de");
  EXPECT_TRUE(p.subdomains);
  EXPECT_EQ(p.host, "xn--mnchen-3ya.de");
}

TEST(PolicyPattern, UpperCaseUnicodeIsLowerCasedFirst) { EXPECT_EQ(P("MÜNCHEN.DE").host, "xn--mnchen-3ya.de"); }

TEST(PolicyPattern, PunycodeAsWrittenIsKept) { EXPECT_EQ(P("XN--BCHER-KVA.de").host, "xn--bcher-kva.de"); }

// RFC 3492 §7.1 samples (A), (B) and (L) (the latter lower-cased, as hosts are).
TEST(PolicyPattern, PunycodeRfc3492SampleArabic) {
  EXPECT_EQ(
      P("\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064A\u061F").host,
      "xn--egbpdaj6bu4bxfgehfvwxn");
}

TEST(PolicyPattern, PunycodeRfc3492SampleChinese) {
  EXPECT_EQ(P("\u4ED6\u4EEC\u4E3A\u4EC0\u4E48\u4E0D\u8BF4\u4E2D\u6587").host, "xn--ihqwcrb4cv8a8dqg056pqjye");
}

TEST(PolicyPattern, PunycodeRfc3492SampleMixedWithAscii) {
  EXPECT_EQ(P("3\u5E74B\u7D44\u91D1\u516B\u5148\u751F").host, "xn--3b-ww4c5e180e575a65lsy2b");
}

TEST(PolicyPattern, RejectsEmpty) {
  EXPECT_EQ(PatternError(""), R"("": empty; write *, a host name like x.com, *.x.com or file:)");
}

TEST(PolicyPattern, RejectsSpaces) {
  EXPECT_EQ(PatternError("x .com"), R"("x .com": no spaces or control characters in a site pattern)");
  EXPECT_EQ(PatternError(" x.com"), R"(" x.com": no spaces or control characters in a site pattern)");
}

TEST(PolicyPattern, RejectsAUrlAndNamesItsHost) {
  EXPECT_EQ(PatternError("https://x.com"), R"("https://x.com": write the host name, e.g. x.com)");
  EXPECT_EQ(PatternError("http://me@localhost:3000/app"),
            R"("http://me@localhost:3000/app": write the host name, e.g. localhost:3000)");
}

TEST(PolicyPattern, RejectsAFileUrlWithAPath) {
  EXPECT_EQ(PatternError("file:///home/me"),
            R"("file:///home/me": file: stands for every local file and takes no host or path; write file:)");
}

TEST(PolicyPattern, RejectsStarInTheMiddle) {
  for (const char* text : {"a*.com", "x.*.com", "*x.com", "x.com*", "**.x.com", "*.*"}) {
    EXPECT_EQ(PatternError(text), "\"" + std::string(text) + "\": \"*\" goes alone or at the start, as in *.x.com");
  }
}

TEST(PolicyPattern, RejectsBadPorts) {
  for (const char* text : {"x.com:0", "x.com:65536", "x.com:http", "x.com:", "x.com:-1", "*:99999999999"}) {
    EXPECT_EQ(PatternError(text), "\"" + std::string(text) + "\": the port must be a number from 1 to 65535");
  }
}

TEST(PolicyPattern, RejectsAPath) {
  EXPECT_EQ(PatternError("x.com/foo"), R"("x.com/foo": a site pattern has no path; write x.com)");
  EXPECT_EQ(PatternError("x.com?a=1"), R"("x.com?a=1": a site pattern has no path; write x.com)");
}

TEST(PolicyPattern, RejectsAUserName) {
  EXPECT_EQ(PatternError("me@x.com"), R"("me@x.com": a site pattern has no user name; write x.com)");
}

TEST(PolicyPattern, RejectsIpv6WithoutBrackets) {
  EXPECT_EQ(PatternError("::1"), R"("::1": an IPv6 address goes in brackets, e.g. [::1] or [::1]:8080)");
}

TEST(PolicyPattern, RejectsTwoPorts) {
  EXPECT_EQ(PatternError("x.com:80:90"), R"("x.com:80:90": one ":port" at most)");
}

TEST(PolicyPattern, RejectsInvalidIpv6) {
  EXPECT_EQ(PatternError("[::g]"), R"("[::g]": not an IPv6 address)");
  EXPECT_EQ(PatternError("[::1"), R"("[::1": an IPv6 address needs its closing "]")");
  EXPECT_EQ(PatternError("[::1]80"), R"("[::1]80": only ":port" may follow "]")");
}

TEST(PolicyPattern, RejectsSubdomainsOfAnIpAddress) {
  EXPECT_EQ(PatternError("*.127.0.0.1"), R"("*.127.0.0.1": an IP address has no subdomains; write 127.0.0.1)");
  EXPECT_EQ(PatternError("*.[::1]"), R"("*.[::1]": an IP address has no subdomains; write [::1])");
}

TEST(PolicyPattern, RejectsIpv4NotInFourDecimals) {
  // A browser reads 0177.0.0.1 as 127.0.0.1 (octal): a pattern must not be ambiguous.
  for (const char* text : {"0177.0.0.1", "127.1", "256.0.0.1", "0x7f.0.0.1", "1.2.3.4.5"}) {
    EXPECT_EQ(PatternError(text),
              "\"" + std::string(text) + "\": not an IP address; write four numbers from 0 to 255, e.g. 127.0.0.1");
  }
}

TEST(PolicyPattern, RejectsEmptyLabels) {
  EXPECT_EQ(PatternError("a..com"), R"("a..com": not a host name (an empty label))");
  EXPECT_EQ(PatternError("*..x.com"), R"("*..x.com": not a host name (an empty label))");
  EXPECT_EQ(PatternError("."), R"(".": no host name)");
  EXPECT_EQ(PatternError("*."), R"("*.": no host name)");
}

TEST(PolicyPattern, RejectsLeadingDotWithAHint) {
  EXPECT_EQ(PatternError(".x.com"), R"(".x.com": write *.x.com for x.com and its subdomains)");
}

TEST(PolicyPattern, RejectsOtherCharacters) {
  EXPECT_EQ(PatternError("x!.com"), R"("x!.com": a host name has only letters, digits, "-" and ".")");
}

TEST(PolicyPattern, RejectsAPortWithoutHost) {
  EXPECT_EQ(PatternError(":8080"), R"(":8080": no host before the port; write *:8080 for every site on that port)");
}

TEST(PolicyPattern, RejectsInvalidUtf8) {
  EXPECT_EQ(PatternError("b\xFC"
                         "cher.de"),
            "\"b\xEF\xBF\xBD"
            "cher.de\": not valid UTF-8");
}

// ---- Sites of URLs ----------------------------------------------------------

TEST(PolicySite, HttpsHasItsDefaultPort) {
  const Site site = S("https://mail.google.com/mail/u/0/#inbox");
  EXPECT_EQ(site.scheme, "https");
  EXPECT_EQ(site.host, "mail.google.com");
  EXPECT_EQ(site.port, 443);
  EXPECT_EQ(site.Describe(), "mail.google.com");
}

TEST(PolicySite, DefaultPortsOfEachScheme) {
  EXPECT_EQ(S("http://x.com/").port, 80);
  EXPECT_EQ(S("https://x.com/").port, 443);
  EXPECT_EQ(S("ws://x.com/").port, 80);
  EXPECT_EQ(S("wss://x.com/").port, 443);
}

TEST(PolicySite, ExplicitPortIsDescribed) {
  const Site site = S("http://localhost:8080/app?x=1");
  EXPECT_EQ(site.host, "localhost");
  EXPECT_EQ(site.port, 8080);
  EXPECT_EQ(site.Describe(), "localhost:8080");
}

TEST(PolicySite, ExplicitDefaultPortIsNotDescribed) {
  const Site site = S("https://x.com:443/");
  EXPECT_EQ(site.port, 443);
  EXPECT_EQ(site.Describe(), "x.com");
}

TEST(PolicySite, SchemeAndHostAreLowerCasedWithoutTrailingDot) {
  const Site site = S("HTTPS://Mail.Google.COM./x");
  EXPECT_EQ(site.scheme, "https");
  EXPECT_EQ(site.host, "mail.google.com");
}

TEST(PolicySite, UserInfoIsNotTheHost) {
  EXPECT_EQ(S("https://user:pw@x.com:8443/").host, "x.com");
  EXPECT_EQ(S("https://mail.google.com@evil.com/").host, "evil.com");
}

TEST(PolicySite, Ipv6HostIsBracketedAndCompressed) {
  const Site site = S("http://[0:0:0:0:0:0:0:1]:9000/");
  EXPECT_EQ(site.host, "[::1]");
  EXPECT_EQ(site.port, 9000);
  EXPECT_EQ(site.Describe(), "[::1]:9000");
}

TEST(PolicySite, Ipv4InAnyBrowserFormIsADottedQuad) {
  EXPECT_EQ(S("http://0x7f.1/").host, "127.0.0.1");
  EXPECT_EQ(S("http://2130706433/").host, "127.0.0.1");
  EXPECT_EQ(S("http://127.0.0.1./").host, "127.0.0.1");
}

TEST(PolicySite, PercentEscapesInTheHostAreDecoded) {
  EXPECT_EQ(S("https://%6Dail.google.com/").host, "mail.google.com");
}

// Browsers write tab URLs in punycode; a Unicode host (typed by the model into
// open_tab) would go through UTS 46 mapping we do not copy, so it has no site.
TEST(PolicySite, UnicodeHostInAUrlHasNoSite) {
  EXPECT_FALSE(SiteOf("https://bücher.de/").has_value());
  EXPECT_FALSE(SiteOf("https://ｍｙｂａｎｋ．ｃｏｍ/").has_value());  // full-width: mybank.com to a browser
  EXPECT_FALSE(SiteOf("https://my\u00adbank.com/").has_value());      // a soft hyphen vanishes in a browser
}

TEST(PolicyDecide, AWebUrlWhoseHostCannotBeReadIsDenied) {
  const Policy p =
      FromJson(R"({"rules": [{"sites": ["mybank.com"], "deny": ["all"]}, {"sites": ["*"], "allow": ["all"]}]})");
  const Decision d = Decide(p, Cap::kNavigate, "https://ｍｙｂａｎｋ．ｃｏｍ/");
  EXPECT_FALSE(d.allowed);
  EXPECT_NE(d.reason.find("punycode"), std::string::npos) << d.reason;
  EXPECT_TRUE(Decide(p, Cap::kNavigate, "about:blank").allowed);  // hostless pages are still "*"'s
}

TEST(PolicySite, FileUrlIsTheFileSite) {
  const Site site = S("file:///home/me/a.html");
  EXPECT_EQ(site.scheme, "file");
  EXPECT_EQ(site.host, "");
  EXPECT_EQ(site.port, -1);
  EXPECT_EQ(site.Describe(), "file:");
}

TEST(PolicySite, AboutBlankHasNoHost) {
  const Site site = S("about:blank");
  EXPECT_EQ(site.scheme, "about");
  EXPECT_EQ(site.host, "");
  EXPECT_EQ(site.port, -1);
  EXPECT_EQ(site.Describe(), "about:blank");
}

TEST(PolicySite, ChromePageIsDescribedShort) {
  EXPECT_EQ(S("chrome://settings/?search=x").Describe(), "chrome://settings");
}

TEST(PolicySite, DataUrlIsNotQuoted) { EXPECT_EQ(S("data:text/html,<p>secret</p>").Describe(), "data: URL"); }

TEST(PolicySite, LongHostlessUrlIsCut) {
  const std::string description = S("chrome-extension://" + std::string(200, 'a') + "/page.html").Describe();
  EXPECT_LE(description.size(), 60u);
  EXPECT_TRUE(description.starts_with("chrome-extension://aaaa")) << description;
  EXPECT_TRUE(description.ends_with("…")) << description;
}

TEST(PolicySite, BlobUrlIsTheSiteOfItsOrigin) {
  const Site site = S("blob:https://x.com/0b1e5b2c-0000-4000-8000-000000000000");
  EXPECT_EQ(site.scheme, "https");
  EXPECT_EQ(site.host, "x.com");
  EXPECT_EQ(site.port, 443);
}

TEST(PolicySite, FilesystemUrlIsTheSiteOfItsOrigin) {
  EXPECT_EQ(S("filesystem:http://localhost:8000/temporary/a.txt").Describe(), "localhost:8000");
}

TEST(PolicySite, BlobOfAnOpaqueOriginHasNoHost) {
  const Site site = S("blob:null/0b1e5b2c");
  EXPECT_EQ(site.scheme, "blob");
  EXPECT_EQ(site.host, "");
  EXPECT_EQ(site.Describe(), "blob: URL");
}

TEST(PolicySite, SlashesBeforeTheHostAreSkippedAsBrowsersDo) {
  EXPECT_EQ(S("https:///x.com/a").host, "x.com");
  EXPECT_EQ(S("https:x.com").host, "x.com");
  EXPECT_EQ(S("https:\\\\x.com\\a").host, "x.com");
}

TEST(PolicySite, SurroundingWhitespaceIsIgnored) { EXPECT_EQ(S("  https://x.com/\n").host, "x.com"); }

TEST(PolicySite, NoSchemeIsNoUrl) {
  for (const char* url : {"", "x.com", "not a url", "//x.com/", "/path", "1http://x.com"}) {
    EXPECT_EQ(SiteOf(url), std::nullopt) << url;
  }
}

TEST(PolicySite, HttpWithoutHostIsNoUrl) {
  for (const char* url : {"http://", "https://?q", "http://#top", "http://:80/", "http://user@/"}) {
    EXPECT_EQ(SiteOf(url), std::nullopt) << url;
  }
}

TEST(PolicySite, InvalidPortOrHostIsNoUrl) {
  for (const char* url : {"http://x.com:99999/", "http://x.com:8a/", "http://[::1/", "http://[::g]/",
                          "http://a%zz.com/", "http://a b.com/", "http://256.0.0.1/"}) {
    EXPECT_EQ(SiteOf(url), std::nullopt) << url;
  }
}

// ---- Matching ---------------------------------------------------------------

TEST(PolicyMatch, StarMatchesEverySiteButLocalFiles) {
  EXPECT_TRUE(M("*", "https://x.com/"));
  EXPECT_TRUE(M("*", "http://localhost:8080/"));
  EXPECT_FALSE(M("*", "file:///tmp/a.html"));
  EXPECT_TRUE(M("*", "about:blank"));
  EXPECT_TRUE(Matches(P("*"), Site{}));
}

TEST(PolicyMatch, StarWithPortMatchesThatPortOnly) {
  EXPECT_TRUE(M("*:8080", "http://localhost:8080/"));
  EXPECT_TRUE(M("*:8080", "https://x.com:8080/"));
  EXPECT_FALSE(M("*:8080", "http://localhost/"));
}

TEST(PolicyMatch, StarWithPortMatchesNoHostlessSite) {
  EXPECT_FALSE(M("*:8080", "about:blank"));
  EXPECT_FALSE(M("*:8080", "file:///tmp/a.html"));
}

TEST(PolicyMatch, ExactHostMatchesOnlyItself) {
  EXPECT_TRUE(M("x.com", "https://x.com/a"));
  EXPECT_TRUE(M("x.com", "http://x.com:8080/"));
  EXPECT_FALSE(M("x.com", "https://www.x.com/"));
  EXPECT_FALSE(M("x.com", "https://y.com/"));
}

TEST(PolicyMatch, SubdomainPatternMatchesApex) { EXPECT_TRUE(M("*.mybank.com", "https://mybank.com/")); }

TEST(PolicyMatch, SubdomainPatternMatchesDeepSubdomains) {
  EXPECT_TRUE(M("*.mybank.com", "https://www.mybank.com/"));
  EXPECT_TRUE(M("*.mybank.com", "https://a.b.mybank.com/"));
}

TEST(PolicyMatch, SubdomainPatternDoesNotMatchLookalikes) {
  EXPECT_FALSE(M("*.mybank.com", "https://notmybank.com/"));
  EXPECT_FALSE(M("*.mybank.com", "https://mybank.com.evil.com/"));
  EXPECT_FALSE(M("*.mybank.com", "https://mybank.co/"));
}

TEST(PolicyMatch, ExplicitPortMatchesTheSchemesDefault) {
  EXPECT_TRUE(M("x.com:443", "https://x.com/"));
  EXPECT_FALSE(M("x.com:443", "http://x.com/"));
  EXPECT_TRUE(M("x.com:80", "http://x.com/"));
}

TEST(PolicyMatch, PortPatternRefusesOtherPorts) {
  EXPECT_TRUE(M("localhost:3000", "http://localhost:3000/"));
  EXPECT_FALSE(M("localhost:3000", "http://localhost:3001/"));
  EXPECT_FALSE(M("localhost:3000", "http://localhost/"));
}

TEST(PolicyMatch, SubdomainPatternWithPort) {
  EXPECT_TRUE(M("*.x.com:8443", "https://a.x.com:8443/"));
  EXPECT_FALSE(M("*.x.com:8443", "https://a.x.com/"));
}

TEST(PolicyMatch, UnicodePatternMatchesPunycodeUrl) {
  EXPECT_TRUE(M("bücher.de", "https://xn--bcher-kva.de/"));
  EXPECT_TRUE(M("*.münchen.de", "https://www.xn--mnchen-3ya.de/"));
}

TEST(PolicyMatch, UnicodePatternDoesNotMatchItsAsciiLookalike) { EXPECT_FALSE(M("bücher.de", "https://bucher.de/")); }

TEST(PolicyMatch, Ipv6Pattern) {
  EXPECT_TRUE(M("[::1]", "http://[::1]:9000/"));
  EXPECT_TRUE(M("[::1]:9000", "http://[0::1]:9000/"));
  EXPECT_FALSE(M("[::1]:9000", "http://[::1]/"));
  EXPECT_FALSE(M("[::1]", "http://[::2]/"));
}

TEST(PolicyMatch, Ipv4PatternMatchesTheAddressInAnyForm) {
  EXPECT_TRUE(M("127.0.0.1", "http://127.0.0.1:8000/"));
  EXPECT_TRUE(M("127.0.0.1", "http://127.1/"));
  EXPECT_FALSE(M("127.0.0.1", "http://localhost/"));
}

// Issue 44: an alias of the loopback (127.0.0.2, 0.0.0.0, app.localhost)
// widens a deny, never an allow — an "Always" for 127.0.0.1:8000 is that
// address and port, not another program on 127.0.0.2:8000.
TEST(PolicyDecide, LoopbackAliasesWidenADenyNotAnAllow) {
  const Policy allow =
      FromJson(R"({"default": "ask", "rules": [{"sites": ["127.0.0.1:8000", "localhost:3000"], "allow": ["all"]}]})");
  EXPECT_TRUE(Decide(allow, Cap::kRead, "http://127.0.0.1:8000/").allowed);
  EXPECT_TRUE(Decide(allow, Cap::kRead, "http://127.1:8000/").allowed) << "the same address, spelt otherwise";
  for (const char* url : {"http://127.0.0.2:8000/", "http://0.0.0.0:8000/", "http://app.localhost:3000/"}) {
    const Decision d = Decide(allow, Cap::kRead, url);
    EXPECT_FALSE(d.allowed) << url;
    EXPECT_TRUE(d.ask) << url << ": " << d.reason;
  }
  const Policy deny =
      FromJson(R"({"default": "allow", "rules": [{"sites": ["127.0.0.1", "localhost"], "deny": ["all"]}]})");
  for (const char* url : {"http://127.0.0.2:8000/", "http://0.0.0.0/", "http://app.localhost:3000/"}) {
    EXPECT_FALSE(Decide(deny, Cap::kRead, url).allowed) << url;
  }
}

TEST(PolicyMatch, FilePatternMatchesFileUrlsOnly) {
  EXPECT_TRUE(M("file:", "file:///home/me/a.html"));
  EXPECT_TRUE(M("file://", "file://server/share/a.html"));
  EXPECT_FALSE(M("file:", "https://x.com/"));
  EXPECT_FALSE(M("file:", "about:blank"));
}

TEST(PolicyMatch, HostPatternMatchesNoHostlessSite) {
  EXPECT_FALSE(M("localhost", "file:///localhost"));
  EXPECT_FALSE(M("blank", "about:blank"));
  EXPECT_FALSE(M("settings", "chrome://settings/"));
}

TEST(PolicyMatch, BlobUrlMatchesAsItsOrigin) {
  EXPECT_TRUE(M("*.mybank.com", "blob:https://www.mybank.com/0b1e5b2c"));
  EXPECT_FALSE(M("*.mybank.com", "blob:null/0b1e5b2c"));
}

// ---- Parsing ----------------------------------------------------------------

TEST(PolicyParse, TheExampleFile) {
  const Policy policy = FromJson(kExample);
  EXPECT_EQ(policy.path, "/etc/policy.json");
  EXPECT_EQ(policy.fallback, Default::kAllow);
  ASSERT_EQ(policy.rules.size(), 3u);
  EXPECT_EQ(policy.rules[0].sites.size(), 2u);
  EXPECT_EQ(policy.rules[0].deny.size(), 5u);
  EXPECT_TRUE(policy.rules[0].allow.empty());
  EXPECT_EQ(policy.rules[0].deny_text, std::vector<std::string>{"all"});
  EXPECT_EQ(policy.rules[1].allow, (std::vector<Cap>{Cap::kEval, Cap::kDownload}));
  EXPECT_EQ(policy.rules[2].allow, (std::vector<Cap>{Cap::kRead, Cap::kAct, Cap::kNavigate}));
}

TEST(PolicyParse, DefaultDeny) { EXPECT_EQ(FromJson(R"({"default": "deny", "rules": []})").fallback, Default::kDeny); }

TEST(PolicyParse, DefaultAllowWritten) { EXPECT_EQ(FromJson(R"({"default": "allow"})").fallback, Default::kAllow); }

TEST(PolicyParse, DefaultAsk) { EXPECT_EQ(FromJson(R"({"default": "ask"})").fallback, Default::kAsk); }

TEST(PolicyParse, EmptyObjectHasNoRules) { EXPECT_TRUE(FromJson("{}").rules.empty()); }

TEST(PolicyParse, AllIsEveryCapabilityOnce) {
  const Policy policy = FromJson(R"({"rules": [{"sites": ["*"], "allow": ["read", "all", "eval"]}]})");
  ASSERT_EQ(policy.rules.size(), 1u);
  EXPECT_EQ(policy.rules[0].allow.size(), 5u);
  EXPECT_EQ(policy.rules[0].allow_text, (std::vector<std::string>{"read", "all", "eval"}));
}

TEST(PolicyParse, NotJsonSaysWhere) {
  const std::string error = ParseError("{\"rules\": [\n  {\"sites\": [\"x.com\"],, }\n]}");
  EXPECT_TRUE(error.starts_with("not JSON: syntax error")) << error;
  EXPECT_TRUE(error.ends_with("at line 2, column 23 (byte 35)")) << error;
}

TEST(PolicyParse, NotJsonAtTheEnd) {
  const std::string error = ParseError("{\"rules\": [");
  EXPECT_TRUE(error.starts_with("not JSON: syntax error")) << error;
  EXPECT_TRUE(error.ends_with("at line 1, column 12 (byte 12)")) << error;
}

TEST(PolicyParse, EmptyFile) { EXPECT_EQ(ParseError(" \n"), "not JSON: the file is empty"); }

TEST(PolicyParse, TopLevelMustBeAnObject) {
  EXPECT_EQ(ParseError("[]"), R"(the top level must be an object like {"rules": [...]}, not a list)");
}

TEST(PolicyParse, UnknownTopLevelKey) {
  EXPECT_EQ(ParseError(R"({"rule": []})"), R"(unknown key "rule" (expected "default" or "rules"))");
}

TEST(PolicyParse, DefaultMustBeAllowDenyOrAsk) {
  EXPECT_EQ(ParseError(R"({"default": "block"})"), R"("default" must be "allow", "deny" or "ask", not "block")");
  EXPECT_EQ(ParseError(R"({"default": false})"), R"("default" must be "allow", "deny" or "ask", not false)");
}

TEST(PolicyParse, RulesMustBeAList) {
  EXPECT_EQ(ParseError(R"({"rules": {"sites": ["*"]}})"), R"("rules" must be a list of rules, not an object)");
}

TEST(PolicyParse, RuleMustBeAnObject) {
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": ["*"], "allow": ["read"]}, "x.com"]})"),
            R"(rule 2: must be an object like {"sites": ["x.com"], "deny": ["all"]}, not a string)");
}

TEST(PolicyParse, UnknownRuleKeyIsATypo) {
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": ["*"], "deny": ["eval"]}, {"sites": ["*"], "alow": ["read"]}]})"),
            R"(rule 2: unknown key "alow" (expected "sites", "allow" or "deny"))");
}

TEST(PolicyParse, SitesMissing) {
  EXPECT_EQ(ParseError(R"({"rules": [{"allow": ["read"]}]})"),
            R"(rule 1: "sites" is missing (a list of site patterns, e.g. ["x.com", "*.x.com"]))");
}

TEST(PolicyParse, SitesMustBeAList) {
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": "x.com", "allow": ["read"]}]})"),
            R"(rule 1: "sites" must be a list of site patterns, e.g. ["x.com"], not a string)");
}

TEST(PolicyParse, SitesEmpty) {
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": [], "allow": ["read"]}]})"),
            R"(rule 1: "sites" is empty; list at least one site pattern)");
}

TEST(PolicyParse, SiteMustBeAString) {
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": ["x.com", 443], "allow": ["read"]}]})"),
            R"(rule 1: sites[1] must be a string, not a number)");
}

TEST(PolicyParse, InvalidPatternNamesRuleAndIndex) {
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": ["https://x.com"], "deny": ["all"]}]})"),
            R"(rule 1: sites[0] "https://x.com": write the host name, e.g. x.com)");
}

TEST(PolicyParse, UnknownCapability) {
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": ["*"], "deny": ["eval"]}, {"sites": ["*"], "allow": ["reed"]}]})"),
            R"(rule 2: unknown capability "reed" (expected read, act, navigate, eval, download or all))");
}

TEST(PolicyParse, CapabilitiesMustBeAList) {
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": ["*"], "deny": "all"}]})"),
            R"(rule 1: "deny" must be a list of capabilities, e.g. ["read"], not a string)");
}

TEST(PolicyParse, CapabilityMustBeAString) {
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": ["*"], "allow": ["read", null]}]})"),
            R"(rule 1: allow[1] must be a string, not null)");
}

TEST(PolicyParse, CapabilityListEmpty) {
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": ["*"], "allow": []}]})"),
            R"(rule 1: "allow" is empty; list capabilities or leave it out)");
}

TEST(PolicyParse, RuleNeedsAllowOrDeny) {
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": ["*"]}]})"), R"(rule 1: has neither "allow" nor "deny")");
}

TEST(PolicyParse, DuplicateKeyInARule) {
  // nlohmann would keep the last "deny" and drop the first, silently.
  EXPECT_EQ(ParseError(R"({"rules": [{"sites": ["*"], "allow": ["read"]}, )"
                       R"({"sites": ["x.com"], "deny": ["all"], "deny": ["eval"]}]})"),
            R"(rule 2: duplicate key "deny")");
}

TEST(PolicyParse, DuplicateTopLevelKey) {
  EXPECT_EQ(ParseError(R"({"rules": [], "default": "deny", "default": "allow"})"), R"(duplicate key "default")");
}

TEST(PolicyParse, MalformedHasNoRules) {
  const Policy policy = Parse(R"({"rules": [{"sites": ["*"], "allow": ["all"]}, {"sites": ["x"]}]})", "/p.json");
  EXPECT_EQ(policy.source, Policy::Source::kMalformed);
  EXPECT_TRUE(policy.rules.empty());
  EXPECT_EQ(policy.path, "/p.json");
}

TEST(PolicyParse, DeepNestingIsMalformedNotACrash) {
  const std::string deep = R"({"x": )" + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_EQ(ParseError(deep), R"(unknown key "x" (expected "default" or "rules"))");
}

// ---- Rule descriptions ------------------------------------------------------

TEST(PolicyRule, DescribesDeny) {
  EXPECT_EQ(FromJson(kExample).rules[0].Describe(), "sites *.mybank.com, mail.google.com; deny all");
}

TEST(PolicyRule, DescribesAllow) {
  EXPECT_EQ(FromJson(kExample).rules[1].Describe(), "sites localhost, 127.0.0.1; allow eval, download");
}

TEST(PolicyRule, DescribesAllowThenDeny) {
  const Policy policy = FromJson(R"({"rules": [{"deny": ["act"], "sites": ["x.com"], "allow": ["read"]}]})");
  EXPECT_EQ(policy.rules[0].Describe(), "sites x.com; allow read; deny act");
}

TEST(PolicyRule, DescribesARuleBuiltInCode) {
  Rule rule;
  rule.sites.push_back(P("x.com"));
  rule.deny = {Cap::kEval, Cap::kDownload};
  EXPECT_EQ(rule.Describe(), "sites x.com; deny eval, download");
}

// ---- Decisions --------------------------------------------------------------

TEST(PolicyDecide, NoFileAsksEveryCapabilityOnAWebSite) {
  Policy policy;
  policy.fallback = Default::kAsk;  // what Load makes of a missing file
  for (Cap cap : kAllCaps) {
    const Decision d = Decide(policy, cap, "https://mail.google.com/");
    EXPECT_FALSE(d.allowed);
    EXPECT_TRUE(d.ask);
    EXPECT_EQ(d.reason, "there is no policy file, so the person decides");
  }
}

TEST(PolicyDecide, NoFileDeniesLocalFilesAndAllowsPagesWithoutAHost) {
  Policy policy;
  policy.fallback = Default::kAsk;
  const Decision file = Decide(policy, Cap::kRead, "file:///home/u/.ssh/id_rsa");
  EXPECT_FALSE(file.allowed);
  EXPECT_FALSE(file.ask);
  EXPECT_TRUE(Decide(policy, Cap::kRead, "about:blank").allowed);
}

TEST(PolicyDecide, DefaultAskAsksWhatMatchingRulesLeaveOpen) {
  const Policy policy = FromJson(
      R"({"default": "ask", "rules": [{"sites": ["x.com"], "allow": ["read"]}, {"sites": ["*.bank.com"], "deny": ["act"]}]})");
  EXPECT_TRUE(Decide(policy, Cap::kRead, "https://x.com/").allowed);
  const Decision act = Decide(policy, Cap::kAct, "https://x.com/");
  EXPECT_TRUE(act.ask);
  EXPECT_EQ(act.reason, "no rule decides act there and the default is ask");
  EXPECT_TRUE(Decide(policy, Cap::kRead, "https://y.com/").ask);
  const Decision denied = Decide(policy, Cap::kAct, "https://my.bank.com/");
  EXPECT_FALSE(denied.ask) << "a rule's deny is final";
  EXPECT_TRUE(Decide(policy, Cap::kRead, "https://my.bank.com/").ask);
}

TEST(PolicyDecide, AFileWithoutDefaultStillAllowsWhatNoRuleMatches) {
  const Policy policy = FromJson(R"({"rules": [{"sites": ["x.com"], "allow": ["read"]}]})");
  EXPECT_TRUE(Decide(policy, Cap::kAct, "https://y.com/").allowed);
  EXPECT_FALSE(Decide(policy, Cap::kAct, "https://x.com/").ask) << "rule 3 of the old meaning: denied";
}

TEST(PolicyDecide, NoFileForHostTestsAllowsEverything) {
  const Policy policy;
  for (Cap cap : kAllCaps) {
    const Decision d = Decide(policy, cap, "https://mail.google.com/");
    EXPECT_TRUE(d.allowed);
    EXPECT_EQ(d.rule, std::nullopt);
    EXPECT_EQ(d.reason, "no policy file");
  }
}

TEST(PolicyDecide, MalformedFileDeniesEverything) {
  const Policy policy = Parse(R"({"rules": [{"sites": ["*"], "allow": ["reed"]}]})", "/p.json");
  for (Cap cap : kAllCaps) {
    for (const char* url : {"https://x.com/", "about:blank", ""}) {
      const Decision d = Decide(policy, cap, url);
      EXPECT_FALSE(d.allowed) << url;
      EXPECT_EQ(d.rule, std::nullopt);
      EXPECT_EQ(
          d.reason,
          "the policy file is malformed (rule 1: unknown capability \"reed\" (expected read, act, navigate, eval, "
          "download or all)) — everything is denied until it is fixed");
    }
  }
}

TEST(PolicyDecide, DenyWinsOverAnEarlierAllow) {
  const Policy policy =
      FromJson(R"({"rules": [{"sites": ["*"], "allow": ["all"]}, {"sites": ["*.x.com"], "deny": ["eval"]}]})");
  const Decision d = Decide(policy, Cap::kEval, "https://a.x.com/");
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.rule, 1u);
  EXPECT_EQ(d.reason, "rule 2 (sites *.x.com; deny eval)");
}

TEST(PolicyDecide, DenyInTheSameRuleWinsOverItsAllow) {
  const Policy policy = FromJson(R"({"rules": [{"sites": ["x.com"], "allow": ["all"], "deny": ["download"]}]})");
  EXPECT_FALSE(Decide(policy, Cap::kDownload, "https://x.com/").allowed);
  EXPECT_TRUE(Decide(policy, Cap::kEval, "https://x.com/").allowed);
}

TEST(PolicyDecide, FirstAllowingRuleIsNamed) {
  const Decision d = Decide(FromJson(kExample), Cap::kEval, "http://localhost:8000/");
  EXPECT_TRUE(d.allowed);
  EXPECT_EQ(d.rule, 1u);
  EXPECT_EQ(d.reason, "rule 2 (sites localhost, 127.0.0.1; allow eval, download)");
}

TEST(PolicyDecide, CapabilityNoMatchingRuleAllowsIsDenied) {
  const Decision d = Decide(FromJson(kExample), Cap::kEval, "https://example.com/");
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.rule, std::nullopt);
  EXPECT_EQ(d.reason, "no rule allows eval there (rule 3 matches)");
}

TEST(PolicyDecide, SeveralMatchingRulesAreListed) {
  const Policy policy =
      FromJson(R"({"rules": [{"sites": ["x.com"], "allow": ["read"]}, {"sites": ["y.com"], "allow": ["act"]}, )"
               R"({"sites": ["*.x.com"], "allow": ["act"]}]})");
  EXPECT_EQ(Decide(policy, Cap::kEval, "https://x.com/").reason, "no rule allows eval there (rules 1, 3 match)");
}

TEST(PolicyDecide, UnmatchedSiteIsAllowedByDefault) {
  const Policy policy = FromJson(R"({"rules": [{"sites": ["x.com"], "deny": ["all"]}]})");
  const Decision d = Decide(policy, Cap::kEval, "https://y.com/");
  EXPECT_TRUE(d.allowed);
  EXPECT_EQ(d.rule, std::nullopt);
  EXPECT_EQ(d.reason, "no rule matches it (default allow)");
}

TEST(PolicyDecide, UnmatchedSiteIsDeniedWithDefaultDeny) {
  const Policy policy = FromJson(R"({"default": "deny", "rules": [{"sites": ["x.com"], "allow": ["all"]}]})");
  const Decision d = Decide(policy, Cap::kRead, "https://y.com/");
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.rule, std::nullopt);
  EXPECT_EQ(d.reason, "no rule matches it and the default is deny");
  EXPECT_TRUE(Decide(policy, Cap::kRead, "https://x.com/").allowed);
}

TEST(PolicyDecide, AllDeniesEveryCapability) {
  const Policy policy = FromJson(kExample);
  for (Cap cap : kAllCaps) {
    const Decision d = Decide(policy, cap, "https://www.mybank.com/account");
    EXPECT_FALSE(d.allowed) << Name(cap);
    EXPECT_EQ(d.rule, 0u) << Name(cap);
  }
}

TEST(PolicyDecide, ExampleFileReadsEverywhereButTheBank) {
  const Policy policy = FromJson(kExample);
  EXPECT_TRUE(Decide(policy, Cap::kRead, "https://example.com/").allowed);
  EXPECT_TRUE(Decide(policy, Cap::kRead, "http://localhost:8000/").allowed);
  EXPECT_TRUE(Decide(policy, Cap::kDownload, "http://127.0.0.1:8000/").allowed);
  EXPECT_FALSE(Decide(policy, Cap::kRead, "https://mail.google.com/").allowed);
}

TEST(PolicyDecide, HostlessSiteIsMatchedByStarOnly) {
  const Policy policy = FromJson(R"({"default": "deny", "rules": [{"sites": ["x.com"], "allow": ["all"]}]})");
  EXPECT_FALSE(Decide(policy, Cap::kRead, "about:blank").allowed);
  EXPECT_TRUE(Decide(FromJson(kExample), Cap::kRead, "about:blank").allowed);
}

TEST(PolicyDecide, FileUrlsByFilePattern) {
  const Policy policy =
      FromJson(R"({"rules": [{"sites": ["file:"], "deny": ["read"]}, {"sites": ["*"], "allow": ["all"]}]})");
  EXPECT_FALSE(Decide(policy, Cap::kRead, "file:///etc/passwd").allowed);
  EXPECT_TRUE(Decide(policy, Cap::kRead, "https://x.com/").allowed);
}

// Issue 17: with 127.0.0.1 denied, the other spellings of loopback reached it.
TEST(PolicySites, AnIpv4MappedIpv6AddressIsItsIpv4Site) {
  EXPECT_EQ(S("http://[::ffff:127.0.0.1]:8080/").host, "127.0.0.1");
  EXPECT_EQ(S("http://[::ffff:7f00:1]/").host, "127.0.0.1");
  EXPECT_EQ(S("http://[::FFFF:a9fe:a9fe]/latest/meta-data").host, "169.254.169.254");
  EXPECT_EQ(S("http://[::1]/").host, "[::1]");  // loopback IPv6 stays itself
  EXPECT_EQ(S("http://[2001:db8::1]/").host, "[2001:db8::1]");
}

TEST(PolicyDecide, LoopbackAliasesAreDecidedAsTheLoopbackRuleSays) {
  const Policy policy =
      FromJson(R"({"rules": [{"sites": ["127.0.0.1", "localhost", "169.254.169.254"], "deny": ["all"]},
                                               {"sites": ["*"], "allow": ["all"]}]})");
  for (const char* url :
       {"http://127.0.0.1:9/", "http://[::ffff:127.0.0.1]:9/", "http://127.0.0.2/", "http://127.1.2.3/",
        "http://0.0.0.0:9/", "http://localhost/", "http://app.localhost/", "http://[::ffff:a9fe:a9fe]/"}) {
    EXPECT_FALSE(Decide(policy, Cap::kRead, url).allowed) << url;
  }
  EXPECT_TRUE(Decide(policy, Cap::kRead, "http://128.0.0.1/").allowed);
  EXPECT_TRUE(Decide(policy, Cap::kRead, "http://notlocalhost/").allowed);
  // localhost and 127.0.0.1 stay two sites: a rule names each one it means.
  const Policy only_v4 = FromJson(R"({"rules": [{"sites": ["127.0.0.1"], "deny": ["all"]}]})");
  EXPECT_TRUE(Decide(only_v4, Cap::kRead, "http://localhost/").allowed);
}

TEST(PolicyDecide, FileUrlsOnlyWhereARuleNamesFile) {
  // The README's example allows "*": that must not reach ~/.ssh.
  const Policy star = FromJson(R"({"rules": [{"sites": ["*"], "allow": ["all"]}]})");
  const auto decision = Decide(star, Cap::kRead, "file:///root/.ssh/id_ed25519");
  EXPECT_FALSE(decision.allowed);
  EXPECT_EQ(decision.reason, "local files are reached only where a rule names file:");
  EXPECT_FALSE(
      Decide(FromJson(R"({"rules": []})"), Cap::kRead, "file:///etc/passwd").allowed);  // not by default allow either
  const Policy named =
      FromJson(R"({"rules": [{"sites": ["file:"], "allow": ["read"]}, {"sites": ["*"], "allow": ["all"]}]})");
  EXPECT_TRUE(Decide(named, Cap::kRead, "file:///home/me/notes.html").allowed);
  EXPECT_FALSE(Decide(named, Cap::kAct, "file:///home/me/notes.html").allowed);
}

TEST(PolicyDecide, UnparsableUrlIsMatchedByStarOnly) {
  const Policy star = FromJson(R"({"rules": [{"sites": ["*"], "allow": ["read"]}]})");
  EXPECT_TRUE(Decide(star, Cap::kRead, "").allowed);
  EXPECT_TRUE(Decide(star, Cap::kRead, "garbage").allowed);
  const Policy host = FromJson(R"({"default": "deny", "rules": [{"sites": ["garbage"], "allow": ["read"]}]})");
  EXPECT_FALSE(Decide(host, Cap::kRead, "garbage").allowed);
}

// ---- Denial messages --------------------------------------------------------

}  // namespace
}  // namespace tb::policy
