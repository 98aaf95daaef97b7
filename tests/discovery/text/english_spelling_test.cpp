// EnglishSpelling: British -ise and -yse endings folded to -ize and -yze, short words left alone.
#include "discovery/text/english_spelling.h"

#include <catch2/catch.hpp>

namespace skillnode::discovery::text {
namespace {

TEST_CASE("British -ise forms are folded to -ize in every ending", "[unit]") {
  CHECK(EnglishSpelling::FoldBritish("summarise") == "summarize");
  CHECK(EnglishSpelling::FoldBritish("summarised") == "summarized");
  CHECK(EnglishSpelling::FoldBritish("summarises") == "summarizes");
  CHECK(EnglishSpelling::FoldBritish("summarising") == "summarizing");
  CHECK(EnglishSpelling::FoldBritish("summariser") == "summarizer");
  CHECK(EnglishSpelling::FoldBritish("summarisers") == "summarizers");
  CHECK(EnglishSpelling::FoldBritish("summarisation") == "summarization");
  CHECK(EnglishSpelling::FoldBritish("organisations") == "organizations");
}

TEST_CASE("British -yse forms are folded to -yze", "[unit]") {
  CHECK(EnglishSpelling::FoldBritish("analyse") == "analyze");
  CHECK(EnglishSpelling::FoldBritish("analysing") == "analyzing");
  CHECK(EnglishSpelling::FoldBritish("paralysed") == "paralyzed");
}

TEST_CASE("American spellings and other words are left as they are", "[unit]") {
  CHECK(EnglishSpelling::FoldBritish("summarize") == "summarize");
  CHECK(EnglishSpelling::FoldBritish("calendar") == "calendar");
  CHECK(EnglishSpelling::FoldBritish("houses") == "houses");
  CHECK(EnglishSpelling::FoldBritish("basis") == "basis");
  CHECK(EnglishSpelling::FoldBritish("") == "");
  CHECK(EnglishSpelling::FoldBritish("e") == "e");
}

TEST_CASE("short words such as rise, wise, noise and raise are not folded", "[unit]") {
  CHECK(EnglishSpelling::FoldBritish("rise") == "rise");
  CHECK(EnglishSpelling::FoldBritish("wise") == "wise");
  CHECK(EnglishSpelling::FoldBritish("noise") == "noise");
  CHECK(EnglishSpelling::FoldBritish("raise") == "raise");
  CHECK(EnglishSpelling::FoldBritish("rising") == "rising");
  CHECK(EnglishSpelling::FoldBritish("ise") == "ise");
}

TEST_CASE("an acronym's plural loses its s, a word with a vowel or a double s does not", "[unit]") {
  CHECK(EnglishSpelling::FoldAcronymPlural("pdfs") == "pdf");
  CHECK(EnglishSpelling::FoldAcronymPlural("llms") == "llm");
  CHECK(EnglishSpelling::FoldAcronymPlural("dbs") == "db");
  CHECK(EnglishSpelling::FoldAcronymPlural("ms") == "ms");  // one consonant: too short
  CHECK(EnglishSpelling::FoldAcronymPlural("css") == "css");
  CHECK(EnglishSpelling::FoldAcronymPlural("apis") == "apis");  // a vowel: Porter2's case
  CHECK(EnglishSpelling::FoldAcronymPlural("rhythms") == "rhythms");
  CHECK(EnglishSpelling::FoldAcronymPlural("pdf") == "pdf");
}

}  // namespace
}  // namespace skillnode::discovery::text
