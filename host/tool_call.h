// One tools/call as every part of the host sees it: built once by the
// session (Session::OnToolsCall), checked by the call gate (host/call_gate.h),
// then handed to the part bound to its name.
#pragma once

#include <cstdint>
#include <string>

#include "common/jsonrpc.h"

namespace tb {

struct ToolCall {
  std::int64_t session_id = 0;
  std::string key;             // the request's key (its id, dumped): cancellation, the arguments' text
  std::string name;            // the tool as the client called it
  Json args = Json::object();  // the arguments; after the gate, as the tool's part takes them
  Json meta = Json::object();  // the call's _meta: upload_file's files (kUploadFilesMeta)
  Json progress = nullptr;     // the client's progress token, or null
};

}  // namespace tb
