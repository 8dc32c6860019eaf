// common/page_text.h: the one cleaner of page text (issue 29, finding 6).
#include "common/page_text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

namespace tb::page_text {
namespace {

std::string Keep(std::string_view text) { return Clean(text, Lines::kKeep); }

TEST(PageText, DropsTagCharacters) {
  // "ok" + "ign" in tag characters + a cancel tag.
  EXPECT_EQ(Keep("ok\U000E0069\U000E0067\U000E006E\U000E007F!"), "ok!");
  EXPECT_EQ(Keep("\U000E0001\U000E0020"), "");
}

TEST(PageText, DropsBidiControls) {
  EXPECT_EQ(Keep("a\u202Ab\u202Bc\u202Cd\u202De\u202Ef"), "abcdef");
  EXPECT_EQ(Keep("a\u2066b\u2067c\u2068d\u2069e"), "abcde");
  EXPECT_EQ(Keep("a\u200Eb\u200Fc\u061Cd"), "abcd");
}

TEST(PageText, MakesLineAndParagraphSeparatorsNewlines) {
  EXPECT_EQ(Keep("one\u2028two\u2029three"), "one\ntwo\nthree");
  EXPECT_EQ(Keep("a\r\nb\rc\vd\fe"), "a\nb\nc\nd\ne");
  EXPECT_EQ(Keep("a\xC2\x85"
                 "b"),
            "a\nb");  // NEL
}

TEST(PageText, DropsZeroWidthCharacters) {
  EXPECT_EQ(Keep("a\u200Bb\u200Cc\u200Dd\u2060e\u2061f\u2064g\uFEFFh"), "abcdefgh");
  EXPECT_EQ(Keep("soft\u00ADhyphen \u3164blank"), "softhyphen blank");
}

TEST(PageText, KeepsAJoinerOrSelectorOneAtATimeNeverARun) {
  EXPECT_EQ(Keep("\U0001F469\u200D\U0001F680"), "\U0001F469\u200D\U0001F680");      // woman astronaut
  EXPECT_EQ(Keep("\u2764\uFE0F\u200D\U0001F525"), "\u2764\uFE0F\u200D\U0001F525");  // heart on fire
  EXPECT_EQ(Keep("🏳️‍🌈 1️⃣ ©️ ↔︎ 👩🏽‍🚀"),
            "🏳️‍🌈 1️⃣ ©️ ↔︎ 👩🏽‍🚀");
  EXPECT_EQ(Keep("a\u200Db"), "ab");
  EXPECT_EQ(Keep("\U0001F469\u200D\nx"), "\U0001F469\nx");
  EXPECT_EQ(Keep("ok︁︂󠄀󠇯go"), "okgo");               // selectors after a letter spell bytes
  EXPECT_EQ(Keep("😀️️‍️︎"), "😀️");  // a run after an emoji keeps the first
  EXPECT_EQ(Keep("\U0001F600 \uFE0F"), "\U0001F600 ");
}

TEST(PageText, DropsControlsButTabAndNewline) {
  EXPECT_EQ(Keep("a\x1b[2Jb\x07\x01\x7F"
                 "c"),
            "a[2Jbc");
  EXPECT_EQ(Keep("a\xC2\x80\xC2\x9B"
                 "b"),
            "ab");  // C1
  EXPECT_EQ(Keep("col1\tcol2\nrow2"), "col1\tcol2\nrow2");
}

TEST(PageText, KeepsMultiLineTextAsItIs) {
  const std::string text = "# Title\n\n  indented line\n\tand a tab\n- item é 漢字 \U0001F600\n\n\n";
  EXPECT_EQ(Cleaned(text), std::nullopt);
  EXPECT_EQ(Keep(text), text);
}

TEST(PageText, ReturnsNothingWhenNothingNeedsCleaning) {
  EXPECT_EQ(Cleaned(""), std::nullopt);
  EXPECT_EQ(Cleaned("plain ascii, with {json} and \"quotes\""), std::nullopt);
  EXPECT_EQ(Cleaned("résumé — naïve • … \uFFFD"), std::nullopt);
  EXPECT_EQ(Cleaned(std::string(1 << 20, 'A')), std::nullopt);  // a base64 string of 1 MB
  // Something to drop at the end only: the text before it.
  EXPECT_EQ(Cleaned("text\u202E"), std::optional<std::string>("text"));
}

TEST(PageText, ReplacesInvalidUtf8) {
  EXPECT_EQ(Keep("a\xFF"
                 "b"),
            "a\uFFFD"
            "b");
  EXPECT_EQ(Keep("a\xC3"), "a\uFFFD");                              // cut short
  EXPECT_EQ(Keep("\xC0\xAF"), "\uFFFD\uFFFD");                      // overlong '/'
  EXPECT_EQ(Keep("\xED\xA0\x80"), "\uFFFD\uFFFD\uFFFD");            // a lone surrogate
  EXPECT_EQ(Keep("\xF4\x90\x80\x80"), "\uFFFD\uFFFD\uFFFD\uFFFD");  // past U+10FFFF
  EXPECT_EQ(Keep("\xE2\x82"
                 "x"),
            "\uFFFD"
            "x");  // the maximal subpart is one replacement
}

TEST(PageText, OneLineModeJoinsWhitespace) {
  EXPECT_EQ(Clean("Add\n\n  a\ttodo", Lines::kJoin), "Add a todo");
  EXPECT_EQ(Clean("  trim  ", Lines::kJoin), "trim");
  EXPECT_EQ(Clean("one\u2028two", Lines::kJoin), "one two");
  EXPECT_EQ(Clean("a \u200B b", Lines::kJoin), "a b");
  EXPECT_EQ(Cleaned("one line already", Lines::kJoin), std::nullopt);
}

TEST(PageText, CleansEveryStringOfAResultButTheImages) {
  const std::string hidden = "x\U000E0069\u202E\u2028y";
  Json result = {
      {"content",
       {{{"type", "text"}, {"text", hidden}},
        {{"type", "image"}, {"data", "iVBOR\u202E"}, {"mimeType", "image/png"}},
        {{"type", "resource"}, {"resource", {{"uri", "file:///a"}, {"blob", "QUJD\u202E"}, {"text", hidden}}}}}},
      {"structuredContent", {{"title", hidden}, {"list", {hidden, 1, true, nullptr}}, {hidden, {{"deep", hidden}}}}}};
  CleanStrings(result);
  const Json& content = result["content"];
  EXPECT_EQ(content[0]["text"], "x\ny");
  EXPECT_EQ(content[1]["data"], "iVBOR\u202E");  // not walked
  EXPECT_EQ(content[2]["resource"]["blob"], "QUJD\u202E");
  EXPECT_EQ(content[2]["resource"]["text"], "x\ny");
  const Json& sc = result["structuredContent"];
  EXPECT_EQ(sc["title"], "x\ny");
  EXPECT_EQ(sc["list"], Json({"x\ny", 1, true, nullptr}));
  ASSERT_TRUE(sc.contains("x\ny"));  // keys too
  EXPECT_EQ(sc["x\ny"]["deep"], "x\ny");
}

TEST(PageText, CleansDeepNestingWithoutRecursion) {
  Json value = "\u202E";
  for (int i = 0; i < 100000; ++i) value = Json::array({std::move(value)});
  CleanStrings(value);
  const Json* inner = &value;
  while (inner->is_array()) inner = &(*inner)[0];
  EXPECT_EQ(*inner, "");
  // nlohmann destroys nested values iteratively; nothing to undo here.
}

// What no cleaned text holds, whatever went in: invalid UTF-8, or a code
// point the cleaner drops (a joiner or selector only where a pictograph or a
// symbol is right before it).
// The bytes of `text` as \xNN where not printable ASCII, for a failure message.
std::string Shown(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(c);
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0xf]);
    }
  }
  return out;
}

bool Holds(const std::string& text, std::string& why) {
  char32_t last = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    const std::string one = text.substr(i, length);
    if (Cleaned(one) != std::nullopt && one != "\u200D" && one != "\uFE0F" && one != "\uFE0E") {
      why = "byte " + std::to_string(i);
      return true;
    }
    char32_t cp = length == 1 ? lead : lead & (0xff >> (length + 1));
    for (std::size_t k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3f);
    const bool selector = cp == 0xfe0f || cp == 0xfe0e;
    if ((selector && (last == 0x200d || last == 0xfe0f || last == 0xfe0e)) || (cp == 0x200d && last == 0x200d)) {
      why = "a run of joiners or selectors at byte " + std::to_string(i);
      return true;
    }
    last = cp;
    i += length;
  }
  return false;
}

// Random text from pieces that matter (every class above, emoji, broken
// sequences, plain text): the result is valid, holds nothing dropped, and
// cleaning it again changes nothing.
TEST(PageText, AnyInputComesOutValidCleanAndStable) {
  const std::string pieces[] = {"a",        " ",        "\n",         "\t",         "\r",         "\x1b",   "é",
                                "漢",       "\u200D",   "\uFE0F",     "\uFE0E",     "\uFE01",     "\u202E", "\u2028",
                                "\u200B",   "\uFEFF",   "\U000E0041", "\U000E0100", "\U0001F469", "\u2764", "\xC3",
                                "\xED\xA0", "\xF4\x90", "\x80",       "\xFF",       "\xC2\x85",   "\u00AD", "#"};
  std::mt19937 random(29);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(pieces) - 1);
  for (int round = 0; round < 5000; ++round) {
    std::string text;
    for (int n = 0; n < 12; ++n) text += pieces[pick(random)];
    for (const Lines lines : {Lines::kKeep, Lines::kJoin}) {
      const std::string once = Clean(text, lines);
      std::string why;
      ASSERT_FALSE(Holds(once, why)) << why << " in the cleaning of " << Shown(text);
      ASSERT_EQ(Cleaned(once, lines), std::nullopt) << "cleaning again changed " << Shown(once);
    }
  }
}

TEST(PageTextName, IsOneCleanLineCutOnACharacter) {
  EXPECT_EQ(Name("a\u202e b\n\tc\u200b", 48), "a b c");
  EXPECT_EQ(Name("", 48), "");
  const std::string cut = Name(std::string(40, 'x') + "漢漢漢漢", 48);  // 40 + 12 bytes
  EXPECT_LE(cut.size(), 48U);
  EXPECT_EQ(cut, std::string(40, 'x') + "漢…");
}

}  // namespace
}  // namespace tb::page_text
