// JSON-RPC parsing: any text parses to a message or a failure without
// throwing, and what we build from it serialises.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/jsonrpc.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto parsed = tb::rpc::Parse(text);
  if (!parsed) {
    const auto& failure = parsed.error();
    if (failure.error.message.empty()) std::abort();
    (void)tb::rpc::Dump(tb::rpc::MakeError(failure.id, failure.error));
    return 0;
  }
  switch (parsed->kind) {
    case tb::rpc::Kind::kRequest:
      if (parsed->id.is_null()) std::abort();  // a request always has an id to answer
      (void)tb::rpc::Dump(tb::rpc::MakeResult(parsed->id, parsed->params));
      break;
    case tb::rpc::Kind::kNotification:
      (void)tb::rpc::Dump(tb::rpc::MakeNotification(parsed->method, parsed->params));
      break;
    case tb::rpc::Kind::kResponse:
      (void)tb::rpc::Dump(parsed->is_error ? tb::rpc::MakeError(parsed->id, parsed->error)
                                           : tb::rpc::MakeResult(parsed->id, parsed->result));
      break;
  }
  return 0;
}
