// Stemmer: English, German and French stems, the rule of which terms are stemmed, and an
// unknown language refused.
#include "discovery/text/stemmer.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

namespace skillnode::discovery::text {
namespace {

Stemmer Make(std::string_view language) {
  transport::Result<Stemmer> stemmer = Stemmer::Create(language);
  REQUIRE(stemmer.has_value());
  return std::move(*stemmer);
}

std::string Word(Stemmer& stemmer, std::string text) {
  return stemmer.Stem(Term{std::move(text), TermKind::kWord});
}

TEST_CASE("the forms of an English word stem alike", "[unit]") {
  Stemmer english = Make("english");
  const std::string summarize = Word(english, "summarize");
  CHECK(Word(english, "summarizes") == summarize);
  CHECK(Word(english, "summarized") == summarize);
  CHECK(Word(english, "summarizing") == summarize);
  CHECK(Word(english, "summarization") == summarize);
  CHECK(Word(english, "summaries") == Word(english, "summary"));
  CHECK(Word(english, "summarise") == Word(english, "summarising"));
  CHECK(Word(english, "translating") == Word(english, "translate"));
  CHECK(Word(english, "calendars") == "calendar");
}

TEST_CASE("Snowball's English stemmer keeps British -ise and the noun summary apart from -ize",
          "[unit]") {
  // Why Analyzer folds British spellings first (english_spelling.h). The noun "summaries"
  // ("summari") and the verb "summarize" ("summar") stay apart: Porter2 strips -ize but keeps
  // the y of "summary" as i. The Vocabulary's one-edit correction reaches one from the other.
  Stemmer english = Make("english");
  CHECK(Word(english, "summarise") == "summaris");
  CHECK(Word(english, "summarize") == "summar");
  CHECK(Word(english, "summaries") == "summari");
}

TEST_CASE("German forms of a word stem alike", "[unit]") {
  Stemmer german = Make("german");
  CHECK(Word(german, "kalender") == Word(german, "kalendern"));
  CHECK(Word(german, "übersetzung") == Word(german, "übersetzungen"));
  CHECK(Word(german, "zusammenfassen") == Word(german, "zusammenfassend"));
}

TEST_CASE("French forms of a word stem alike", "[unit]") {
  Stemmer french = Make("french");
  CHECK(Word(french, "traduction") == Word(french, "traductions"));
  CHECK(Word(french, "résumer") == Word(french, "résumé"));
  CHECK(Word(french, "calendrier") == Word(french, "calendriers"));
}

TEST_CASE("only letter-only words are stemmed: CJK, numbers and words with digits are not",
          "[unit]") {
  Stemmer english = Make("english");
  CHECK(english.Stem(Term{"翻译", TermKind::kCjk}) == "翻译");
  CHECK(english.Stem(Term{"2024", TermKind::kNumber}) == "2024");
  CHECK(english.Stem(Term{"files3", TermKind::kMixed}) == "files3");
  CHECK(english.Stem(Term{"files", TermKind::kWord}) == "file");
}

TEST_CASE("an English stemmer leaves a Cyrillic word as it was", "[unit]") {
  Stemmer english = Make("english");
  CHECK(Word(english, "перевод") == "перевод");
}

TEST_CASE("an unknown language is refused with an error naming the known ones", "[unit]") {
  transport::Result<Stemmer> stemmer = Stemmer::Create("klingon");
  REQUIRE_FALSE(stemmer.has_value());
  CHECK(stemmer.error().code == transport::ErrorCode::kInvalidArgument);
  CHECK(stemmer.error().message.find("klingon") != std::string::npos);
  CHECK(stemmer.error().message.find("english") != std::string::npos);
  CHECK_FALSE(Stemmer::Create("English").has_value());  // names are lower case
  CHECK_FALSE(Stemmer::Create("").has_value());
}

TEST_CASE("the languages are libstemmer's, sorted", "[unit]") {
  const std::vector<std::string> languages = Stemmer::Languages();
  CHECK(std::is_sorted(languages.begin(), languages.end()));
  for (const char* name : {"english", "german", "french", "russian", "spanish"}) {
    CHECK(std::find(languages.begin(), languages.end(), name) != languages.end());
    CHECK(Stemmer::Create(name).has_value());
  }
}

TEST_CASE("a stemmer moved keeps working and reports its language", "[unit]") {
  Stemmer first = Make("english");
  Stemmer second = std::move(first);
  CHECK(second.language() == "english");
  CHECK(Word(second, "searching") == "search");
}

}  // namespace
}  // namespace skillnode::discovery::text
