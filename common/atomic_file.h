// A file replaced whole: written to a new file beside it, then renamed over
// it, so a reader sees the old contents or the new, never half (the host
// polls the policy file while `tabbridge allow` or the person's "Always"
// writes it). A link is followed: it is the user's choice of where the file lives.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace tb {

// Replaces the file at `path` (UTF-8) with `text`, readable by its owner
// only, creating its directory if needed. On POSIX the temporary file is
// made with mkstemp (a name nobody can guess, created exclusively, 0600
// from the start), so another user cannot plant a link there.
std::expected<void, std::string> ReplaceFile(const std::string& path, std::string_view text);

// What a file was when it was read: it is another file (an editor's atomic
// save), or was written in place, when any of these differ.
struct FileStamp {
  bool exists = false;
  std::uint64_t device = 0, inode = 0, size = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};
FileStamp StampOf(const std::string& path);

// ReplaceFile, unless the file is no longer the one stamped `read`: then
// nothing is written and the answer is false (read it again, and retry).
// On Linux the file is exchanged with the new one (renameat2
// RENAME_EXCHANGE) and the one taken out is compared: one saved by someone
// else between the compare and the rename is put back, never lost. Where
// there is no exchange, the compare runs just before the rename.
std::expected<bool, std::string> ReplaceFileIf(const std::string& path, std::string_view text, const FileStamp& read);

}  // namespace tb
