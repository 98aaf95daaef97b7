// What the words workload measures (word_workload.h): its counters, one row per measured query
// (words_queries.csv) and the summary written under "words" in summary.json.
//
// recall@10 of a query = the found top 10's hits / |oracle top 10|, over the queries the oracle
// answers (queries whose oracle answer is empty are counted apart, in no_answer). A hit is one
// of the oracle's top 10, or a skill scoring exactly as the oracle's 10th where the top has room
// at that score (HitsOf, word_oracle.h: ties are broken by skill id, which a reader cannot see
// before fetching; a hot word's top score is shared by hundreds of skills). The strict recall
// counts the oracle's own top 10 only. A skill of the oracle's top 10 that the query missed was
// either ranked_out (WordSearch fetched it and it holds every term, but ranked it below its
// 10th: the ranking saw other corpus statistics) or not_fetched (it was not among the records
// WordSearch fetched). Plain data.
#ifndef SKILLNODE_SIM_WORKLOADS_WORD_RESULTS_H_
#define SKILLNODE_SIM_WORKLOADS_WORD_RESULTS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace skillnode::sim::workloads {

// Results compared: the top this many of each answer.
constexpr size_t kWordRecallDepth = 10;
// words_queries.csv keeps at most this many rows per run; later queries are only counted.
constexpr size_t kWordQueriesLoggedMax = 200'000;

struct WordCounters {
  uint64_t corpus_skills = 0;        // the corpus (every slot's share)
  uint64_t published = 0;            // skills handed to Publish (each incarnation's)
  uint64_t publishes_done = 0;       // first publish finished with a STORE acknowledged
  uint64_t index_terms = 0;          // terms handed to Publish with them
  uint64_t queries = 0;              // measured queries started
  uint64_t queries_interrupted = 0;  // the asker stopped before the answer
  uint64_t queries_busy = 0;         // not started: the asker's previous query was still running
  uint64_t queries_checked = 0;      // answered, with an oracle answer that is not empty
  uint64_t queries_no_answer = 0;    // answered, the oracle's answer empty
  uint64_t queries_failed = 0;       // WordSearch said no term could be read
  uint64_t hot_checked = 0;          // checked queries with a hot word
  uint64_t queries_recall_one = 0;
  double recall_sum = 0;
  double recall_strict_sum = 0;
  double hot_recall_sum = 0;
  uint64_t missed_ranked_out = 0;    // oracle top-10 skills fetched but ranked below 10th
  uint64_t missed_not_fetched = 0;   // ... not fetched at all, and why (WordMissCensus):
  uint64_t missed_unplaced = 0;      // a term's pointer not placed yet by its publisher
  uint64_t missed_pointer_lost = 0;  // a term's pointer on none of its key's k closest live nodes
  uint64_t missed_pointer_far = 0;   // ... on some of the k closest, none of the r closest
  uint64_t missed_record_lost = 0;   // the record on none of its key's closest live nodes
  uint64_t missed_fetch_failed = 0;  // all held, and the skill's fetch failed
  uint64_t missed_reader = 0;        // all held where a reader looks, not a candidate fetched
  uint64_t missed_reader_passed_over = 0;  // ... of them, a candidate read and not fetched
  uint64_t missed_reader_placed_late = 0;  // ... of them, a word's pointers placed after the start
  uint64_t missed_publisher_gone = 0;      // not fetched, its publisher's incarnation stopped
  uint64_t found_not_live = 0;             // answered skills the oracle did not count as live
  // The traffic of the measured queries: requests sent (FIND_VALUE for terms and records),
  // replies received, and the UDP payload of both.
  uint64_t query_messages = 0;
  uint64_t query_replies = 0;
  uint64_t query_bytes = 0;

  // Sums every field (corpus_skills too): the lanes' counters add up in lane order.
  WordCounters& operator+=(const WordCounters& other);
};

// One measured query: started, and answered unless its asker stopped first.
struct WordQueryRow {
  bool answered = false;
  double start_s = 0;  // since the simulation's epoch
  uint32_t asker = 0;
  std::string text;
  bool hot = false;
  size_t matching = 0;  // live skills holding every term (the oracle's answer before the cut)
  std::vector<size_t> oracle;  // corpus skill indices, best first
  size_t oracle_tied = 0;      // skills past the oracle's 10 that score as its 10th
  std::vector<size_t> found;
  std::vector<size_t> ranked_out;  // of the oracle's, fetched but ranked out
  double recall = -1;              // -1: the oracle answered nothing
  double recall_strict = -1;       // the oracle's own 10 only
  double latency_ms = 0;
  uint32_t messages = 0;
  uint32_t replies = 0;
  uint64_t bytes = 0;
};

// What a run of the words workload gives, for summary.json.
struct WordSummary {
  WordCounters counters;
  double recall_at_10_mean = 0;         // over checked queries
  double recall_at_10_strict_mean = 0;  // the same, the oracle's own top 10 only
  double recall_at_10_hot_mean = 0;     // over checked queries with a hot word
  double recall_one_share = 0;          // checked queries with recall 1
  double latency_ms_p50 = 0;            // over answered queries
  double latency_ms_p99 = 0;
  double messages_per_query = 0;
  double bytes_per_query = 0;
  // The corpus: the share of skills holding the most common vocabulary word, and each hot word.
  double top_word_share = 0;
  std::vector<double> hot_word_shares;
  // Publishing: per skill published (each incarnation's), over the whole run and every node
  // (queries, republishes, hand-offs and repairs included): STOREs and FIND_NODEs sent, and what
  // the skill stores counted by cause.
  double stores_per_publish = 0;
  double find_nodes_per_publish = 0;
  double term_pointers_per_publish = 0;     // pointers placed by their publishers
  double handoff_records_per_publish = 0;   // records handed to newcomers / repaired
  double handoff_pointers_per_publish = 0;  // term pointers likewise
  double repair_keys_per_publish = 0;
  double read_repairs_per_publish = 0;  // records and pointers stored by readers
  // Static networks: the datagrams and payload of the publish phase (from the publish to the
  // first query) per skill published, background included.
  double publish_phase_datagrams_per_publish = 0;
  double publish_phase_bytes_per_publish = 0;
  // The most pointers one node held under one term key at the end, and on how many (node, key)
  // pairs that many.
  uint64_t term_pointers_per_key_max = 0;
  uint64_t term_keys_at_max = 0;
};

// The mean, share and percentiles of `rows` (and the counters as they are).
WordSummary SummarizeWords(const WordCounters& counters, const std::vector<WordQueryRow>& rows);

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_WORD_RESULTS_H_
