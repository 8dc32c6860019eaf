// The order of a tool call's arguments. Json (nlohmann::json) sorts object
// keys; a page's own tool may read its arguments in the order the model wrote
// them, so a call of one carries them as JSON text too, from the shim (which
// reads the client's text) through the host to the extension
// (docs/protocol.md "Argument order").
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/jsonrpc.h"

namespace tb {

// Where in tools/call's _meta the shim puts the arguments as JSON text in the
// client's order (MCP reserves _meta for such additions; only the shim writes it).
inline constexpr std::string_view kArgumentsTextMeta = "tabbridge.dev/argumentsText";

namespace rpc {
// The params.arguments of the request `text` as JSON text in the order its
// sender wrote the keys; nullopt when it has none, they are not an object, or
// the text is not well-formed (rpc::Parse read it with U+FFFD in places).
std::optional<std::string> ArgumentsInOrder(std::string_view text);
}  // namespace rpc

}  // namespace tb
