// WordWorkload: the network word search workload of a scenario with `words` (issue 47), and its
// check against the exhaustive oracle (word_oracle.h).
//
// Publishing: the corpus (word_corpus.h) has skills_per_node skills per honest slot; skill i
// belongs to slot i % honest_slots. When a slot joins (static networks: all at once, at the
// publish time), it publishes its skills through its real SkillDht::Publish, each with the
// index terms the daemon gives it (discovery::IndexTermsOf with the default TermExtractor), so
// the store republishes record and pointers together every records.republish_s. A skill's
// record: agent "agent-<slot>", skill id SkillIdOf(i) and the same as its one capability (a
// record needs one; no query word is or begins it), the corpus name and description, HEALTHY, TTL
// as the records workload's (kRecordTtlPerRepublish x republish_s). A rejoining slot publishes the
// same skills again, under its new identity.
//
// Liveness: RecordWorkload's rule per skill (SkillLiveness, skill_liveness.h).
//
// Queries: every joined honest node runs a query (WordCorpus::DrawQuery) every
// 60 / queries_per_node_per_min seconds, the first at a random offset after it joined; those
// due inside the measured window run, one at a time per node, through the real WordSearch on
// the node's SkillDht (DhtTermSource, DhtRecordSource, a VocabularyFeed of its own: a node
// that has seen nothing yet). When it starts, the oracle ranks every skill live at that moment;
// when it answers, the first 10 distinct corpus skills of its hits are compared with the
// oracle's 10 (word_results.h). Its traffic is counted by WordTraffic.
//
// Lanes (docs/simulation.md "Event loop"): OnJoined, OnPublishAll, OnQuery and OnStopped run as
// control events, between batches; they and EndBatch alone change which skills are live, they
// alone add rows and draw from the workload's random stream, so the oracle ranks the live skills
// as they are between batches. A publish's callback and a query's answer run in the lane of the
// publisher's or asker's slot, side by side with the other lanes. A query's answer changes only
// what belongs to its asker (its running query, its row, its traffic) and its lane's counters and
// trace; a first publish that finished is noted in its lane's list and applied by EndBatch, so a
// skill counts as live from the batch's end on (at most one lookahead late), with the time its
// publish finished. A callback that runs on the control side applies it at once.
#ifndef SKILLNODE_SIM_WORKLOADS_WORD_WORKLOAD_H_
#define SKILLNODE_SIM_WORKLOADS_WORD_WORKLOAD_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "discovery/text/analyzer.h"
#include "discovery/text/term_extractor.h"
#include "sim/engine/event_queue.h"
#include "sim/engine/trace_hash.h"
#include "sim/hosts/population.h"
#include "sim/network/network.h"
#include "sim/report/node_totals.h"
#include "sim/scenario/scenario.h"
#include "sim/workloads/skill_liveness.h"
#include "sim/workloads/word_corpus.h"
#include "sim/workloads/word_miss_census.h"
#include "sim/workloads/word_oracle.h"
#include "sim/workloads/word_query_check.h"
#include "sim/workloads/word_results.h"
#include "sim/workloads/word_traffic.h"
#include "sim/workloads/workload.h"

namespace skillnode::sim::workloads {

// The skill id of corpus skill `index`, and back (nullopt: not a corpus skill's id).
std::string SkillIdOf(size_t index);
std::optional<size_t> SkillIndexOf(std::string_view skill_id);

class WordWorkload {
 public:
  // A query's answer goes into the trace of its asker's lane.
  WordWorkload(const scenario::Scenario& scenario, hosts::Population& population,
               const network::Network& network, engine::EventQueue& queue,
               const transport::TimePoint& now, transport::TimePoint epoch, uint64_t seed,
               Workload::LaneTraces& traces);
  ~WordWorkload();
  WordWorkload(const WordWorkload&) = delete;
  WordWorkload& operator=(const WordWorkload&) = delete;

  // Queries due in [begin, end) run and are measured.
  void SetWindow(transport::TimePoint begin, transport::TimePoint end);
  // `slot` has joined: it publishes its skills and its periodic queries begin.
  void OnJoined(uint32_t slot);
  // Every joined honest node (static networks).
  void OnPublishAll();
  void OnQuery(uint32_t slot, uint64_t incarnation);
  // The host of `slot` is stopping (before its node goes).
  void OnStopped(uint32_t slot);
  // Between batches: the first publishes the lanes' callbacks noted, lane by lane; the misses
  // the answers noted are classified (WordMissCensus); the queries that answered in the batch go.
  void EndBatch();
  // Network observers: a datagram sent (in the sender's lane), and one delivered (in the
  // receiver's).
  void OnSent(uint32_t from, std::span<const uint8_t> bytes) { traffic_.OnSent(from, bytes); }
  void OnDelivered(uint32_t to, std::span<const uint8_t> bytes) { traffic_.OnDelivered(to, bytes); }

  bool Settled() const { return pending_ == 0 && now_ >= window_end_; }
  transport::TimePoint window_end() const { return window_end_; }
  const WordCorpus& corpus() const { return corpus_; }
  const WordOracle& oracle() const { return oracle_; }
  // Summed over the lanes and the control side.
  WordCounters counters() const;
  const std::vector<WordQueryRow>& rows() const { return rows_; }
  // Whether corpus skill `skill` should be live now.
  bool Live(size_t skill) const;
  // The summary, with the publishing costs from `totals` (every node's counters) and the term
  // keys of the live nodes' tables as they are now.
  WordSummary Summary(const report::NodeTotals& totals) const;

 private:
  struct QueryRun;  // one running query (word_workload.cpp)
  // A skill's first publish that finished in a lane, applied by EndBatch.
  struct Available {
    size_t skill = 0;
    uint32_t incarnation = 0;
    transport::TimePoint at;
  };
  // An oracle top-10 skill a query's search never fetched, classified by EndBatch.
  struct NotFetched {
    size_t skill = 0;
    size_t row = 0;            // the query's
    bool dropped = false;      // a candidate whose fetch failed (WordAnswer::dropped)
    bool passed_over = false;  // a candidate read and not fetched (WordAnswer::passed_over)
    transport::TimePoint started = transport::kTimeZero;  // the query's start
  };

  // The lane running on this thread, or kLanes on the control side.
  size_t Side() const { return queue_.running_lane().value_or(engine::EventQueue::kLanes); }
  // Whether this thread runs the control side or `slot`'s lane: where `slot`'s callbacks run.
  bool OnSideOf(uint32_t slot) const {
    const std::optional<size_t> lane = queue_.running_lane();
    return !lane || *lane == engine::EventQueue::LaneOf(slot);
  }
  void Publish(uint32_t slot);
  void MarkAvailable(const Available& done);
  // Why `miss` was not fetched, from the tables as they are (control side), counted.
  void Classify(const NotFetched& miss);
  kademlia::store::SkillRecord RecordOf(size_t skill) const;
  // A query answered: its row and counters, checked against the oracle (word_query_check.h).
  void Finish(uint32_t slot, size_t row, transport::TimePoint started, QueryFetches fetches,
              bool failed);

  const scenario::Scenario& scenario_;
  hosts::Population& population_;
  const network::Network& network_;
  engine::EventQueue& queue_;
  const transport::TimePoint& now_;
  transport::TimePoint epoch_;
  Workload::LaneTraces& traces_;
  transport::Rng rng_;  // drawn from on the control side only
  transport::Duration query_interval_;
  uint32_t ttl_seconds_;
  WordCorpus corpus_;
  WordOracle oracle_;
  discovery::text::Analyzer analyzer_;
  discovery::text::TermExtractor extractor_;
  transport::TimePoint window_begin_ = transport::kTimeZero;
  transport::TimePoint window_end_ = transport::kTimeZero;
  SkillLiveness liveness_;                    // changed on the control side only
  std::vector<std::vector<size_t>> by_slot_;  // the corpus skills of each slot
  // By asker slot: its running query (changed in its slot's lane, or on the control side).
  std::vector<std::unique_ptr<QueryRun>> running_;
  // Per side (the lanes, then the control side): queries that answered, kept until the batch
  // ends (the control side's: until the next query starts): a WordSearch calls back from
  // within itself and must not be destroyed there.
  std::array<std::vector<std::unique_ptr<QueryRun>>, engine::EventQueue::kLanes + 1> finished_;
  WordTraffic traffic_;
  std::atomic<uint64_t> pending_ = 0;  // queries start on the control side and end in lanes
  std::array<WordCounters, engine::EventQueue::kLanes + 1> counters_{};              // per side
  std::array<std::vector<Available>, engine::EventQueue::kLanes> available_;         // per lane
  std::array<std::vector<NotFetched>, engine::EventQueue::kLanes + 1> not_fetched_;  // per side
  WordMissCensus census_;
  // Added on the control side; a row is then changed only in its asker's lane.
  std::vector<WordQueryRow> rows_;
  // Static networks: the network's counters at the publish and at the first measured query.
  std::optional<network::NetworkCounters> at_publish_;
  std::optional<network::NetworkCounters> at_first_query_;
};

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_WORD_WORKLOAD_H_
