#include "mcp_shim/browser_paths.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace tb {
namespace {

std::string Lower(std::string text) {
  std::ranges::transform(text, text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The root of an environment variable, without a trailing separator ("" when unset).
std::string Root(const EnvLookup& env, const char* name) {
  std::string value = env(name);
  while (!value.empty() && (value.back() == '\\' || value.back() == '/')) value.pop_back();
  return value;
}

}  // namespace

std::vector<std::string> BrowserCandidates(Platform platform, const EnvLookup& env) {
  switch (platform) {
    case Platform::kWindows: {
      // Where each browser's installer puts it: machine-wide under Program
      // Files (64- or 32-bit), or per user under %LOCALAPPDATA%.
      const std::vector<std::string> roots = {Root(env, "ProgramFiles"), Root(env, "ProgramFiles(x86)"),
                                              Root(env, "LOCALAPPDATA")};
      std::vector<std::string> out;
      for (const char* inside : {"Google\\Chrome\\Application\\chrome.exe", "Chromium\\Application\\chrome.exe",
                                 "BraveSoftware\\Brave-Browser\\Application\\brave.exe",
                                 "Microsoft\\Edge\\Application\\msedge.exe", "Vivaldi\\Application\\vivaldi.exe"}) {
        for (const std::string& root : roots) {
          const std::string path = root + "\\" + inside;
          if (!root.empty() && std::ranges::find(out, path) == out.end()) out.push_back(path);
        }
      }
      return out;
    }
    case Platform::kMacOS:
      return {"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
              "/Applications/Chromium.app/Contents/MacOS/Chromium",
              "/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
              "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"};
    case Platform::kLinux:
      break;
  }
  return {"google-chrome",  "google-chrome-stable",  "chromium", "chromium-browser", "brave-browser",
          "microsoft-edge", "microsoft-edge-stable", "vivaldi"};
}

std::string PickBrowser(const std::vector<std::string>& candidates,
                        const std::function<bool(const std::string&)>& usable) {
  const auto found = std::ranges::find_if(candidates, usable);
  return found == candidates.end() ? "" : *found;
}

bool IsBrandedChrome(const std::string& executable, Platform platform) {
  if (platform == Platform::kWindows) {
    // Chromium's build is chrome.exe too: Google's sits in a Google\Chrome folder
    // (Chrome, Beta, Dev: "Google\Chrome…\Application"; Canary: "Google\Chrome SxS").
    std::string path = Lower(executable);
    std::ranges::replace(path, '/', '\\');
    return path.ends_with("\\chrome.exe") && path.find("\\google\\chrome") != std::string::npos;
  }
  const std::string name = std::filesystem::path(executable).filename().string();
  return name.starts_with("google-chrome") || name == "Google Chrome";
}

}  // namespace tb
