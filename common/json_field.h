// Typed reads of JSON fields that never throw. Everything a peer sends (MCP
// client, shim, extension, browser) is read through these, never through
// nlohmann's value()/get<T>()/operator[], whose exceptions (a field of the
// wrong type) or assertions (const operator[] of a missing key) would leave
// the event loop and take every session with them.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tb::field {

using Json = nlohmann::json;

// The field, or nullptr when `object` is not an object or has no such key.
inline const Json* Find(const Json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// Absent and present-but-null read as nullopt; so does a value of another type.
inline std::optional<std::string> String(const Json& object, std::string_view key) {
  const Json* v = Find(object, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->get_ref<const std::string&>();
}

inline std::optional<bool> Bool(const Json& object, std::string_view key) {
  const Json* v = Find(object, key);
  if (v == nullptr || !v->is_boolean()) return std::nullopt;
  return v->get<bool>();
}

// An integer that fits int64_t (3.0 counts, as in JSON Schema; 1e300 does not).
inline std::optional<std::int64_t> AsInt(const Json& v) {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return v.get<std::int64_t>();
  }
  if (!v.is_number_float()) return std::nullopt;
  const double d = v.get<double>();
  // 2^63 is exact in a double; anything at or past it would overflow the cast.
  if (!std::isfinite(d) || std::trunc(d) != d || d >= 9223372036854775808.0 || d < -9223372036854775808.0) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(d);
}

inline std::optional<std::int64_t> Int(const Json& object, std::string_view key) {
  const Json* v = Find(object, key);
  return v == nullptr ? std::nullopt : AsInt(*v);
}

inline std::optional<double> Number(const Json& object, std::string_view key) {
  const Json* v = Find(object, key);
  if (v == nullptr || !v->is_number()) return std::nullopt;
  return v->get<double>();
}

// The object (or array) field, or an empty one of that kind.
inline Json Object(const Json& object, std::string_view key) {
  const Json* v = Find(object, key);
  return v != nullptr && v->is_object() ? *v : Json::object();
}

inline Json Array(const Json& object, std::string_view key) {
  const Json* v = Find(object, key);
  return v != nullptr && v->is_array() ? *v : Json::array();
}

// Any value, null when absent.
inline Json Any(const Json& object, std::string_view key) {
  const Json* v = Find(object, key);
  return v != nullptr ? *v : Json();
}

// Whether the field is absent (or null) or of the wanted kind: for requests
// that must answer -32602 to a present field of the wrong type.
inline bool AbsentOrString(const Json& object, std::string_view key) {
  const Json* v = Find(object, key);
  return v == nullptr || v->is_null() || v->is_string();
}

}  // namespace tb::field
