// The audit log's entries, apart from the file: the line Append writes, the
// error detail, the human-readable form, the rotated names (audit_log.h).
// Built on every platform; the file itself is audit_log.cpp (POSIX) or
// audit_log_windows.cpp.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <utility>

#include "common/audit_log.h"

namespace tb::audit {
namespace {

// The longest prefix of `text` of at most `max` bytes that does not end inside
// a UTF-8 sequence.
std::size_t Utf8Cut(std::string_view text, std::size_t max) {
  if (text.size() <= max) return text.size();
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

std::string CutField(std::string_view text) {
  if (text.size() <= kMaxFieldBytes) return std::string(text);
  constexpr std::string_view kEllipsis = "…";
  return std::string(text.substr(0, Utf8Cut(text, kMaxFieldBytes - kEllipsis.size()))) + std::string(kEllipsis);
}

// A field as text for Format: strings as they are, anything else as JSON.
std::string Text(const Json& entry, const char* key) {
  const auto it = entry.find(key);
  if (it == entry.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : rpc::Dump(*it);
}

// C0 and C1 control characters (and DEL) escaped, so a URL or an error
// message a page chose cannot send escape sequences to the terminal.
std::string Printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    unsigned code = 0x100;
    if (c < 0x20 || c == 0x7F) {
      code = c;
    } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      code = static_cast<unsigned char>(text[++i]);
    }
    if (code == 0x100) {
      out.push_back(text[i]);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", code);
      out += escaped;
    }
  }
  return out;
}

}  // namespace

std::string Now() {
  using namespace std::chrono;
  const auto now = system_clock::now();
  const auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  const std::time_t seconds = system_clock::to_time_t(now);
  std::tm utc{};
#ifdef _WIN32
  ::gmtime_s(&utc, &seconds);
#else
  ::gmtime_r(&seconds, &utc);
#endif
  char buffer[40];
  const std::size_t n = std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(buffer + n, sizeof(buffer) - n, ".%03dZ", static_cast<int>(ms));
  return buffer;
}

std::string ErrorDetail(std::string_view message) {
  message = message.substr(0, message.find_first_of("\r\n"));
  // Count characters (UTF-8 lead bytes), keeping room for the "…".
  std::size_t chars = 0;
  for (std::size_t i = 0; i < message.size(); ++i) {
    if ((static_cast<unsigned char>(message[i]) & 0xC0) == 0x80) continue;
    if (++chars == kMaxDetailChars) {
      // message[i] starts character number kMaxDetailChars: is there more?
      std::size_t next = i + 1;
      while (next < message.size() && (static_cast<unsigned char>(message[next]) & 0xC0) == 0x80) ++next;
      if (next >= message.size()) return std::string(message);
      return std::string(message.substr(0, i)) + "…";
    }
  }
  return std::string(message);
}

std::string ToLine(const Entry& entry) {
  nlohmann::ordered_json line;
  line["time"] = entry.time.empty() ? Now() : CutField(entry.time);
  line["session"] = entry.session;
  line["client"] = CutField(entry.client);
  line["tool"] = CutField(entry.tool);
  line["url"] = CutField(entry.url);
  line["outcome"] = CutField(entry.outcome);
  if (!entry.rule.empty()) line["rule"] = CutField(entry.rule);
  if (!entry.detail.empty()) line["detail"] = CutField(entry.detail);
  return line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string RotatedPath(const std::string& path, int i) { return i == 0 ? path : path + "." + std::to_string(i); }

Log::Log(std::string path, std::size_t max_bytes) : path_(std::move(path)), max_bytes_(max_bytes) {}

std::vector<Json> Tail(const std::string& path, std::size_t n) {
  std::vector<Json> entries;
  for (const auto& line : TailLines(path, n)) entries.push_back(Json::parse(line, nullptr, false));
  return entries;
}

std::string Format(const Json& entry) try {
  if (!entry.is_object()) return Printable(rpc::Dump(entry));
  std::vector<std::string> fields;
  auto add = [&](std::string text) {
    if (!text.empty()) fields.push_back(Printable(text));
  };
  add(Text(entry, "time"));
  std::string session = Text(entry, "session");
  if (!session.empty()) session = "session " + session;
  if (const std::string client = Text(entry, "client"); !client.empty()) {
    session += (session.empty() ? "(" : " (") + client + ")";
  }
  add(session);
  for (const char* key : {"tool", "url", "outcome", "rule", "detail"}) add(Text(entry, key));
  std::string out;
  for (const auto& field : fields) {
    if (!out.empty()) out += "  ";
    out += field;
  }
  return out;
} catch (const std::exception&) {
  return "(unreadable entry)";
}

}  // namespace tb::audit
