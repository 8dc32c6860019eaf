#include "common/page_text.h"

#include <cstddef>
#include <vector>

namespace tb::page_text {
namespace {

constexpr char32_t kZeroWidthJoiner = 0x200d;
constexpr std::string_view kReplacement = "\uFFFD";

struct CodePoint {
  char32_t cp = 0;
  std::size_t length = 1;
  bool valid = true;
};

// One code point of `text` at `i` (i < size), strictly: an overlong form, a
// surrogate, a value past U+10FFFF or a cut sequence is invalid and spans
// its maximal subpart (the lead byte and the continuation bytes that fit).
CodePoint Decode(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  if (lead < 0x80) return {lead, 1, true};
  std::size_t need = 0;
  char32_t cp = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    need = 1;
    cp = lead & 0x1f;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    need = 2;
    cp = lead & 0x0f;
    if (lead == 0xe0) low = 0xa0;   // overlong
    if (lead == 0xed) high = 0x9f;  // surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    need = 3;
    cp = lead & 0x07;
    if (lead == 0xf0) low = 0x90;   // overlong
    if (lead == 0xf4) high = 0x8f;  // past U+10FFFF
  } else {
    return {0xfffd, 1, false};
  }
  for (std::size_t k = 1; k <= need; ++k) {
    if (i + k >= text.size()) return {0xfffd, k, false};
    const auto byte = static_cast<unsigned char>(text[i + k]);
    if (byte < low || byte > high) return {0xfffd, k, false};
    low = 0x80;
    high = 0xbf;
    cp = (cp << 6) | (byte & 0x3f);
  }
  return {cp, need + 1, true};
}

// Shows nothing, changes how text around it shows, or controls a terminal.
bool IsInvisibleOrControl(char32_t cp) {
  return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||  // C0, DEL, C1
         (cp >= 0x200b && cp <= 0x200f) ||                        // zero-width, LRM/RLM
         (cp >= 0x202a && cp <= 0x202e) ||                        // bidi embeddings and overrides
         (cp >= 0x2066 && cp <= 0x2069) ||                        // bidi isolates
         (cp >= 0x2060 && cp <= 0x2064) ||                        // word joiner, invisible operators
         (cp >= 0x206a && cp <= 0x206f) ||                        // deprecated format characters
         cp == 0x00ad || cp == 0x034f || cp == 0x061c ||          // soft hyphen, grapheme joiner, Arabic mark
         cp == 0x115f || cp == 0x1160 || cp == 0x3164 ||          // Hangul fillers (blank)
         cp == 0xffa0 ||                                          // halfwidth Hangul filler
         (cp >= 0x180b && cp <= 0x180f) ||                        // Mongolian selectors and vowel separator
         (cp >= 0xfff9 && cp <= 0xfffb) ||                        // interlinear annotation
         (cp >= 0x1bca0 && cp <= 0x1bca3) ||                      // shorthand format controls
         (cp >= 0x1d173 && cp <= 0x1d17a) ||                      // musical format controls
         (cp >= 0xe0000 && cp <= 0xe007f) ||                      // tag characters (hidden ASCII)
         cp == 0xfeff;                                            // BOM / zero-width no-break space
}

// What an emoji ZWJ sequence joins (👩‍🚀, ❤️‍🔥, 🏳️‍🌈): pictographs and dingbats.
bool IsPictograph(char32_t cp) { return (cp >= 0x1f000 && cp <= 0x1faff) || (cp >= 0x2600 && cp <= 0x27bf); }

bool IsVariationSelector(char32_t cp) { return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef); }

// What may take the text or emoji presentation selector (U+FE0E, U+FE0F): a
// pictograph, and the symbols and keycap bases that have an emoji form.
bool TakesPresentation(char32_t cp) {
  return IsPictograph(cp) || (cp >= '0' && cp <= '9') || cp == '#' || cp == '*' || cp == 0xa9 || cp == 0xae ||
         cp == 0x203c || cp == 0x2049 || cp == 0x2122 || cp == 0x2139 || (cp >= 0x2190 && cp <= 0x21ff) ||
         (cp >= 0x2300 && cp <= 0x23ff) || (cp >= 0x24c2 && cp <= 0x25ff) || (cp >= 0x2900 && cp <= 0x297f) ||
         (cp >= 0x2b00 && cp <= 0x2bff) || cp == 0x3030 || cp == 0x303d || cp == 0x3297 || cp == 0x3299;
}

// Whitespace that one-line text makes one space.
bool IsSpace(char32_t cp) {
  return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\f' || cp == '\v' || cp == 0xa0 ||
         cp == 0x2028 || cp == 0x2029;
}

// What multi-line text makes a newline ("\r\n" is one).
bool IsLineBreak(char32_t cp) {
  return cp == '\r' || cp == '\f' || cp == '\v' || cp == 0x85 || cp == 0x2028 || cp == 0x2029;
}

// Bytes that go out as they came in, in a run: no decision depends on them
// but the last two (for the emoji rules).
bool IsPlainAscii(unsigned char c, Lines lines) {
  return (c > 0x20 && c < 0x7f) || (lines == Lines::kKeep && (c == ' ' || c == '\n' || c == '\t'));
}

// The output, copied only from the first change on: until then it is the
// input's first `same_` bytes.
class Writer {
 public:
  explicit Writer(std::string_view text) : text_(text) {}

  // Input bytes [start, end) go out unchanged.
  void Keep(std::size_t start, std::size_t end) {
    if (!copying_) {
      if (start == same_) {
        same_ = end;
        return;
      }
      Begin();
    }
    out_.append(text_.substr(start, end - start));
  }
  // Something else goes out in place of what came in.
  void Put(std::string_view replacement) {
    if (!copying_) Begin();
    out_.append(replacement);
  }
  bool empty() const { return copying_ ? out_.empty() : same_ == 0; }
  std::optional<std::string> Finish() {
    if (copying_) return std::move(out_);
    if (same_ == text_.size()) return std::nullopt;
    return std::string(text_.substr(0, same_));  // something at the end was dropped
  }

 private:
  void Begin() {
    copying_ = true;
    out_.reserve(text_.size());
    out_.assign(text_.substr(0, same_));
  }
  std::string_view text_;
  std::string out_;
  bool copying_ = false;
  std::size_t same_ = 0;
};

}  // namespace

std::optional<std::string> Cleaned(std::string_view text, Lines lines) {
  Writer out(text);
  char32_t last = 0;         // the last code point kept (a space for whitespace)
  char32_t before_last = 0;  // and the one before it
  // One-line text: the whitespace run waiting for what follows it.
  bool space = false;
  std::size_t space_start = 0;
  std::size_t space_end = 0;
  const auto keep = [&](char32_t cp) {
    before_last = last;
    last = cp;
  };
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = i;
    if (!space && IsPlainAscii(static_cast<unsigned char>(text[i]), lines)) {
      while (i < text.size() && IsPlainAscii(static_cast<unsigned char>(text[i]), lines)) ++i;
      out.Keep(start, i);
      if (i - start >= 2)
        before_last = static_cast<unsigned char>(text[i - 2]);
      else
        before_last = last;
      last = static_cast<unsigned char>(text[i - 1]);
      continue;
    }
    const CodePoint at = Decode(text, i);
    i += at.length;
    const char32_t cp = at.cp;
    if (lines == Lines::kJoin && IsSpace(cp)) {
      if (!space) space_start = start;
      space_end = i;
      space = !out.empty();  // none at the start
      keep(' ');
      continue;
    }
    if (lines == Lines::kKeep && IsLineBreak(cp)) {
      if (cp == '\r' && i < text.size() && text[i] == '\n') ++i;  // CRLF: one newline
      out.Put("\n");
      keep('\n');
      continue;
    }
    // A zero-width joiner is kept only inside an emoji sequence, between a
    // pictograph (or its emoji selector) and the next pictograph, where it
    // hides no text. A variation selector is kept only as one emoji or text
    // selector right after what takes it: a run of selectors (or of
    // selectors and joiners) shows nothing and can spell anything, a byte a
    // selector.
    const bool after_pictograph = IsPictograph(last) || (last == 0xfe0f && IsPictograph(before_last));
    const bool joins_emoji =
        cp == kZeroWidthJoiner && after_pictograph && i < text.size() && IsPictograph(Decode(text, i).cp);
    const bool presents = (cp == 0xfe0e || cp == 0xfe0f) && TakesPresentation(last);
    const bool tab_or_newline = lines == Lines::kKeep && (cp == '\t' || cp == '\n');
    if ((IsInvisibleOrControl(cp) && !joins_emoji && !tab_or_newline) || (IsVariationSelector(cp) && !presents)) {
      continue;
    }
    if (space) {  // the run before this: one space
      if (space_end - space_start == 1 && text[space_start] == ' ')
        out.Keep(space_start, space_end);
      else
        out.Put(" ");
      space = false;
    }
    if (at.valid)
      out.Keep(start, i);
    else
      out.Put(kReplacement);
    keep(cp);
  }
  return out.Finish();
}

std::string Clean(std::string_view text, Lines lines) {
  auto cleaned = Cleaned(text, lines);
  return cleaned ? std::move(*cleaned) : std::string(text);
}

std::string Cut(std::string text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = max_bytes > 3 ? max_bytes - 3 : 0;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text + "…";
}

std::string Name(std::string_view text, std::size_t max_bytes) { return Cut(Clean(text, Lines::kJoin), max_bytes); }

namespace {

// The key of `object` that holds base64, if it is an MCP content block that has one.
std::string_view BinaryKey(const Json& object) {
  const auto type = object.find("type");
  if (type != object.end() && type->is_string()) {
    const auto& name = type->get_ref<const std::string&>();
    if (name == "image" || name == "audio") return "data";
  }
  if (object.contains("uri") && object.contains("blob")) return "blob";
  return {};
}

}  // namespace

void CleanStrings(Json& value) {
  std::vector<Json*> todo{&value};
  while (!todo.empty()) {
    Json& v = *todo.back();
    todo.pop_back();
    if (v.is_string()) {
      auto& text = v.get_ref<std::string&>();
      if (auto cleaned = Cleaned(text)) text = std::move(*cleaned);
    } else if (v.is_array()) {
      for (Json& item : v) todo.push_back(&item);
    } else if (v.is_object()) {
      // Keys are page text too (a result's structuredContent): rebuilt only when one needs it.
      bool keys_clean = true;
      for (auto it = v.begin(); it != v.end() && keys_clean; ++it) keys_clean = !Cleaned(it.key());
      if (!keys_clean) {
        Json rebuilt = Json::object();
        for (auto it = v.begin(); it != v.end(); ++it) rebuilt[Clean(it.key())] = std::move(it.value());
        v = std::move(rebuilt);
      }
      const std::string_view binary = BinaryKey(v);
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!binary.empty() && it.key() == binary) continue;
        todo.push_back(&it.value());
      }
    }
  }
}

}  // namespace tb::page_text
