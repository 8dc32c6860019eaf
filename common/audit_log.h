// The audit log: one JSON line per tool call that acts, navigates, evaluates
// or downloads, appended by every host (one per browser) to the same file
// (docs/audit.md). Plain POSIX: each line is one write(2) on an O_APPEND
// descriptor, so concurrent appenders never interleave lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "common/jsonrpc.h"

namespace tb::audit {

// $XDG_STATE_HOME/tabbridge/audit.jsonl (XDG_STATE_HOME set, non-empty,
// absolute), else ~/.local/state/tabbridge/audit.jsonl ($HOME, else getpwuid).
std::string DefaultPath();

// 4 MiB is tens of thousands of calls, and three files (12 MiB) stay small.
inline constexpr std::size_t kMaxBytes = 4 * 1024 * 1024;
inline constexpr int kKeptFiles = 2;  // audit.jsonl.1, audit.jsonl.2
// Each string field of an entry is cut to this many bytes (a data: URL can be
// megabytes), so a line stays far below kMaxBytes and Tail's line bound.
inline constexpr std::size_t kMaxFieldBytes = 4096;
// How much of an error message `detail` keeps (ErrorDetail).
inline constexpr std::size_t kMaxDetailChars = 200;

struct Entry {
  std::string time;  // ISO-8601 UTC with milliseconds; Append fills it when empty
  std::int64_t session = 0;
  std::string client;  // MCP clientInfo "name version", may be empty
  std::string tool;
  std::string url;      // the tab's URL when the call was checked (may be empty)
  std::string outcome;  // "ok" | "error" | "denied" | "stopped"
  // Denials: the denial as the model got it, e.g. `click denied on x.com: rule 1 (sites x.com; deny all) in …`.
  std::string rule;
  // Where the call went, the page tool it ran, an error's first line (docs/audit.md).
  std::string detail;
};

// "2026-11-23T21:40:12.345Z": now, in UTC.
std::string Now();

// The first line of an error message, cut to kMaxDetailChars characters
// (UTF-8 aware; "…" marks a cut): what `detail` holds for an error.
std::string ErrorDetail(std::string_view message);

// The line Append writes, without its newline: keys time, session, client,
// tool, url, outcome in that order, then rule and detail only when non-empty.
// Fields are cut to kMaxFieldBytes; invalid UTF-8 becomes U+FFFD.
std::string ToLine(const Entry& entry);

class Log {
 public:
  explicit Log(std::string path, std::size_t max_bytes = kMaxBytes);

  // Appends one JSON line (ToLine). Creates the directory (0700) and the file
  // (0600) when missing; a file found with another mode is chmod'ed to 0600.
  // Rotates first when the line would push the file past max_bytes:
  // .1 → .2, file → .1 (kKeptFiles kept); a line longer than max_bytes still
  // goes into a file of its own. Never throws; an error is returned (the host
  // logs it once and goes on).
  std::expected<void, std::string> Append(const Entry& entry);

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::size_t max_bytes_;
};

// The path of the i-th rotated predecessor ("<path>.<i>"); 0 is path itself.
std::string RotatedPath(const std::string& path, int i);

// Lines longer than this are skipped by Tail without being held in memory.
inline constexpr std::size_t kMaxLineBytes = 1024 * 1024;

// The last `n` lines that are JSON objects, across the file and its rotated
// predecessors, oldest first, as written. Reads each file backwards in chunks
// and stops once it has `n`, so a huge file is not read whole. A missing or
// unreadable file contributes nothing.
std::vector<std::string> TailLines(const std::string& path, std::size_t n);

// The same, parsed.
std::vector<Json> Tail(const std::string& path, std::size_t n);

// One human-readable line, fields two spaces apart, empty ones left out:
// `2026-11-23T21:40:12.345Z  session 3 (claude-code 2.1)  click  https://x.com/  denied  rule 1 (...)`
// Control characters are shown escaped (\u001b) so a page cannot drive the
// terminal. Never throws, whatever the entry holds.
std::string Format(const Json& entry);

}  // namespace tb::audit
