// WordCandidates (discovery/search/words/word_candidates.h): the intersection first, then the
// candidates covering most terms, heaviest first.
#include "discovery/search/words/word_candidates.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "discovery/search/word_fakes.h"
#include "discovery/text/analyzer.h"
#include "discovery/text/bm25.h"
#include "discovery/text/query_terms.h"
#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

constexpr double kK1 = text::Bm25Config::kK1Default;

kademlia::store::TermPointer Pointer(const std::string& skill, const std::string& term,
                                     double weight) {
  return PointerOf(skillnode::testing::SampleRecord("agent-001", skill), term, weight);
}

// BM25's saturation of a weight, as WordCandidates estimates with it.
double Saturated(double weight) { return weight * (kK1 + 1) / (weight + kK1); }

// `pointer`, carrying the profile of `terms` (term, weight).
kademlia::store::TermPointer Profiled(kademlia::store::TermPointer pointer,
                                      const std::vector<std::pair<std::string, double>>& terms) {
  std::vector<std::pair<std::string_view, uint32_t>> centi;
  for (const auto& [term, weight] : terms) {
    centi.emplace_back(term, static_cast<uint32_t>(weight * 100));
  }
  pointer.terms = kademlia::store::TermProfile::Of(centi);
  return pointer;
}

TEST_CASE("candidates covering every term come first, then by their estimated score", "[unit]") {
  WordCandidates candidates(2, kK1);
  const std::vector<kademlia::store::TermPointer> feishu = {
      Pointer("both", "feishu", 1), Pointer("heavy", "feishu", 9), Pointer("both", "feishu", 2)};
  const std::vector<kademlia::store::TermPointer> calendar = {Pointer("both", "calendar", 3),
                                                              Pointer("light", "calendar", 1)};
  candidates.Add(0, feishu);
  candidates.Add(1, calendar);
  const std::vector<WordCandidate> best = candidates.Best(10);
  REQUIRE(best.size() == 3);
  CHECK(best[0].identity.skill_id == "both");
  CHECK(best[0].terms_covered == 2);
  // Its heaviest feishu pointer, 2, and calendar, 3.
  CHECK(best[0].estimate == Approx(Saturated(2) + Saturated(3)));
  CHECK(best[0].record_key == kademlia::store::SkillKey("both"));
  CHECK(best[1].identity.skill_id == "heavy");
  CHECK(best[2].identity.skill_id == "light");
  CHECK(candidates.Best(1).size() == 1);
}

TEST_CASE("a rare term read to its end puts its skills before a common term's heavier ones",
          "[unit]") {
  // "kakil" was read in full: one skill holds it. "tutu" was read only so far, 3 heavier
  // pointers; the skill holding both is not among them and its text does not say "tutu".
  WordCandidates candidates(2, kK1);
  candidates.Add(0, std::vector<kademlia::store::TermPointer>{Pointer("rare", "kakil", 1)});
  candidates.Add(1, std::vector<kademlia::store::TermPointer>{
                        Pointer("a", "tutu", 1), Pointer("b", "tutu", 1), Pointer("c", "tutu", 1)});
  // Open, every candidate covers one term: the common term's heavier pointers may come first.
  CHECK(candidates.Best(4)[0].identity.skill_id == "a");
  candidates.Close(0);
  const std::vector<WordCandidate> best = candidates.Best(2);
  REQUIRE(best.size() == 2);
  CHECK(best[0].identity.skill_id == "rare");
  CHECK(best[0].covers_closed);
  CHECK_FALSE(best[1].covers_closed);
  // Closing the common term too: nobody covers both, the order is by terms and weight again.
  candidates.Close(1);
  CHECK(candidates.Best(4)[0].identity.skill_id == "a");
}

TEST_CASE("a term a pointer's name or description holds counts as covered, at weight 1", "[unit]") {
  // "translat" was read only so far: its list lacks "cut", whose invoice pointer names it.
  kademlia::store::TermPointer cut = Pointer("cut", "invoic", 4);
  cut.name = "Translate Invoices";
  cut.description = "Translates invoices into English.";
  kademlia::store::TermPointer other = Pointer("other", "invoic", 9);
  other.name = "Sign Invoices";
  other.description = "Signs invoices.";
  WordCandidates candidates(2, kK1);
  candidates.Add(0, std::vector<kademlia::store::TermPointer>{Pointer("read", "translat", 5)});
  candidates.Add(1, std::vector<kademlia::store::TermPointer>{cut, other});
  text::Analyzer analyzer = text::Analyzer::Create().value();
  const text::QueryTerms query = text::QueryTerms::Of(analyzer, "translating invoices");
  int analysed = 0;
  candidates.CreditFromText(
      [&](const std::string& text) {
        ++analysed;
        std::vector<std::string> terms = analyzer.Analyze(text);
        std::sort(terms.begin(), terms.end());
        terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
        return terms;
      },
      query);
  CHECK(analysed == 3);  // each candidate's text once
  const std::vector<WordCandidate> best = candidates.Best(10);
  REQUIRE(best.size() == 3);
  CHECK(best[0].identity.skill_id == "cut");
  CHECK(best[0].terms_covered == 2);
  CHECK(best[0].estimate == Approx(Saturated(4) + Saturated(0.01)));
  CHECK(best[1].terms_covered == 1);
  CHECK(best[2].terms_covered == 1);
}

TEST_CASE("saturation ranks two middling weights above one heavy and one light", "[unit]") {
  // Summed, 6 + 0.5 outweighs 2 + 2; BM25 saturates each term, and ranks the other way.
  WordCandidates candidates(2, kK1);
  candidates.Add(0, std::vector<kademlia::store::TermPointer>{Pointer("lopsided", "feishu", 6),
                                                              Pointer("even", "feishu", 2)});
  candidates.Add(1, std::vector<kademlia::store::TermPointer>{Pointer("lopsided", "calendar", 0.5),
                                                              Pointer("even", "calendar", 2)});
  const std::vector<WordCandidate> best = candidates.Best(2);
  REQUIRE(best.size() == 2);
  CHECK(best[0].identity.skill_id == "even");
  CHECK(best[0].estimate > best[1].estimate);
}

TEST_CASE("a term a pointer's profile holds counts as covered, at the profile's weight", "[unit]") {
  // "kakil" was read in full; "tutu" only its three heaviest pointers, none of them "both"'s.
  // "both"'s kakil pointer says its record holds "tutus", the completion read for "tutu".
  WordCandidates candidates(2, kK1);
  candidates.Add(0, std::vector<kademlia::store::TermPointer>{
                        Profiled(Pointer("both", "kakil", 1), {{"kakil", 1}, {"tutus", 3}}),
                        Profiled(Pointer("one", "kakil", 2), {{"kakil", 2}, {"other", 3}}),
                        Pointer("old", "kakil", 5)});
  candidates.Add(1, std::vector<kademlia::store::TermPointer>{
                        Pointer("a", "tutu", 9), Pointer("b", "tutu", 9), Pointer("c", "tutu", 9)});
  candidates.Close(0);
  candidates.CreditFromProfiles({{"kakil"}, {"tutu", "tutus"}});
  const std::vector<WordCandidate> best = candidates.Best(10);
  REQUIRE(best.size() == 6);
  CHECK(best[0].identity.skill_id == "both");
  CHECK(best[0].terms_covered == 2);
  CHECK(best[0].estimate == Approx(Saturated(1) + Saturated(3)));
  // A profile without the term, or no profile (a pointer of the version before): one term.
  CHECK(best[1].identity.skill_id == "old");
  CHECK(best[1].terms_covered == 1);
  CHECK(best[2].identity.skill_id == "one");
  CHECK(best[2].terms_covered == 1);
  CHECK_FALSE(best[3].covers_closed);
}

TEST_CASE("a tombstone pointer leads to no candidate", "[unit]") {
  WordCandidates candidates(1, kK1);
  kademlia::store::TermPointer dead = Pointer("dead", "feishu", 1);
  dead.tombstone = true;
  dead.weight_centi = 0;
  candidates.Add(0, std::vector<kademlia::store::TermPointer>{dead});
  CHECK(candidates.size() == 0);
}

}  // namespace
}  // namespace skillnode::discovery::search
