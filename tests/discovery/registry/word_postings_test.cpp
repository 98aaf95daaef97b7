// WordPostings (discovery/registry/word_postings.h) on its own: registrations filed by their words,
// the candidates of a text read under its most selective term (its own word, its alternatives, the
// words the last term begins), never missing a registration whose words match, the limit on a
// prefix's words, and removal forgetting every word.
#include "discovery/registry/word_postings.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/records.h"

namespace skillnode::discovery {
namespace {

using Slot = WordPostings::Slot;

// An entry whose words are given (SkillEntry::Words is not consulted here).
struct Filed {
  SkillEntryPtr entry;
  std::vector<std::string> words;  // sorted, distinct
};

Filed Make(const std::string& skill, std::vector<std::string> words) {
  std::sort(words.begin(), words.end());
  return Filed{SkillEntry::Make(testing::SampleRecord("agent-001", skill)), std::move(words)};
}

// The skill ids of the candidates, sorted; "*" when the postings cannot narrow them.
std::vector<std::string> SkillsOf(const WordPostings& postings, const text::QueryTerms& terms) {
  const auto slots = postings.Candidates(terms);
  if (!slots) return {"*"};
  std::vector<std::string> out;
  for (Slot slot : *slots) out.push_back((*slot)->record().skill_id);
  std::sort(out.begin(), out.end());
  return out;
}

text::QueryTerms Terms(std::vector<std::string> terms) { return text::QueryTerms(terms); }

TEST_CASE("word postings give the registrations holding the rarest term of a text", "[unit]") {
  WordPostings postings;
  const Filed a = Make("a", {"calendar", "book", "feishu"});
  const Filed b = Make("b", {"calendar", "invoic"});
  const Filed c = Make("c", {"calendar", "book", "invoic"});
  for (const Filed* f : {&a, &b, &c}) postings.Add(&f->entry, f->words);
  CHECK(postings.words() == 4);
  CHECK(postings.postings() == 8);
  // "feishu" is held by one: only it is read, though "calendar" is held by all three.
  CHECK(SkillsOf(postings, Terms({"feishu", "calendar"})) == std::vector<std::string>{"a"});
  // The last term also as a prefix: "boo" begins "book".
  CHECK(SkillsOf(postings, Terms({"calendar", "boo"})) == std::vector<std::string>{"a", "c"});
  // A term nobody holds: nothing can match.
  CHECK(SkillsOf(postings, Terms({"zebra", "calendar"})).empty());
  // No terms: nothing to narrow by.
  CHECK(SkillsOf(postings, text::QueryTerms{}) == std::vector<std::string>{"*"});
}

TEST_CASE("word postings read a term's alternatives as well as the term", "[unit]") {
  WordPostings postings;
  const Filed a = Make("a", {"calendar"});
  const Filed b = Make("b", {"calend"});
  const Filed c = Make("c", {"agenda"});
  for (const Filed* f : {&a, &b, &c}) postings.Add(&f->entry, f->words);
  text::QueryTerms terms = Terms({"calendr", "x"});
  CHECK(SkillsOf(postings, terms).empty());
  terms.AddAlternative(0, "calendar");
  terms.AddAlternative(0, "calend");
  terms.AddAlternative(1, "calendar");
  // Term 0 reads two postings of one each, term 1 one: term 1 narrows the search.
  CHECK(SkillsOf(postings, terms) == std::vector<std::string>{"a"});
  // Alone, term 0 gives those holding either alternative.
  text::QueryTerms alone = Terms({"calendr"});
  alone.AddAlternative(0, "calendar");
  alone.AddAlternative(0, "calend");
  CHECK(SkillsOf(postings, alone) == std::vector<std::string>{"a", "b"});
}

TEST_CASE("the candidates hold every registration whose words match the text", "[unit]") {
  // Every combination of a small vocabulary, against texts of one and two terms with and
  // without alternatives: the candidates always include the matches the matcher finds.
  const std::vector<std::string> vocabulary = {"book", "booking", "cal", "calendar", "invoic"};
  std::vector<Filed> filed;
  for (unsigned mask = 1; mask < (1u << vocabulary.size()); ++mask) {
    std::vector<std::string> words;
    for (size_t i = 0; i < vocabulary.size(); ++i) {
      if (mask & (1u << i)) words.push_back(vocabulary[i]);
    }
    filed.push_back(Make("skill-" + std::to_string(mask), words));
  }
  WordPostings postings;
  for (const Filed& f : filed) postings.Add(&f.entry, f.words);
  const std::vector<std::string> probes = {"book", "boo", "cal", "calendar", "invoic", "zz", "b"};
  size_t narrowed = 0;
  for (const std::string& first : probes) {
    for (const std::string& last : probes) {
      for (bool alternative : {false, true}) {
        text::QueryTerms terms = Terms({first, last});
        if (alternative) terms.AddAlternative(0, "invoic");
        const auto slots = postings.Candidates(terms);
        REQUIRE(slots.has_value());
        if (slots->size() < filed.size()) ++narrowed;
        for (const Filed& f : filed) {
          const bool candidate =
              std::binary_search(slots->begin(), slots->end(), &f.entry, std::less<>());
          if (terms.AllMatched(f.words)) CHECK(candidate);
        }
      }
    }
  }
  CHECK(narrowed > 0);
}

TEST_CASE("a last term beginning more words than the limit does not narrow the candidates",
          "[unit]") {
  WordPostings postings(2);
  const Filed a = Make("a", {"book", "booking", "bookmark", "invoic"});
  const Filed b = Make("b", {"booklet"});
  for (const Filed* f : {&a, &b}) postings.Add(&f->entry, f->words);
  // "book" begins four words, more than two: alone it cannot narrow the search.
  CHECK(SkillsOf(postings, Terms({"book"})) == std::vector<std::string>{"*"});
  // With another term, that one narrows it.
  CHECK(SkillsOf(postings, Terms({"invoic", "book"})) == std::vector<std::string>{"a"});
  // As a term that is not the last, it is read as one word.
  CHECK(SkillsOf(postings, Terms({"book", "zz"})).empty());
}

TEST_CASE("removing a registration forgets it under every word", "[unit]") {
  WordPostings postings;
  const Filed a = Make("a", {"calendar", "feishu"});
  const Filed b = Make("b", {"calendar"});
  postings.Add(&a.entry, a.words);
  postings.Add(&b.entry, b.words);
  postings.Remove(&a.entry, a.words);
  CHECK(postings.words() == 1);
  CHECK(postings.postings() == 1);
  CHECK(SkillsOf(postings, Terms({"feishu"})).empty());
  CHECK(SkillsOf(postings, Terms({"calendar"})) == std::vector<std::string>{"b"});
  postings.Remove(&b.entry, b.words);
  CHECK(postings.words() == 0);
  CHECK(postings.postings() == 0);
}

}  // namespace
}  // namespace skillnode::discovery
