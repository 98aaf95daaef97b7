// WordOracle: the exhaustive answer to a word query over the skills that should be live
// (word_workload.h), ranked as WordSearch ranks what it fetched (discovery/search/words).
//
// The rule is WordSearch's, with the real code: the query analysed by text::TextMatch; a skill
// answers when every query term is among its terms (the last term also as a prefix of one,
// QueryTerms::MatchIn), and the answer is ordered by TextRanking::Rank (BM25F with the default
// field weights, times the health weight, ties by RanksBefore). What differs is only what is
// ranked: every live skill that holds the terms, where WordSearch ranks the records it fetched
// (at most candidates_fetched_max, some of them leads holding only some terms), so BM25F's
// corpus statistics (document count, frequencies, field lengths) are those of the matching
// skills.
//
// To stay cheap at 100,000 skills it keeps an inverted index, term -> skills (sorted), of every
// skill it was given, built once; a query intersects the postings of its terms (the last term's
// as the union over the index terms it begins), smallest first, keeps the skills `live` says
// are live now, and ranks only those. Not thread-safe (owns the TextMatch's Analyzer per query).
#ifndef SKILLNODE_SIM_WORKLOADS_WORD_ORACLE_H_
#define SKILLNODE_SIM_WORKLOADS_WORD_ORACLE_H_

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/search/words/text_ranking.h"
#include "discovery/skill_entry.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::sim::workloads {

// Scores within this relative distance of each other are equal (the same arithmetic on the same
// field lengths gives the same double; this only absorbs summation order).
constexpr double kOracleScoreTieRelative = 1e-9;

struct OracleAnswer {
  std::vector<size_t> top;     // skill indices, best first, at most the n asked for
  std::vector<double> scores;  // their TextRanking scores, same order
  // The skills past the top that score as its last one: the top's cut among them is only the
  // ranking's tie-break (RanksBefore), which WordSearch cannot see before it fetches.
  std::vector<size_t> tied;
  size_t matching = 0;  // live skills holding every term
};

// How many of `found` (a query's top, distinct skills) are right, when the top's last score is
// shared by the skills in `tied`: a skill above that score counts where found; the skills at it
// count for as many places as the top gives that score. An answer is so scored as right when
// it is the oracle's top under some tie-break among equal scores (the oracle's own, RanksBefore,
// orders by status, version and skill id, which no reader can see before it fetches). `strict`
// counts only the top's own skills, the oracle's tie-break included.
struct OracleHits {
  size_t hits = 0;
  size_t strict = 0;
};
OracleHits HitsOf(const OracleAnswer& truth, const std::vector<size_t>& found);

class WordOracle {
 public:
  // Skill i is records[i] (its text fields, ids and status are what is matched and ranked).
  explicit WordOracle(std::vector<kademlia::store::SkillRecord> records,
                      discovery::search::TextRankingConfig ranking = {});

  // The best `n` of the skills `live` accepts for `query` (the text a user types).
  OracleAnswer Top(std::string_view query, size_t n,
                   const std::function<bool(size_t skill)>& live) const;

  size_t size() const { return entries_.size(); }
  // The skills whose terms hold `term` (sorted), empty when none.
  const std::vector<size_t>& Postings(std::string_view term) const;

 private:
  // The skills holding the term `term`, or (prefix) a term it begins, sorted and distinct.
  std::vector<size_t> Holding(const std::string& term, bool prefix) const;

  std::vector<discovery::SkillEntryPtr> entries_;
  std::map<std::string, std::vector<size_t>, std::less<>> postings_;
  discovery::search::TextRanking ranking_;
};

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_WORD_ORACLE_H_
