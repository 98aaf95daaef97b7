// StopWords: the lists per language, their normalised form, and the drop-unless-all rule.
#include "discovery/text/stop_words.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "discovery/text/tokenizer.h"

namespace skillnode::discovery::text {
namespace {

std::vector<std::string> Filtered(const StopWords& stop_words, std::string_view text) {
  std::vector<std::string> texts;
  for (const Term& term : stop_words.Filter(Tokenizer().Tokenize(text))) {
    texts.push_back(term.text);
  }
  return texts;
}

using Strings = std::vector<std::string>;

TEST_CASE("the English list holds Snowball's stop words and not content words", "[unit]") {
  const StopWords english = StopWords::ForLanguage("english");
  CHECK(english.Contains("the"));
  CHECK(english.Contains("ourselves"));
  CHECK(english.Contains("doesn"));  // "doesn't" as the Tokenizer splits it
  CHECK_FALSE(english.Contains("calendar"));
  CHECK_FALSE(english.Contains("can"));
  CHECK_FALSE(english.Contains("The"));  // the list is in normalised form
  CHECK(english.size() == 145);  // 124 of Snowball's words, 21 fragments of its contractions
}

TEST_CASE("the German and French lists are normalised as the Tokenizer normalises", "[unit]") {
  const StopWords german = StopWords::ForLanguage("german");
  CHECK(german.Contains("und"));
  CHECK(german.Contains("dass"));  // "daß", case-folded
  CHECK_FALSE(german.Contains("daß"));
  CHECK(german.Contains("über"));
  const StopWords french = StopWords::ForLanguage("french");
  CHECK(french.Contains("les"));
  CHECK(french.Contains("été"));
  CHECK_FALSE(french.Contains("the"));
}

TEST_CASE("a language without a list has no stop words", "[unit]") {
  CHECK(StopWords::ForLanguage("finnish").size() == 0);
  CHECK(StopWords::ForLanguage("klingon").size() == 0);
  CHECK(StopWords::Languages() == Strings{"english", "german", "french"});
}

TEST_CASE("filtering drops a text's stop words and keeps its other terms in order", "[unit]") {
  const StopWords english = StopWords::ForLanguage("english");
  CHECK(Filtered(english, "Summarise the PDF and translate it") ==
        Strings{"summarise", "pdf", "translate"});
  CHECK(Filtered(english, "an 日本語 text") == Strings{"日本", "本語", "text"});
}

TEST_CASE("a text made only of stop words keeps them all, so such a query still searches",
          "[unit]") {
  const StopWords english = StopWords::ForLanguage("english");
  CHECK(Filtered(english, "The Who") == Strings{"the", "who"});
  CHECK(Filtered(english, "") == Strings{});
}

}  // namespace
}  // namespace skillnode::discovery::text
