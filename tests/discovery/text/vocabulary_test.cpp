// Vocabulary: completions of a prefix, one-edit corrections through the deletion index, counts
// deciding the order, CJK and accented terms, and the bound with its eviction.
#include "discovery/text/vocabulary.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "discovery/text/tokenizer.h"

namespace skillnode::discovery::text {
namespace {

using Strings = std::vector<std::string>;

TEST_CASE("completions of a prefix come most frequent first, at most n", "[unit]") {
  Vocabulary vocabulary;
  vocabulary.Note("calendar", 5);
  vocabulary.Note("calculator", 9);
  vocabulary.Note("call", 5);
  vocabulary.Note("camera", 50);
  vocabulary.Note("pdf", 70);
  CHECK(vocabulary.Complete("cal", 10) == Strings{"calculator", "calendar", "call"});
  CHECK(vocabulary.Complete("cal", 2) == Strings{"calculator", "calendar"});
  CHECK(vocabulary.Complete("call", 10) == Strings{"call"});  // a whole word completes itself
  CHECK(vocabulary.Complete("calz", 10) == Strings{});
  CHECK(vocabulary.Complete("", 10) == Strings{});
}

TEST_CASE("completions work on CJK and accented terms", "[unit]") {
  Vocabulary vocabulary;
  vocabulary.Note("翻译");
  vocabulary.Note("翻转");
  vocabulary.Note("résumé", 3);
  vocabulary.Note("résultat");
  CHECK(vocabulary.Complete("翻", 10) == Strings{"翻译", "翻转"});
  CHECK(vocabulary.Complete("rés", 10) == Strings{"résumé", "résultat"});
  CHECK(vocabulary.Complete("res", 10) == Strings{});
}

TEST_CASE("a term one insertion, deletion, substitution or transposition away is a correction",
          "[unit]") {
  Vocabulary vocabulary;
  vocabulary.Note("calendar");
  CHECK(vocabulary.Correct("calender", 5) == Strings{"calendar"});   // substitution
  CHECK(vocabulary.Correct("calendars", 5) == Strings{"calendar"});  // insertion
  CHECK(vocabulary.Correct("calenda", 5) == Strings{"calendar"});    // deletion
  CHECK(vocabulary.Correct("claendar", 5) == Strings{"calendar"});   // transposition
  CHECK(vocabulary.Correct("calendra", 5) == Strings{"calendar"});   // transposition at the end
  CHECK(vocabulary.Correct("xcalendar", 5) == Strings{"calendar"});  // insertion at the front
}

TEST_CASE("a term two edits away, or the term itself, is not a correction", "[unit]") {
  Vocabulary vocabulary;
  vocabulary.Note("calendar");
  vocabulary.Note("ab");
  CHECK(vocabulary.Correct("kalender", 5) == Strings{});
  CHECK(vocabulary.Correct("calendar", 5) == Strings{});
  // "ca" shares the deletion "a" with "ab" but is two edits from it.
  CHECK(vocabulary.Correct("ca", 5) == Strings{});
  CHECK(vocabulary.Correct("ba", 5) == Strings{"ab"});
}

TEST_CASE("the most frequent correction wins", "[unit]") {
  Vocabulary vocabulary;
  vocabulary.Note("cart", 2);
  vocabulary.Note("card", 9);
  vocabulary.Note("care", 9);
  vocabulary.Note("cat", 1);
  CHECK(vocabulary.Correct("carx", 10) == Strings{"card", "care", "cart"});
  CHECK(vocabulary.Correct("carx", 1) == Strings{"card"});
  CHECK(vocabulary.Correct("cax", 10) == Strings{"cat"});
}

TEST_CASE("an accent or a CJK character is one edit", "[unit]") {
  Vocabulary vocabulary;
  vocabulary.Note("café");
  vocabulary.Note("翻译");
  vocabulary.Note("日本語");
  CHECK(vocabulary.Correct("cafe", 5) == Strings{"café"});
  CHECK(vocabulary.Correct("cafè", 5) == Strings{"café"});
  CHECK(vocabulary.Correct("翻泽", 5) == Strings{"翻译"});
  CHECK(vocabulary.Correct("日本", 5) == Strings{"日本語"});
  CHECK(vocabulary.Correct("本日語", 5) == Strings{"日本語"});
}

TEST_CASE("noting adds to a term's count", "[unit]") {
  Vocabulary vocabulary;
  vocabulary.Note("pdf");
  vocabulary.Note("pdf", 4);
  CHECK(vocabulary.CountOf("pdf") == 5);
  CHECK(vocabulary.CountOf("absent") == 0);
  CHECK(vocabulary.size() == 1);
}

TEST_CASE("a full vocabulary evicts the least recently noted term, index and all", "[unit]") {
  Vocabulary vocabulary(3);
  vocabulary.Note("alpha", 100);
  vocabulary.Note("beta");
  vocabulary.Note("gamma");
  vocabulary.Note("alpha");  // alpha is now the most recent; beta the least
  vocabulary.Note("delta");
  CHECK(vocabulary.size() == 3);
  CHECK_FALSE(vocabulary.Contains("beta"));
  CHECK(vocabulary.Contains("alpha"));
  CHECK(vocabulary.Contains("gamma"));
  CHECK(vocabulary.Contains("delta"));
  CHECK(vocabulary.Correct("bets", 5) == Strings{});
  CHECK(vocabulary.Complete("be", 5) == Strings{});
  CHECK(vocabulary.Correct("gama", 5) == Strings{"gamma"});
}

TEST_CASE("the vocabulary stays within its bound under many terms", "[unit]") {
  Vocabulary vocabulary(50);
  for (int i = 0; i < 1000; ++i) vocabulary.Note("term" + std::to_string(i));
  CHECK(vocabulary.size() == 50);
  CHECK(vocabulary.Contains("term999"));
  CHECK_FALSE(vocabulary.Contains("term949"));
  // Left are term950 to term999; one digit inserted into "term99" makes term990 to term999
  // and term959, term969, term979, term989; counts tie, so byte-wise order.
  CHECK(vocabulary.Correct("term99", 5) ==
        Strings{"term959", "term969", "term979", "term989", "term990"});
}

TEST_CASE("an empty term or one longer than the Tokenizer's bound is not kept", "[unit]") {
  Vocabulary vocabulary;
  vocabulary.Note("");
  vocabulary.Note(std::string(Tokenizer::kTermBytesMax + 1, 'x'));
  CHECK(vocabulary.size() == 0);
  CHECK(vocabulary.Correct(std::string(100000, 'x'), 5) == Strings{});
}

}  // namespace
}  // namespace skillnode::discovery::text
