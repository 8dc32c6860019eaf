// The argument checker: any arguments against every catalog tool, and any
// page-written schema (the page's own tools) against any arguments, give an
// answer — never an exception, never a crash.
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "common/jsonrpc.h"
#include "common/tool_catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // "schema\nargs": a page's schema and the model's arguments; without a
  // newline, the arguments for every tool of the catalog.
  const auto cut = text.find('\n');
  const tb::Json args = tb::Json::parse(cut == std::string_view::npos ? text : text.substr(cut + 1), nullptr, false);
  if (args.is_discarded()) return 0;
  if (cut != std::string_view::npos) {
    const tb::Json schema = tb::Json::parse(text.substr(0, cut), nullptr, false);
    if (schema.is_discarded()) return 0;
    (void)tb::tools::CheckArguments(tb::Json{{"name", "page_tool"}, {"inputSchema", schema}}, args,
                                    tb::tools::Extra::kPerSchema);
    return 0;
  }
  for (const auto& name : tb::tools::ReservedNames()) {
    if (const tb::Json* tool = tb::tools::Find(name)) (void)tb::tools::CheckArguments(*tool, args);
    static const std::vector<std::string> all_caps(std::begin(tb::tools::kAllCaps), std::end(tb::tools::kAllCaps));
    if (const auto variant = tb::tools::PageTool(name, all_caps)) {
      (void)tb::tools::CheckArguments(*variant, args);
    }
  }
  return 0;
}
