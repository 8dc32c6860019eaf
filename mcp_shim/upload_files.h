// upload_file's files, read where the agent runs: the shim is on the agent's
// machine, which is not the browser's when the socket is forwarded from a
// remote dev box, so the paths the model gives are the shim's to open.
#pragma once

#include <expected>
#include <string>

#include "common/jsonrpc.h"

namespace tb {

// `paths` (absolute, "~/…", or relative to the working directory) ->
// [{name, size, lastModified (epoch ms), data (base64)}], or what is wrong
// with which path: missing, not a regular file, unreadable, or more than
// kMaxUploadBytes together. Nothing but a regular file is opened (a FIFO is
// refused, not waited on; a device is not touched), and the open file is
// checked to be the one the name named.
std::expected<Json, std::string> ReadUploadFiles(const Json& paths);

}  // namespace tb
