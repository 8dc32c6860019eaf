// The refusal of a file outside the upload roots, the same words on every
// platform (upload_files.cpp, upload_files_windows.cpp).
#include <string>

#include "mcp_shim/upload_files.h"

namespace tb {
namespace {

std::string RootSource(UploadRoot::Source source) {
  switch (source) {
    case UploadRoot::Source::kClient:
      return "a root of your MCP client";
    case UploadRoot::Source::kWorkingDirectory:
      return "the working directory";
    case UploadRoot::Source::kFlag:
      return "--upload-root";
  }
  return "";
}

}  // namespace

std::string OutsideRoots(const std::string& shown, const UploadScope& scope) {
  std::string roots;
  for (const UploadRoot& root : scope.roots) {
    roots += (roots.empty() ? "" : ", ") + root.dir + " (" + RootSource(root.source) + ")";
  }
  std::string text = shown + " is outside the upload roots (" + (roots.empty() ? "there are none" : roots) + ")";
  if (!scope.note.empty()) text += "; " + scope.note;
  return text +
         " — to send files from its folder, add that folder as a root in your MCP client, or start tabbridge with "
         "--upload-root DIR";
}

}  // namespace tb
