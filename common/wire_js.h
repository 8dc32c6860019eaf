// extension/worker/wire.js, generated from common/protocol.h: the wire names,
// limits, deadlines and error codes the extension shares with the host, so
// the two languages cannot drift (`tabbridge tools --wire-js`; the test
// generated_in_sync fails when the file is stale).
#pragma once

#include <string>

#include "common/jsonrpc.h"

namespace tb {

// The module's text.
std::string WireJs();

// The same constants as {group: {JS_NAME: value}} (scalars under ""), for
// codegen/generate.mjs (the page scripts' constants blocks).
Json WireConstants();

}  // namespace tb
