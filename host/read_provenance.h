// The host's judgement of what a page or own tool read (issue 42 item 1,
// "Provenance on every read"; docs/protocol.md "Where text was read"): each
// content block of the extension's answer names the documents its text may
// hold (_meta["tabbridge/read"]: [{documentId, url}, ...], taken by the script
// or CDP answer that read it, extension/tools/stack/reads.js), and the result
// names those of its structuredContent. Before the model sees any of it:
//   * a block without the mark is dropped (a tabbridge bug: logged, and the
//     answer says how many),
//   * a block holding text of a document `read` is denied on (or left to the
//     person, not answered yet) becomes one line: which site, nothing of it read,
//   * structuredContent goes unless its documents are named and all allowed,
//   * every mark is removed,
//   * an answer left with no block of its own is the denial (isError).
// Pure: the decision is a function the caller binds (the session's policy).
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "common/jsonrpc.h"

namespace tb {

class PolicyGate;
class Session;

// The model's denial of `read` on `url` (PolicyGate::Deny's result), or
// nullopt when the session may read it.
using ReadDenial = std::function<std::optional<Json>(std::string_view url)>;

// Judges `result` (a CallToolResult from the extension) in place; `tool` names
// the call in what the model is told and in the log.
void JudgeReads(std::string_view tool, Json& result, const ReadDenial& deny);

// The same, `read` decided by `gate` for `session`.
void JudgeReads(const PolicyGate& gate, const Session& session, std::string_view tool, Json& result);

}  // namespace tb
