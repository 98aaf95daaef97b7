// SummarizeWords (word_results.h).
#include "sim/workloads/word_results.h"

#include "sim/workloads/lookup_log.h"

namespace skillnode::sim::workloads {

WordCounters& WordCounters::operator+=(const WordCounters& o) {
  corpus_skills += o.corpus_skills;
  published += o.published;
  publishes_done += o.publishes_done;
  index_terms += o.index_terms;
  queries += o.queries;
  queries_interrupted += o.queries_interrupted;
  queries_busy += o.queries_busy;
  queries_checked += o.queries_checked;
  queries_no_answer += o.queries_no_answer;
  queries_failed += o.queries_failed;
  hot_checked += o.hot_checked;
  queries_recall_one += o.queries_recall_one;
  recall_sum += o.recall_sum;
  recall_strict_sum += o.recall_strict_sum;
  hot_recall_sum += o.hot_recall_sum;
  missed_ranked_out += o.missed_ranked_out;
  missed_not_fetched += o.missed_not_fetched;
  missed_unplaced += o.missed_unplaced;
  missed_pointer_lost += o.missed_pointer_lost;
  missed_pointer_far += o.missed_pointer_far;
  missed_record_lost += o.missed_record_lost;
  missed_fetch_failed += o.missed_fetch_failed;
  missed_reader += o.missed_reader;
  missed_reader_passed_over += o.missed_reader_passed_over;
  missed_reader_placed_late += o.missed_reader_placed_late;
  missed_publisher_gone += o.missed_publisher_gone;
  found_not_live += o.found_not_live;
  query_messages += o.query_messages;
  query_replies += o.query_replies;
  query_bytes += o.query_bytes;
  return *this;
}

WordSummary SummarizeWords(const WordCounters& counters, const std::vector<WordQueryRow>& rows) {
  WordSummary s;
  s.counters = counters;
  const auto share = [](double part, uint64_t whole) {
    return whole == 0 ? 0.0 : part / static_cast<double>(whole);
  };
  s.recall_at_10_mean = share(counters.recall_sum, counters.queries_checked);
  s.recall_at_10_strict_mean = share(counters.recall_strict_sum, counters.queries_checked);
  s.recall_at_10_hot_mean = share(counters.hot_recall_sum, counters.hot_checked);
  s.recall_one_share =
      share(static_cast<double>(counters.queries_recall_one), counters.queries_checked);
  const uint64_t answered = counters.queries_checked + counters.queries_no_answer;
  s.messages_per_query = share(static_cast<double>(counters.query_messages), answered);
  s.bytes_per_query = share(static_cast<double>(counters.query_bytes), answered);
  std::vector<double> latency;
  latency.reserve(rows.size());
  for (const WordQueryRow& row : rows) {
    if (row.answered) latency.push_back(row.latency_ms);
  }
  s.latency_ms_p50 = Percentile(latency, 0.50);
  s.latency_ms_p99 = Percentile(latency, 0.99);
  return s;
}

}  // namespace skillnode::sim::workloads
