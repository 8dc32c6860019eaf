#include "tests/fake_extension/chunk_assembler.h"

namespace tb::fake {

std::optional<std::string> ChunkAssembler::Push(const nlohmann::json& params, std::string* violation) {
  const bool well_formed = params.is_object() && params.contains("id") && params["id"].is_number_integer() &&
                           params.contains("index") && params["index"].is_number_integer() &&
                           params.contains("count") && params["count"].is_number_integer() && params.contains("data") &&
                           params["data"].is_string() && params["count"].get<std::int64_t>() > 0 &&
                           params["index"].get<std::int64_t>() >= 0 &&
                           params["index"].get<std::int64_t>() < params["count"].get<std::int64_t>();
  if (!well_formed) {
    partial_.reset();
    *violation = "malformed chunk: " + params.dump();
    return std::nullopt;
  }
  const auto id = params["id"].get<std::int64_t>();
  const auto index = params["index"].get<std::int64_t>();
  const auto count = params["count"].get<std::int64_t>();
  if (index == 0) {
    if (partial_) *violation = "chunked message " + std::to_string(partial_->id) + " was cut short by a new one";
    partial_ = Partial{id, count, 0, {}};
  } else if (!partial_ || partial_->id != id || partial_->next != index || partial_->count != count) {
    *violation =
        "chunk " + std::to_string(id) + "[" + std::to_string(index) + "/" + std::to_string(count) + "] out of order";
    partial_.reset();
    return std::nullopt;
  }
  partial_->text += params["data"].get_ref<const std::string&>();
  ++partial_->next;
  if (partial_->next < partial_->count) return std::nullopt;
  std::string whole = std::move(partial_->text);
  partial_.reset();
  return whole;
}

}  // namespace tb::fake
