#include "common/argument_order.h"

namespace tb::rpc {

std::optional<std::string> ArgumentsInOrder(std::string_view text) {
  // rpc::Parse, which the text passed first, refused what is nested too deeply.
  const auto message = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!message.is_object()) return std::nullopt;
  const auto params = message.find("params");
  if (params == message.end() || !params->is_object()) return std::nullopt;
  const auto args = params->find("arguments");
  if (args == params->end() || !args->is_object()) return std::nullopt;
  return args->dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace tb::rpc
