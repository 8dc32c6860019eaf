// Puts host -> extension `chunk` notifications back together exactly as
// docs/protocol.md §1 (and extension/worker/chunk_assembler.js) do: consecutive
// chunks of one id, index 0..count-1; an index-0 chunk starts a new message;
// anything out of order discards the partial one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace tb::fake {

class ChunkAssembler {
 public:
  // Feeds one chunk's params. Returns the whole message's JSON text once the
  // last chunk is in. Sets `*violation` when the chunk broke the rules.
  std::optional<std::string> Push(const nlohmann::json& params, std::string* violation);
  bool partial() const { return partial_.has_value(); }

 private:
  struct Partial {
    std::int64_t id;
    std::int64_t count;
    std::int64_t next;
    std::string text;
  };
  std::optional<Partial> partial_;
};

}  // namespace tb::fake
