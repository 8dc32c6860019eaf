// JSON-RPC 2.0 messages: classification of what arrives, builders for what
// leaves. Shared by all three links (docs/protocol.md).
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tb {

using Json = nlohmann::json;

namespace rpc {

struct Error {
  int code = 0;
  std::string message;
  Json data;  // null when absent
};

enum class Kind { kRequest, kNotification, kResponse };

struct Message {
  Kind kind = Kind::kNotification;
  Json id;             // requests and responses
  std::string method;  // requests and notifications
  Json params;         // null when absent
  Json result;         // successful responses
  bool is_error = false;
  Error error;            // responses with is_error
  bool repaired = false;  // the text was not well-formed (WellFormedText): U+FFFD stands in
};

// Why a text is not a message, and the id to answer to when it could be read.
struct ParseFailure {
  Error error;
  Json id;
  // A malformed response: answering it would answer an answer (JSON-RPC
  // peers that both did so would ping-pong forever), so it is only logged.
  bool response = false;
};

// Parses one JSON-RPC message; never throws. Nesting deeper than kMaxDepth is
// refused before parsing so a hostile peer cannot exhaust the stack. Text
// that is not well-formed (WellFormedText) is read with U+FFFD in its place.
inline constexpr int kMaxDepth = 128;
std::expected<Message, ParseFailure> Parse(std::string_view text);

Json MakeRequest(const Json& id, std::string_view method, Json params);
Json MakeNotification(std::string_view method, Json params);
Json MakeResult(const Json& id, Json result);
Json MakeError(const Json& id, int code, std::string_view message, Json data = nullptr);
Json MakeError(const Json& id, const Error& error);
// -32602 with `message` (which names the field and what it must be).
Error InvalidParams(std::string message);

// A success response as our own programs write it, seen without parsing it:
// nlohmann::json keeps object keys sorted, so Dump(MakeResult(N, r)) starts
// {"id":N,"jsonrpc":"2.0","result": — the shim relays such an answer under
// its client's id by splicing (docs/protocol.md "Relaying answers").
struct ResultPrefix {
  std::int64_t id = 0;
  std::string_view rest;  // `,"jsonrpc":"2.0","result":…}`: all after the id
};
// Only the prefix is looked at: the caller validates the text (Json::accept).
std::optional<ResultPrefix> PeekResult(std::string_view text);
// The same response under another id (one copy of the text, no parse).
std::string WithId(const ResultPrefix& prefix, const Json& id);
// The same with `members` (`"k":v,…`, not in the result yet) put first in the
// result object; nullopt when the result is not an object. For a revision that
// wants fields the host does not write (MCP 2026-07-28's resultType), at the
// cost of one copy and no parse.
std::optional<std::string> WithIdAndMembers(const ResultPrefix& prefix, const Json& id, std::string_view members);

// JSON text whose strings are well-formed Unicode, or nullopt when `text`
// already is: every byte that does not begin a valid UTF-8 sequence, and every
// \u escape of half a surrogate pair (\ud83d without its low half — what
// Chrome writes for a lone surrogate in a JavaScript string), becomes U+FFFD.
// Page text must never decide whether a message can be read (issue 29).
std::optional<std::string> WellFormedText(std::string_view text);

// Serialises without throwing: invalid UTF-8 from a page becomes U+FFFD.
std::string Dump(const Json& message);

}  // namespace rpc
}  // namespace tb
