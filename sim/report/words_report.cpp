// WordsJson and WriteWordQueries (words_report.h).
#include "sim/report/words_report.h"

#include <algorithm>
#include <fstream>

namespace skillnode::sim::report {
namespace {

using nlohmann::json;

// Skill indices as one CSV field: "3 17 42".
std::string Skills(const std::vector<size_t>& skills) {
  std::string out;
  for (size_t skill : skills) {
    if (!out.empty()) out += ' ';
    out += std::to_string(skill);
  }
  return out;
}

}  // namespace

json WordsJson(const workloads::WordSummary& w) {
  const workloads::WordCounters& c = w.counters;
  return json{
      {"recall_at_10_mean", w.recall_at_10_mean},
      {"recall_at_10_strict_mean", w.recall_at_10_strict_mean},
      {"recall_at_10_hot_mean", w.recall_at_10_hot_mean},
      {"recall_one_share", w.recall_one_share},
      {"latency_ms_p50", w.latency_ms_p50},
      {"latency_ms_p99", w.latency_ms_p99},
      {"messages_per_query", w.messages_per_query},
      {"bytes_per_query", w.bytes_per_query},
      {"top_word_share", w.top_word_share},
      {"hot_word_shares", w.hot_word_shares},
      {"stores_per_publish", w.stores_per_publish},
      {"find_nodes_per_publish", w.find_nodes_per_publish},
      {"term_pointers_per_publish", w.term_pointers_per_publish},
      {"handoff_records_per_publish", w.handoff_records_per_publish},
      {"handoff_pointers_per_publish", w.handoff_pointers_per_publish},
      {"repair_keys_per_publish", w.repair_keys_per_publish},
      {"read_repairs_per_publish", w.read_repairs_per_publish},
      {"publish_phase_datagrams_per_publish", w.publish_phase_datagrams_per_publish},
      {"publish_phase_bytes_per_publish", w.publish_phase_bytes_per_publish},
      {"term_pointers_per_key_max", w.term_pointers_per_key_max},
      {"term_keys_at_max", w.term_keys_at_max},
      {"counters",
       {{"corpus_skills", c.corpus_skills},
        {"published", c.published},
        {"publishes_done", c.publishes_done},
        {"index_terms", c.index_terms},
        {"queries", c.queries},
        {"queries_interrupted", c.queries_interrupted},
        {"queries_busy", c.queries_busy},
        {"queries_checked", c.queries_checked},
        {"queries_no_answer", c.queries_no_answer},
        {"queries_failed", c.queries_failed},
        {"hot_checked", c.hot_checked},
        {"queries_recall_one", c.queries_recall_one},
        {"missed_ranked_out", c.missed_ranked_out},
        {"missed_not_fetched", c.missed_not_fetched},
        {"missed_unplaced", c.missed_unplaced},
        {"missed_pointer_lost", c.missed_pointer_lost},
        {"missed_pointer_far", c.missed_pointer_far},
        {"missed_record_lost", c.missed_record_lost},
        {"missed_fetch_failed", c.missed_fetch_failed},
        {"missed_reader", c.missed_reader},
        {"missed_reader_passed_over", c.missed_reader_passed_over},
        {"missed_reader_placed_late", c.missed_reader_placed_late},
        {"missed_publisher_gone", c.missed_publisher_gone},
        {"found_not_live", c.found_not_live},
        {"query_messages", c.query_messages},
        {"query_replies", c.query_replies},
        {"query_bytes", c.query_bytes}}},
  };
}

transport::Result<bool> WriteWordQueries(const std::string& dir,
                                         const std::vector<PointResult>& points) {
  if (std::none_of(points.begin(), points.end(),
                   [](const PointResult& p) { return p.summary.words.has_value(); })) {
    return true;
  }
  std::ofstream csv(dir + "/words_queries.csv", std::ios::trunc);
  csv << "point,start_s,asker,query,hot,matching,oracle_tied,recall,recall_strict,latency_ms,"
         "messages,replies,bytes,"
         "oracle_top10,found_top10,ranked_out\n";
  for (size_t i = 0; i < points.size(); ++i) {
    for (const workloads::WordQueryRow& r : points[i].word_queries) {
      if (!r.answered) continue;  // its asker stopped first
      csv << i << ',' << r.start_s << ',' << r.asker << ',' << r.text << ',' << r.hot << ','
          << r.matching << ',' << r.oracle_tied << ',' << r.recall << ',' << r.recall_strict << ','
          << r.latency_ms << ',' << r.messages << ',' << r.replies << ',' << r.bytes << ','
          << Skills(r.oracle) << ',' << Skills(r.found) << ',' << Skills(r.ranked_out) << '\n';
    }
  }
  csv.flush();
  if (!csv) {
    return transport::Fail(transport::ErrorCode::kIo, dir + ": cannot write words_queries.csv");
  }
  return true;
}

}  // namespace skillnode::sim::report
