// Chrome's extension ID for a manifest `key`: the first 128 bits of the
// SHA-256 of the DER public key, written with the letters a-p.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tb {

std::optional<std::string> ExtensionIdFromKey(std::string_view base64_key);

// Reads <dir>/manifest.json and derives the ID from its key.
std::optional<std::string> ExtensionIdOfDir(const std::string& dir);

}  // namespace tb
