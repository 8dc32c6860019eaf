#include "common/capabilities.h"

#include <utility>

#include "common/tool_catalog.h"

namespace tb::caps {
namespace {

// Each session capability's line, by its name in tools::kAllCaps. A name
// missing here still shows (with its tools); the unit test names it.
struct Line {
  std::string_view cap;
  std::string_view meaning;
};
constexpr Line kSessionMeanings[] = {
    {tools::kCapEval, "JavaScript in the page via CDP (works under a strict CSP), JSON result"},
    {tools::kCapDownload, "a URL or link, or the page as a PDF, into ~/Downloads/tabbridge/"},
    {tools::kCapHtml, "mode \"html\", the outer HTML of the page or of a selector"},
    {tools::kCapEmulate, "viewport, color scheme, offline, user agent of the focused tab, until you leave it"},
    {tools::kCapDrag, "one element onto another (HTML5 drag and drop, or a library's pointer-events drag)"},
    {tools::kCapUpload,
     "files of this machine into a file input (or the one a button opens), read by the shim only under the "
     "client's roots (else the working directory) and each --upload-root"},
    {tools::kCapNetwork,
     "the page's requests, and one request's headers and bodies (cookies never shown; tokens, keys and "
     "passwords masked)"},
};

// The tools a session with only `cap` gets, or gets in another shape, that a session without it does not.
std::vector<std::string> ToolsOf(std::string_view cap) {
  const std::vector<std::string> without;
  const std::vector<std::string> with{std::string(cap)};
  std::vector<std::string> out;
  for (const auto& name : tools::ReservedNames()) {
    if (!tools::IsPageTool(name)) continue;
    const auto plain = tools::PageTool(name, without);
    const auto widened = tools::PageTool(name, with);
    if (widened && (!plain || *plain != *widened)) out.push_back(name);
  }
  return out;
}

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

std::string_view Meaning(policy::Cap cap) {
  switch (cap) {
    case policy::Cap::kRead:
      return "read the page (text, snapshot, screenshot, console); see the tab's own tools, and its title and URL "
             "in list_tabs";
    case policy::Cap::kAct:
      return "act on the page as a person would (pointer, keys, forms, dialogs), close its tab, call the page's "
             "own tools (directly or through call_webmcp_tool)";
    case policy::Cap::kNavigate:
      return "go to the site's pages, also when an action (a click, a submit) leads there";
    case policy::Cap::kEval:
      return "run JavaScript in the page";
    case policy::Cap::kDownload:
      return "keep files from the site";
  }
  return "";
}

std::vector<SessionCap> SessionCaps() {
  std::vector<SessionCap> out;
  for (const auto cap : tools::kAllCaps) {
    SessionCap entry{.name = cap, .tools = ToolsOf(cap), .meaning = {}};
    for (const auto& line : kSessionMeanings) {
      if (line.cap == cap) entry.meaning = line.meaning;
    }
    out.push_back(std::move(entry));
  }
  return out;
}

std::string SessionCapsHelp(std::string_view indent, std::size_t width) {
  std::string out;
  for (const auto& cap : SessionCaps()) {
    std::string text(cap.name);
    if (!cap.tools.empty()) text += " (" + Joined(cap.tools) + ")";
    if (!cap.meaning.empty()) text += ": " + std::string(cap.meaning);
    // Wrapped on spaces; a word longer than the line stays whole.
    std::string line(indent);
    bool first_word = true;
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find(' ', start);
      if (end == std::string::npos) end = text.size();
      const std::string_view word(text.data() + start, end - start);
      if (!first_word && line.size() + 1 + word.size() > width) {
        out += line + "\n";
        line = std::string(indent) + "  ";
        first_word = true;
      }
      line += (first_word ? "" : " ") + std::string(word);
      first_word = false;
      start = end + 1;
    }
    out += line + "\n";
  }
  return out;
}

Json CapabilitiesJson() {
  Json policy_caps = Json::array();
  for (const auto cap : policy::kAllCaps) {
    policy_caps.push_back({{"name", policy::Name(cap)}, {"meaning", Meaning(cap)}, {"audited", Audited(cap)}});
  }
  Json session_caps = Json::array();
  for (const auto& cap : SessionCaps()) {
    session_caps.push_back({{"name", cap.name}, {"tools", cap.tools}, {"meaning", cap.meaning}});
  }
  Json all_tools = Json::array();
  for (const auto& name : tools::ReservedNames()) {
    const auto cap = tools::CapabilityOf(name);
    const auto session_cap = tools::RequiredCap(name);
    all_tools.push_back({{"name", name},
                         {"capability", cap ? Json(policy::Name(*cap)) : Json(nullptr)},
                         {"sessionCap", session_cap.empty() ? Json(nullptr) : Json(session_cap)}});
  }
  return {{"policy", std::move(policy_caps)}, {"session", std::move(session_caps)}, {"tools", std::move(all_tools)}};
}

}  // namespace tb::caps
