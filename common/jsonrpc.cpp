#include "common/jsonrpc.h"

#include <cstdint>

#include "common/json_field.h"
#include "common/protocol.h"

namespace tb::rpc {
namespace {

bool TooDeep(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '{' || c == '[') {
      if (++depth > kMaxDepth) return true;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return false;
}

// The length of the valid UTF-8 sequence at text[i] (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF), 0 when there is none.
std::size_t Utf8SequenceAt(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (text.size() - i < n || byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return n;
}

// The code unit of the \uXXXX escape at text[i] (the backslash), if it is one.
std::optional<unsigned> EscapedUnitAt(std::string_view text, std::size_t i) {
  if (text.size() - i < 6 || text[i] != '\\' || text[i + 1] != 'u') return std::nullopt;
  unsigned unit = 0;
  for (std::size_t k = i + 2; k < i + 6; ++k) {
    const char c = text[k];
    const int digit = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
    if (digit < 0) return std::nullopt;
    unit = unit * 16 + static_cast<unsigned>(digit);
  }
  return unit;
}

bool ValidId(const Json& id) { return id.is_string() || id.is_number_integer() || id.is_null(); }

ParseFailure Invalid(std::string message, Json id = nullptr, bool response = false) {
  return {{rpc_error::kInvalidRequest, std::move(message), nullptr}, std::move(id), response};
}

}  // namespace

std::expected<Message, ParseFailure> Parse(std::string_view text) {
  if (TooDeep(text)) {
    return std::unexpected(ParseFailure{{rpc_error::kParseError, "JSON nested too deeply", nullptr}, nullptr});
  }
  Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  bool repaired = false;
  if (json.is_discarded()) {
    // Only a text that fails is looked at again: well-formed text costs nothing.
    if (auto fixed = WellFormedText(text)) {
      json = Json::parse(*fixed, nullptr, /*allow_exceptions=*/false);
      repaired = true;
    }
  }
  if (json.is_discarded()) {
    // An answer as our own programs write it names its id first: whoever waits
    // on it can be told (not answered: it is a response).
    const auto peeked = PeekResult(text);
    return std::unexpected(ParseFailure{{rpc_error::kParseError, "invalid JSON", nullptr},
                                        peeked ? Json(peeked->id) : Json(nullptr),
                                        peeked.has_value()});
  }
  if (!json.is_object()) return std::unexpected(Invalid("a message must be a JSON object"));

  Message msg;
  msg.repaired = repaired;
  const auto id_it = json.find("id");
  const bool has_id = id_it != json.end();
  if (has_id) {
    if (!ValidId(*id_it)) return std::unexpected(Invalid("id must be a string or an integer"));
    msg.id = *id_it;
  }
  if (const auto v = json.find("jsonrpc"); v == json.end() || *v != "2.0") {
    return std::unexpected(Invalid("jsonrpc must be \"2.0\"", msg.id));
  }

  if (const auto method = json.find("method"); method != json.end()) {
    if (!method->is_string()) return std::unexpected(Invalid("method must be a string", msg.id));
    msg.method = method->get<std::string>();
    if (const auto params = json.find("params"); params != json.end()) {
      if (!params->is_object() && !params->is_array()) {
        return std::unexpected(Invalid("params must be an object or an array", msg.id));
      }
      msg.params = std::move(*params);
    }
    msg.kind = has_id ? Kind::kRequest : Kind::kNotification;
    if (has_id && msg.id.is_null()) return std::unexpected(Invalid("a request id must not be null"));
    return msg;
  }

  if (!has_id) return std::unexpected(Invalid("a message needs a method or an id"));
  msg.kind = Kind::kResponse;
  if (const auto result = json.find("result"); result != json.end()) {
    msg.result = std::move(*result);
    return msg;
  }
  const auto error = json.find("error");
  // Neither a request nor a response: the sender waits for an answer to that
  // id, so it gets one (a malformed response below gets none: nobody waits).
  if (error == json.end()) {
    return std::unexpected(
        Invalid("a message with an id needs a method (a request) or a result or an error (a response)", msg.id));
  }
  if (!error->is_object()) return std::unexpected(Invalid("a response's error must be an object", msg.id, true));
  // JSON-RPC 2.0 §5.1: code is an integer, message a string.
  const auto code = field::Int(*error, "code");
  if (!code || *code < INT32_MIN || *code > INT32_MAX) {
    return std::unexpected(Invalid("error.code must be an integer", msg.id, true));
  }
  auto message = field::String(*error, "message");
  if (!message) return std::unexpected(Invalid("error.message must be a string", msg.id, true));
  msg.is_error = true;
  msg.error.code = static_cast<int>(*code);
  msg.error.message = std::move(*message);
  if (const auto data = error->find("data"); data != error->end()) msg.error.data = *data;
  return msg;
}

Json MakeRequest(const Json& id, std::string_view method, Json params) {
  Json msg = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) msg["params"] = std::move(params);
  return msg;
}

Json MakeNotification(std::string_view method, Json params) {
  Json msg = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) msg["params"] = std::move(params);
  return msg;
}

Json MakeResult(const Json& id, Json result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

Json MakeError(const Json& id, int code, std::string_view message, Json data) {
  Json error = {{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = std::move(data);
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

Json MakeError(const Json& id, const Error& error) { return MakeError(id, error.code, error.message, error.data); }

Error InvalidParams(std::string message) { return {rpc_error::kInvalidParams, std::move(message), nullptr}; }

namespace {
// What follows the id in Dump(MakeResult(N, r)): nlohmann::json sorts keys.
constexpr std::string_view kResultTail = R"(,"jsonrpc":"2.0","result":)";
}  // namespace

std::optional<ResultPrefix> PeekResult(std::string_view text) {
  constexpr std::string_view kHead = R"({"id":)";
  constexpr std::size_t kMaxDigits = 18;  // always fits an int64; our ids count up from 1
  if (!text.starts_with(kHead)) return std::nullopt;
  std::int64_t id = 0;
  std::size_t end = kHead.size();
  for (; end < text.size() && end - kHead.size() < kMaxDigits && text[end] >= '0' && text[end] <= '9'; ++end)
    id = id * 10 + (text[end] - '0');
  if (id <= 0 || text[kHead.size()] == '0' || !text.substr(end).starts_with(kResultTail)) return std::nullopt;
  return ResultPrefix{id, text.substr(end)};
}

std::string WithId(const ResultPrefix& prefix, const Json& id) {
  const std::string id_text = Dump(id);
  std::string out;
  out.reserve(7 + id_text.size() + prefix.rest.size());
  out.append(R"({"id":)").append(id_text).append(prefix.rest);
  return out;
}

std::optional<std::string> WithIdAndMembers(const ResultPrefix& prefix, const Json& id, std::string_view members) {
  const std::string_view result = prefix.rest.substr(kResultTail.size());  // PeekResult checked the tail
  if (!result.starts_with('{') || members.empty()) return std::nullopt;
  const std::string_view body = result.substr(1);  // `}…` for an empty object, else `"k":…}…`
  const std::size_t first = body.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return std::nullopt;
  const bool empty = body[first] == '}';
  const std::string id_text = Dump(id);
  std::string out;
  out.reserve(8 + id_text.size() + prefix.rest.size() + members.size());
  out.append(R"({"id":)").append(id_text).append(kResultTail).append("{").append(members);
  if (!empty) out.append(",");
  out.append(body);
  return out;
}

std::optional<std::string> WellFormedText(std::string_view text) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8
  std::string out;
  bool changed = false;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t n = Utf8SequenceAt(text, i);
      if (n == 0) {
        if (!changed) out.assign(text.substr(0, i));
        changed = true;
        out.append(kReplacement);
        ++i;
      } else {
        if (changed) out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    std::size_t n = 1;
    if (c == '"') {
      in_string = !in_string;
    } else if (in_string && c == '\\') {
      const auto unit = EscapedUnitAt(text, i);
      if (unit && *unit >= 0xD800 && *unit <= 0xDFFF) {
        const auto low = *unit <= 0xDBFF ? EscapedUnitAt(text, i + 6) : std::nullopt;
        if (low && *low >= 0xDC00 && *low <= 0xDFFF) {
          n = 12;  // a whole pair
        } else {
          if (!changed) out.assign(text.substr(0, i));
          changed = true;
          out.append("\\ufffd");
          i += 6;
          continue;
        }
      } else if (i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0x80) {
        n = 2;  // the escaped character is never the end of the string
      }
    }
    if (changed) out.append(text.substr(i, n));
    i += n;
  }
  if (!changed) return std::nullopt;
  return out;
}

std::string Dump(const Json& message) { return message.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace tb::rpc
