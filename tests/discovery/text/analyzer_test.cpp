// Analyzer: the whole pipeline, so that a query and a record agree.
#include "discovery/text/analyzer.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

namespace skillnode::discovery::text {
namespace {

using Strings = std::vector<std::string>;

Analyzer Make(std::string_view language = Analyzer::kDefaultLanguage) {
  transport::Result<Analyzer> analyzer = Analyzer::Create(language);
  REQUIRE(analyzer.has_value());
  return std::move(*analyzer);
}

TEST_CASE("the analyzer tokenises, drops stop words and stems, in English by default", "[unit]") {
  Analyzer analyzer = Make();
  CHECK(analyzer.language() == "english");
  CHECK(analyzer.Analyze("Summarises the files of a meeting") == Strings{"summar", "file", "meet"});
}

TEST_CASE("a query and a record written differently give the same terms", "[unit]") {
  Analyzer analyzer = Make();
  CHECK(analyzer.Analyze("summarize PDF files") == analyzer.Analyze("Summarising the pdf file"));
  CHECK(analyzer.Analyze("summarise") == analyzer.Analyze("summarizes"));
  CHECK(analyzer.Analyze("Analyse logs") == analyzer.Analyze("analyzing log"));
  CHECK(analyzer.Analyze("Feishu-Calendar") == analyzer.Analyze("feishu calendars"));
}

TEST_CASE("the analyzer leaves CJK bigrams and digits unstemmed", "[unit]") {
  Analyzer analyzer = Make();
  CHECK(analyzer.Analyze("翻译 japanese texts, mp3 2024") ==
        Strings{"翻译", "japanes", "text", "mp3", "2024"});
}

TEST_CASE("a text of stop words only is kept, stemmed", "[unit]") {
  Analyzer analyzer = Make();
  CHECK(analyzer.Analyze("the who") == Strings{"the", "who"});
}

TEST_CASE("an acronym's plural, which Snowball leaves alone, is folded for English", "[unit]") {
  Analyzer analyzer = Make();
  CHECK(analyzer.Analyze("PDFs LLMs") == Strings{"pdf", "llm"});  // Porter2's step 1a would not
  Analyzer german = Make("german");
  CHECK(german.Analyze("pdfs") == Strings{"pdfs"});
}

TEST_CASE("British spellings are folded only for English", "[unit]") {
  Analyzer german = Make("german");
  CHECK(german.Analyze("organisation") != german.Analyze("organization"));
}

TEST_CASE("a German analyzer uses German stop words and stems", "[unit]") {
  Analyzer analyzer = Make("german");
  CHECK(analyzer.Analyze("Die Übersetzung der Kalender") ==
        analyzer.Analyze("übersetzungen kalendern"));
}

TEST_CASE("an analyzer for a language with a stemmer but no stop words still stems", "[unit]") {
  Analyzer analyzer = Make("spanish");
  CHECK(analyzer.Analyze("traducciones") == analyzer.Analyze("traducción"));
}

TEST_CASE("each analysed term comes with the word it was made of, case-folded and unstemmed",
          "[unit]") {
  Analyzer analyzer = Make();
  using Words = std::vector<AnalyzedWord>;
  CHECK(analyzer.AnalyzeWords("Summarising the PDFs") ==
        Words{{"summar", "summarising"}, {"pdf", "pdfs"}});
  CHECK(analyzer.AnalyzeWords("Feishu Calendar 翻译") ==
        Words{{"feishu", "feishu"}, {"calendar", "calendar"}, {"翻译", "翻译"}});
  // The terms are Analyze's.
  std::vector<std::string> terms;
  for (const AnalyzedWord& word : analyzer.AnalyzeWords("Translating Japanese calenders")) {
    terms.push_back(word.term);
  }
  CHECK(terms == analyzer.Analyze("Translating Japanese calenders"));
}

TEST_CASE("an analyzer for an unknown language is refused", "[unit]") {
  transport::Result<Analyzer> analyzer = Analyzer::Create("klingon");
  REQUIRE_FALSE(analyzer.has_value());
  CHECK(analyzer.error().code == transport::ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace skillnode::discovery::text
