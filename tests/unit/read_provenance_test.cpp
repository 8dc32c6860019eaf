// host/read_provenance.h: each block of an answer is judged by the documents
// it was read from (issue 42 item 1).
#include "host/read_provenance.h"

#include <gtest/gtest.h>

#include <string>

#include "common/json_field.h"
#include "common/tool_catalog.h"

namespace tb {
namespace {

constexpr const char* kAllowed = "http://127.0.0.1:8000/a.html";
constexpr const char* kDenied = "http://localhost:9000/secret.html";

// localhost is denied; every denial counts its calls.
struct Judge {
  int asked = 0;
  ReadDenial deny = [this](std::string_view url) -> std::optional<Json> {
    ++asked;
    if (url.find("localhost") == std::string_view::npos) return std::nullopt;
    Json denial = tools::ErrorResult("read denied on localhost:9000 (rule: sites localhost; deny all)");
    denial["structuredContent"] = {{"denied", {{"capability", "read"}, {"site", "localhost:9000"}}}};
    return denial;
  };
};

Json Read(std::initializer_list<const char*> urls) {
  Json list = Json::array();
  for (const char* url : urls) list.push_back({{"documentId", "D1"}, {"url", url}});
  return {{"tabbridge/read", list}};
}

Json Block(const std::string& text, const Json& meta) { return {{"type", "text"}, {"text", text}, {"_meta", meta}}; }

std::string Texts(const Json& result) {
  std::string all;
  for (const Json& part : field::Array(result, "content")) all += field::String(part, "text").value_or("") + "\n";
  return all;
}

TEST(JudgeReads, AllowedBlocksAreKeptWithoutTheirMark) {
  Judge judge;
  Json result = {{"content", {Block("page words", Read({kAllowed})), Block("ours", Read({}))}}};
  JudgeReads("snapshot", result, judge.deny);
  EXPECT_EQ(result,
            Json({{"content", {{{"type", "text"}, {"text", "page words"}}, {{"type", "text"}, {"text", "ours"}}}}}));
}

TEST(JudgeReads, ABlockWithoutProvenanceIsDroppedAndTheAnswerSaysSo) {
  Judge judge;
  Json result = {{"content", {Block("ours", Read({})), Json({{"type", "text"}, {"text", "unmarked secret"}})}}};
  JudgeReads("snapshot", result, judge.deny);
  const std::string text = Texts(result);
  EXPECT_EQ(text.find("unmarked secret"), std::string::npos) << text;
  EXPECT_NE(text.find("ours"), std::string::npos) << text;
  EXPECT_NE(text.find("1 block(s) of the answer were left out: they were without provenance"), std::string::npos)
      << text;
  EXPECT_FALSE(result.contains("isError"));
}

TEST(JudgeReads, ABlockOfADeniedDocumentBecomesOneLineNamingTheSite) {
  Judge judge;
  Json result = {{"content", {Block("submitted", Read({})), Block("R1 secret", Read({kAllowed, kDenied}))}}};
  JudgeReads("form_send", result, judge.deny);
  ASSERT_EQ(result["content"].size(), 2u);
  EXPECT_EQ(result["content"][0], Json({{"type", "text"}, {"text", "submitted"}}));
  const std::string line = result["content"][1]["text"];
  EXPECT_EQ(line.find("secret"), std::string::npos) << line;
  EXPECT_NE(line.find("form_send: text of localhost:9000 left out — read denied on localhost:9000"), std::string::npos)
      << line;
  EXPECT_NE(line.find("nothing of it was read"), std::string::npos) << line;
}

TEST(JudgeReads, AMarkTheHostCannotReadFailsClosed) {
  Judge judge;
  Json bad = {{"tabbridge/read", {{{"documentId", "D1"}}}}};  // no url
  Json result = {{"content", {Block("ours", Read({})), Block("text", bad)}}};
  JudgeReads("read_page", result, judge.deny);
  EXPECT_EQ(Texts(result).find("text\n"), std::string::npos);
  EXPECT_NE(Texts(result).find("its document is unknown"), std::string::npos) << Texts(result);
}

TEST(JudgeReads, AReadWithoutAUrlIsWithheld) {
  Judge judge;
  Json result = {{"content", {Block("ours", Read({})), Block("words of nowhere", Read({""}))}}};
  JudgeReads("evaluate", result, judge.deny);
  EXPECT_EQ(Texts(result).find("words of nowhere"), std::string::npos) << Texts(result);
}

TEST(JudgeReads, StructuredContentNeedsItsProvenanceAllowed) {
  Judge judge;
  Json kept = {
      {"content", {Block("x", Read({kAllowed}))}}, {"structuredContent", {{"a", 1}}}, {"_meta", Read({kAllowed})}};
  JudgeReads("read_page", kept, judge.deny);
  EXPECT_EQ(kept["structuredContent"], Json({{"a", 1}}));
  EXPECT_FALSE(kept.contains("_meta"));

  Json denied = {
      {"content", {Block("x", Read({kAllowed}))}}, {"structuredContent", {{"a", 1}}}, {"_meta", Read({kDenied})}};
  JudgeReads("read_page", denied, judge.deny);
  EXPECT_FALSE(denied.contains("structuredContent"));

  Json unmarked = {{"content", {Block("x", Read({kAllowed}))}}, {"structuredContent", {{"a", 1}}}};
  JudgeReads("read_page", unmarked, judge.deny);
  EXPECT_FALSE(unmarked.contains("structuredContent"));
}

TEST(JudgeReads, AnAnswerOfOnlyDeniedTextIsTheDenial) {
  Judge judge;
  Json result = {{"content", {Block("secret", Read({kDenied})), Block("more secret", Read({kDenied}))}},
                 {"structuredContent", {{"text", "secret"}}},
                 {"_meta", Read({kDenied})}};
  JudgeReads("read_page", result, judge.deny);
  EXPECT_EQ(result["isError"], true);
  EXPECT_EQ(result["structuredContent"]["denied"]["site"], "localhost:9000");
  EXPECT_EQ(Texts(result).find("secret"), std::string::npos) << Texts(result);
}

TEST(JudgeReads, AnAnswerOfOnlyUnmarkedBlocksIsAnError) {
  Judge judge;
  Json result = {{"content", {{{"type", "text"}, {"text", "unmarked"}}}}};
  JudgeReads("snapshot", result, judge.deny);
  EXPECT_EQ(result["isError"], true);
  EXPECT_EQ(Texts(result).find("unmarked\n"), std::string::npos) << Texts(result);
}

TEST(JudgeReads, OtherMetaKeysStay) {
  Judge judge;
  Json meta = Read({kAllowed});
  meta["tabbridge/navigatedTo"] = kAllowed;
  Json result = {{"content", {Block("x", Read({}))}}, {"_meta", meta}};
  JudgeReads("click", result, judge.deny);
  EXPECT_EQ(result["_meta"], Json({{"tabbridge/navigatedTo", kAllowed}}));
}

TEST(JudgeReads, EachUrlIsDecidedOnce) {
  Judge judge;
  Json result = {{"content", {Block("a", Read({kAllowed})), Block("b", Read({kAllowed}))}},
                 {"_meta", Read({kAllowed})}};
  JudgeReads("snapshot", result, judge.deny);
  EXPECT_EQ(judge.asked, 1);
}

TEST(JudgeReads, AnImageOfADeniedDocumentGoes) {
  Judge judge;
  Json image = {{"type", "image"}, {"data", "AAAA"}, {"mimeType", "image/png"}, {"_meta", Read({kDenied})}};
  Json result = {{"content", {Block("screenshot of the viewport", Read({})), image}}};
  JudgeReads("screenshot", result, judge.deny);
  EXPECT_EQ(result.dump().find("AAAA"), std::string::npos);
}

}  // namespace
}  // namespace tb
