// Base64 (RFC 4648, standard alphabet, padded): the bytes of files the shim
// reads for upload_file, and the key in a manifest that names the extension.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tb::base64 {

std::string Encode(std::string_view bytes);
// nullopt for a character outside the alphabet; padding and line breaks are skipped.
std::optional<std::vector<std::uint8_t>> Decode(std::string_view text);

}  // namespace tb::base64
