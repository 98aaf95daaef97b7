// The word search's free text (node/api/query_text.h): its words, and the limits every
// surface refuses a `q` by.
#include "node/api/query_text.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::node::api {
namespace {

TEST_CASE("a query's words are its runs of characters between white space", "[unit]") {
  CHECK(QueryWords("  summarise \t pdfs\r\n") == std::vector<std::string>{"summarise", "pdfs"});
  CHECK(QueryWords("feishu-calendar 日本語") ==
        std::vector<std::string>{"feishu-calendar", "日本語"});
  CHECK(QueryWords("").empty());
  CHECK(QueryWords(" \t ").empty());
}

TEST_CASE("a q within the limits is kept as sent; white space alone is no q", "[unit]") {
  CHECK(CheckQueryText("summarising pdfs") == std::string("summarising pdfs"));
  CHECK(CheckQueryText("翻译 japanese ") == std::string("翻译 japanese "));
  CHECK(CheckQueryText("   ") == std::string());
  CHECK(CheckQueryText(std::string(kQueryTextBytesMax, 'a')) ==
        std::string(kQueryTextBytesMax, 'a'));
}

TEST_CASE("a q over the byte limit, not UTF-8 or with too many words is refused, saying why",
          "[unit]") {
  const auto too_long = CheckQueryText(std::string(kQueryTextBytesMax + 1, 'a'));
  REQUIRE_FALSE(too_long);
  CHECK(too_long.error() == "must be at most 256 bytes (it has 257)");
  const auto not_utf8 = CheckQueryText("pdf \xC0\xAF");
  REQUIRE_FALSE(not_utf8);
  CHECK(not_utf8.error() == "must be UTF-8 text");
  std::string words;
  for (size_t i = 0; i <= kQueryWordsMax; ++i) words += "w ";
  const auto too_many = CheckQueryText(words);
  REQUIRE_FALSE(too_many);
  CHECK(too_many.error() == "must have at most 16 words (it has 17)");
  words.resize(words.size() - 2);  // exactly kQueryWordsMax words
  CHECK(CheckQueryText(words));
}

}  // namespace
}  // namespace skillnode::node::api
