// common/capabilities.h: each capability's meaning and tools, said once, and
// `tabbridge --help` made from it (the --caps lines once missed upload and network).
#include "common/capabilities.h"

#include <cctype>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "common/tool_catalog.h"
#include "host/policy_gate.h"
#include "mcp_shim/usage.h"

namespace tb {
namespace {

// `word` in `text` as a whole name: network_request is not found in network_requests.
bool HasWord(const std::string& text, std::string_view word) {
  auto is_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !is_name(text[at - 1]);
    const bool ends = at + word.size() == text.size() || !is_name(text[at + word.size()]);
    if (starts && ends) return true;
  }
  return false;
}

// The --caps part of the usage: from "LIST:" to the next option.
std::string CapsSection() {
  const std::string usage = Usage();
  const auto from = usage.find("LIST:");
  const auto to = usage.find("--read-only:", from);
  EXPECT_NE(from, std::string::npos) << usage;
  EXPECT_NE(to, std::string::npos) << usage;
  return usage.substr(from, to - from);
}

TEST(HelpCaps, EveryCapabilityAndEveryToolItTurnsOnAppearInHelp) {
  const std::string section = CapsSection();
  for (const auto cap : tools::kAllCaps) {
    EXPECT_TRUE(HasWord(section, cap)) << cap << " is not in --help:\n" << section;
    for (const auto& name : tools::ReservedNames()) {
      if (tools::RequiredCap(name) == cap) EXPECT_TRUE(HasWord(section, name)) << name << " (--caps " << cap << ")";
    }
  }
}

TEST(HelpCaps, LinesStayWithinTheWidth) {
  const std::string lines = caps::SessionCapsHelp("    ", 60);
  std::size_t start = 0;
  for (auto end = lines.find('\n'); end != std::string::npos; start = end + 1, end = lines.find('\n', start)) {
    const std::string line = lines.substr(start, end - start);
    EXPECT_TRUE(line.starts_with("    ")) << line;
    EXPECT_LE(line.size(), 60U) << line;
  }
  EXPECT_EQ(start, lines.size()) << "ends with a newline";
}

TEST(Caps, EverySessionCapabilityHasAMeaningAndTools) {
  const auto session = caps::SessionCaps();
  ASSERT_EQ(session.size(), std::size(tools::kAllCaps));
  for (const auto& cap : session) {
    EXPECT_FALSE(cap.meaning.empty()) << cap.name << ": add its line to kSessionMeanings (common/capabilities.cpp)";
    EXPECT_FALSE(cap.tools.empty()) << cap.name << " turns on no tool";
  }
}

TEST(Caps, ToolsOfASessionCapabilityAreWhatItListsOrWidens) {
  std::map<std::string, std::vector<std::string>> by_name;
  for (const auto& cap : caps::SessionCaps()) by_name[std::string(cap.name)] = cap.tools;
  EXPECT_EQ(by_name["html"], std::vector<std::string>{"read_page"});  // a wider schema, not a new tool
  EXPECT_EQ(by_name["network"], (std::vector<std::string>{"network_requests", "network_request"}));
  EXPECT_EQ(by_name["download"], (std::vector<std::string>{"download_file", "save_pdf"}));
}

TEST(Caps, EveryPolicyCapabilityHasAMeaning) {
  for (const auto cap : policy::kAllCaps) EXPECT_FALSE(caps::Meaning(cap).empty()) << policy::Name(cap);
}

// The host's audit decision is this one (docs/audit.md is generated from it).
TEST(Caps, EverythingButReadingIsAudited) {
  for (const auto cap : policy::kAllCaps) {
    EXPECT_EQ(caps::Audited(cap), cap != policy::Cap::kRead) << policy::Name(cap);
    EXPECT_EQ(PolicyGate::IsAudited(cap), caps::Audited(cap)) << policy::Name(cap);
  }
}

TEST(Caps, JsonNamesEveryToolWithItsCapabilities) {
  const Json json = caps::CapabilitiesJson();
  ASSERT_EQ(json["tools"].size(), tools::ReservedNames().size());
  std::set<std::string> seen;
  for (const Json& tool : json["tools"]) {
    const std::string name = tool["name"];
    seen.insert(name);
    const auto cap = tools::CapabilityOf(name);
    EXPECT_EQ(tool["capability"], cap ? Json(policy::Name(*cap)) : Json(nullptr)) << name;
    const auto session_cap = tools::RequiredCap(name);
    EXPECT_EQ(tool["sessionCap"], session_cap.empty() ? Json(nullptr) : Json(session_cap)) << name;
  }
  EXPECT_EQ(seen.size(), tools::ReservedNames().size());
  EXPECT_EQ(json["policy"].size(), std::size(policy::kAllCaps));
  EXPECT_EQ(json["policy"][0],
            Json({{"name", "read"}, {"meaning", caps::Meaning(policy::Cap::kRead)}, {"audited", false}}));
}

}  // namespace
}  // namespace tb
