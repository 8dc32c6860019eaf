// A file replaced whole: written to a new file beside it, then renamed over
// it, so a reader sees the old contents or the new, never half (the host
// polls the policy file while `tabbridge allow` or the person's "Always"
// writes it). A link is followed: it is the user's choice of where the file lives.
#pragma once

#include <expected>
#include <string>
#include <string_view>

namespace tb {

// Replaces the file at `path` (UTF-8) with `text`, readable by its owner
// only, creating its directory if needed. On POSIX the temporary file is
// made with mkstemp (a name nobody can guess, created exclusively, 0600
// from the start), so another user cannot plant a link there.
std::expected<void, std::string> ReplaceFile(const std::string& path, std::string_view text);

}  // namespace tb
