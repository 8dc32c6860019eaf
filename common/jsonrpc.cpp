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
  if (json.is_discarded()) {
    return std::unexpected(ParseFailure{{rpc_error::kParseError, "invalid JSON", nullptr}, nullptr});
  }
  if (!json.is_object()) return std::unexpected(Invalid("a message must be a JSON object"));

  Message msg;
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

std::string Dump(const Json& message) { return message.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace tb::rpc
