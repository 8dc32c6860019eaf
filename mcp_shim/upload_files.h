// upload_file's files, read where the agent runs: the shim is on the agent's
// machine, which is not the browser's when the socket is forwarded from a
// remote dev box, so the paths the model gives are the shim's to open.
//
// A page asks the model for a file; the model is not a judge of which files
// may leave. So a file is read only from an upload root — the MCP client's
// roots (roots/list), else the shim's working directory, and any
// `--upload-root DIR` — and never, under any root, from what holds the
// user's secrets: browser profiles, tabbridge's own config and state, /proc,
// /sys, /dev, hidden files and directories under $HOME. The checks are made
// on the resolved path, with every symlink on the way looked at, and the
// file opened is the one checked (no symlink followed on the way down).
#pragma once

#include <expected>
#include <string>
#include <vector>

#include "common/jsonrpc.h"
#include "mcp_shim/upload_paths.h"  // PathOfFileUri

namespace tb {

// One directory files may come from, and where it came from.
struct UploadRoot {
  enum class Source { kClient, kWorkingDirectory, kFlag };
  std::string dir;  // as given; Canonical() resolves it
  Source source = Source::kFlag;
};

struct UploadScope {
  std::vector<UploadRoot> roots;
  // Said in a refusal when the client's roots are missing for a reason the
  // user can act on ("your MCP client's roots/list failed: …"); may be empty.
  std::string note;
};

// "<shown> is outside the upload roots (…)" with each root and where it came
// from, the scope's note, and how to add a root: the one refusal text of
// every platform (upload_scope.cpp).
std::string OutsideRoots(const std::string& shown, const UploadScope& scope);

// The roots of a session: the client's (when it declared the `roots`
// capability; an empty list is no root of its own), else the working
// directory (not "/": that would be every file), then every --upload-root.
// Directories that do not exist are left out.
UploadScope MakeUploadScope(const std::vector<std::string>& client_roots, bool client_has_roots,
                            const std::vector<std::string>& flag_roots, const std::string& working_dir);

// `paths` (absolute, "~/…", or relative to the working directory) ->
// [{name, path (resolved), size, lastModified (epoch ms), data (base64)}],
// or what is wrong with which path and what to do: missing, not a regular
// file, unreadable, refused (and why), outside the roots, of another user
// (the file, or a symlink on its way), or more than kMaxUploadBytes
// together. Nothing but a regular file is opened (a FIFO is refused, not
// waited on; a device is not touched), and the open file is checked to be
// the one that was checked.
std::expected<Json, std::string> ReadUploadFiles(const Json& paths, const UploadScope& scope);

}  // namespace tb
