// WordWorkload (word_workload.h): publishing the corpus, running the queries, checking them.
// SummarizeWords's counters are WordWorkload::counters(), summed over the sides.
#include "sim/workloads/word_workload.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <utility>

#include "discovery/index_terms.h"
#include "discovery/query.h"
#include "discovery/search/words/dht_word_sources.h"
#include "discovery/search/words/vocabulary_feed.h"
#include "discovery/search/words/word_search.h"
#include "sim/workloads/record_workload.h"
#include "sim/workloads/word_query_check.h"

namespace skillnode::sim::workloads {

using engine::SecondsOf;

namespace {

constexpr std::string_view kSkillIdPrefix = "w";

size_t CorpusSize(const scenario::WordsSpec& spec, size_t honest_slots) {
  return static_cast<size_t>(
      std::llround(spec.skills_per_node * static_cast<double>(honest_slots)));
}

// Corpus skill `skill` as its slot publishes it, before the publisher's fields and signature.
kademlia::store::SkillRecord MakeRecord(const WordCorpus& corpus, size_t skill, size_t slots) {
  kademlia::store::SkillRecord record;
  record.agent_id = "agent-" + std::to_string(skill % slots);
  record.skill_id = SkillIdOf(skill);
  record.version = "1.0.0";
  record.skill_type = "tool-skill";
  record.endpoint = "10.0.0.1:7000";
  // A record needs a capability: its own id, a term no word of the corpus begins (the syllables
  // have no "w") and no query asks for, under keys of its own.
  record.capabilities = {record.skill_id};
  kademlia::store::SkillDescriptor descriptor;
  descriptor.name = corpus.skills()[skill].name;
  descriptor.description = corpus.skills()[skill].description;
  record.descriptor = std::move(descriptor);
  return record;
}

std::vector<kademlia::store::SkillRecord> CorpusRecords(const WordCorpus& corpus, size_t slots) {
  std::vector<kademlia::store::SkillRecord> records;
  records.reserve(corpus.skills().size());
  for (size_t i = 0; i < corpus.skills().size(); ++i) {
    records.push_back(MakeRecord(corpus, i, slots));
  }
  return records;
}

discovery::text::Analyzer MakeAnalyzer() {
  auto analyzer = discovery::text::Analyzer::Create();
  assert(analyzer.has_value());  // the default language is always there
  return std::move(*analyzer);
}

}  // namespace

std::string SkillIdOf(size_t index) { return std::string(kSkillIdPrefix) + std::to_string(index); }

std::optional<size_t> SkillIndexOf(std::string_view skill_id) {
  if (!skill_id.starts_with(kSkillIdPrefix)) return std::nullopt;
  size_t index = 0;
  const char* first = skill_id.data() + kSkillIdPrefix.size();
  const char* last = skill_id.data() + skill_id.size();
  const auto [end, error] = std::from_chars(first, last, index);
  if (error != std::errc() || end != last || first == last) return std::nullopt;
  return index;
}

// One running query: the node's word search and what it reads through. Owned by running_
// until it answers (or its asker stops), then by its side's finished_.
struct WordWorkload::QueryRun {
  QueryRun(kademlia::store::SkillDht& dht, const scenario::WordsSpec& spec)
      : terms(dht), records(dht), search(terms, records, vocabulary, Config(spec)) {}
  // The daemon's search, telling the candidates it passed over (the miss census).
  static discovery::search::WordSearchConfig Config(const scenario::WordsSpec& spec) {
    discovery::search::WordSearchConfig config;
    config.report_passed_over = true;
    config.filtered_reads = spec.filtered_reads;
    return config;
  }
  discovery::search::DhtTermSource terms;
  discovery::search::DhtRecordSource records;
  discovery::search::VocabularyFeed vocabulary;
  discovery::search::WordSearch search;
  OracleAnswer truth;  // when the query started
};

WordWorkload::WordWorkload(const scenario::Scenario& scenario, hosts::Population& population,
                           const network::Network& network, engine::EventQueue& queue,
                           const transport::TimePoint& now, transport::TimePoint epoch,
                           uint64_t seed, Workload::LaneTraces& traces)
    : scenario_(scenario),
      population_(population),
      network_(network),
      queue_(queue),
      now_(now),
      epoch_(epoch),
      traces_(traces),
      rng_(seed),
      query_interval_(SecondsOf(60 / scenario.words.queries_per_node_per_min)),
      ttl_seconds_(RecordTtlSeconds(scenario.records.republish_s)),
      corpus_(scenario.words, CorpusSize(scenario.words, population.honest_slots()), rng_.Next64()),
      oracle_(CorpusRecords(corpus_, population.honest_slots())),
      analyzer_(MakeAnalyzer()),
      liveness_(corpus_.skills().size(), SecondsOf(scenario.records.republish_s), ttl_seconds_),
      by_slot_(population.size()),
      running_(population.size()),
      traffic_(population.size()),
      census_(population, scenario.records.replication, scenario.kademlia.routing.bucket_size) {
  const size_t slots = population.honest_slots();
  for (size_t i = 0; i < liveness_.size(); ++i) by_slot_[i % slots].push_back(i);
  counters_[engine::EventQueue::kLanes].corpus_skills = liveness_.size();
}

WordWorkload::~WordWorkload() = default;

void WordWorkload::SetWindow(transport::TimePoint begin, transport::TimePoint end) {
  window_begin_ = begin;
  window_end_ = end;
}

bool WordWorkload::Live(size_t skill) const { return liveness_.Live(skill, population_.Now()); }

void WordWorkload::OnJoined(uint32_t slot) {
  if (population_.slot(slot).kind != hosts::HostKind::kHonest) return;
  Publish(slot);
  const transport::TimePoint first =
      population_.Now() +
      SecondsOf(rng_.NextDouble() * transport::ToMillis(query_interval_) / 1000);
  queue_.Push(first, engine::EventKind::kWordQuery, slot, population_.slot(slot).incarnation);
}

void WordWorkload::OnPublishAll() {
  at_publish_ = network_.counters();
  for (uint32_t slot = 0; slot < population_.honest_slots(); ++slot) {
    if (population_.joined(slot)) OnJoined(slot);
  }
}

kademlia::store::SkillRecord WordWorkload::RecordOf(size_t skill) const {
  return MakeRecord(corpus_, skill, population_.honest_slots());
}

void WordWorkload::Publish(uint32_t slot) {
  hosts::Population::Slot& s = population_.slot(slot);
  kademlia::store::SkillDht* dht = s.host ? s.host->dht() : nullptr;
  if (dht == nullptr) return;
  for (size_t skill : by_slot_[slot]) {
    liveness_.Published(skill, s.incarnation);
    kademlia::store::SkillRecord record = RecordOf(skill);
    record.timestamp_ms = kademlia::store::SimulatedWallClockMs(population_.Now());
    record.sequence = record.timestamp_ms;
    record.ttl_seconds = ttl_seconds_;
    auto signed_record = kademlia::store::SignRecord(std::move(record), s.host->node()->identity(),
                                                     s.host->node()->signatures());
    if (!signed_record) continue;  // cannot happen for these fields; nothing to publish
    std::vector<kademlia::store::IndexTerm> terms =
        discovery::IndexTermsOf(analyzer_, extractor_, signed_record->record);
    WordCounters& counters = counters_[Side()];
    counters.index_terms += terms.size();
    ++counters.published;
    const uint32_t incarnation = s.incarnation;
    // Runs in the publisher's lane: the skill's state changes when the batch ends.
    dht->Publish(
        population_.Now(), *signed_record,
        [this, slot, skill, incarnation](const kademlia::store::PublishResult& done) {
          assert(OnSideOf(slot));
          if (done.stored == 0) return;
          const Available available{skill, incarnation, population_.Now()};
          const std::optional<size_t> lane = queue_.running_lane();
          if (!lane) return MarkAvailable(available);
          available_[*lane].push_back(available);
        },
        std::move(terms));
  }
  population_.Reschedule(slot);
}

void WordWorkload::MarkAvailable(const Available& done) {
  if (liveness_.MarkAvailable(done.skill, done.incarnation, done.at)) {
    ++counters_[Side()].publishes_done;
  }
}

void WordWorkload::EndBatch() {
  for (std::vector<Available>& lane : available_) {
    for (const Available& done : lane) MarkAvailable(done);
    lane.clear();
  }
  for (std::vector<NotFetched>& side : not_fetched_) {
    for (const NotFetched& miss : side) Classify(miss);
    side.clear();
  }
  for (size_t lane = 0; lane < engine::EventQueue::kLanes; ++lane) finished_[lane].clear();
}

void WordWorkload::Classify(const NotFetched& miss) {
  assert(!queue_.running_lane());
  const kademlia::store::SkillRecord record = RecordOf(miss.skill);
  WordMiss facts = census_.FactsOf(record, rows_[miss.row].text);
  facts.dropped = miss.dropped;
  const auto slot = static_cast<uint32_t>(miss.skill % population_.honest_slots());
  const hosts::Population::Slot& s = population_.slot(slot);
  if (population_.joined(slot) && liveness_.incarnation(miss.skill) == s.incarnation) {
    facts.publisher = s.host->dht();
    facts.identity = kademlia::store::RecordIdentity{s.host->node()->identity().public_key(),
                                                     record.agent_id, record.skill_id};
  }
  WordCounters& counters = counters_[engine::EventQueue::kLanes];
  const WordMissKind kind = census_.Classify(facts);
  Count(kind, counters);
  counters.missed_publisher_gone += facts.publisher == nullptr;
  counters.missed_reader_passed_over += kind == WordMissKind::kReader && miss.passed_over;
  counters.missed_reader_placed_late +=
      kind == WordMissKind::kReader && census_.PlacedSince(facts, miss.started);
}

WordCounters WordWorkload::counters() const {
  WordCounters sum;
  for (const WordCounters& side : counters_) sum += side;
  return sum;
}

void WordWorkload::OnStopped(uint32_t slot) {
  for (size_t skill : by_slot_[slot]) liveness_.Stopped(skill, population_.Now());
  if (!running_[slot]) return;
  // Not on the search's own stack (a stop is a churn event): it may go now.
  running_[slot].reset();
  traffic_.End(slot);
  --pending_;
  ++counters_[Side()].queries_interrupted;
}

void WordWorkload::OnQuery(uint32_t slot, uint64_t incarnation) {
  // No search is on the stack in a control event.
  finished_[engine::EventQueue::kLanes].clear();
  hosts::Population::Slot& s = population_.slot(slot);
  if (!population_.joined(slot) || s.incarnation != incarnation) return;
  const transport::TimePoint now = population_.Now();
  const transport::TimePoint next = now + query_interval_;
  if (next < window_end_) queue_.Push(next, engine::EventKind::kWordQuery, slot, incarnation);
  if (now < window_begin_ || now >= window_end_) return;
  if (!at_first_query_) at_first_query_ = network_.counters();
  WordCounters& counters = counters_[engine::EventQueue::kLanes];  // a control event
  if (running_[slot]) {
    ++counters.queries_busy;
    return;
  }
  kademlia::store::SkillDht* dht = s.host->dht();
  assert(dht != nullptr);
  const CorpusQuery query = corpus_.DrawQuery(rng_);
  const OracleAnswer truth =
      oracle_.Top(query.text, kWordRecallDepth, [this](size_t skill) { return Live(skill); });
  WordQueryRow row;
  row.start_s = transport::ToMillis(now - epoch_) / 1000;
  row.asker = slot;
  row.text = query.text;
  row.hot = query.hot;
  row.matching = truth.matching;
  row.oracle = truth.top;
  row.oracle_tied = truth.tied.size();
  const size_t index = rows_.size();
  rows_.push_back(std::move(row));
  ++counters.queries;
  ++pending_;
  traffic_.Begin(slot);
  running_[slot] = std::make_unique<QueryRun>(*dht, scenario_.words);
  QueryRun& run = *running_[slot];
  run.truth = truth;
  discovery::SkillQuery skill_query;
  skill_query.text = query.text;
  // Answers in the asker's lane.
  run.search.Search(
      now, skill_query,
      [this, slot, index, now](transport::TimePoint, discovery::search::WordAnswer answer) {
        Finish(slot, index, now, QueryFetches::Of(answer), answer.failed);
      });
  population_.Reschedule(slot);
}

void WordWorkload::Finish(uint32_t slot, size_t index, transport::TimePoint started,
                          QueryFetches fetches, bool failed) {
  assert(running_[slot] && OnSideOf(slot));
  const OracleAnswer truth = std::move(running_[slot]->truth);
  WordCounters& counters = counters_[Side()];
  finished_[Side()].push_back(std::move(running_[slot]));
  --pending_;
  const QueryTraffic traffic = traffic_.End(slot);
  WordQueryRow& row = rows_[index];
  row.answered = true;
  row.latency_ms = transport::ToMillis(population_.Now() - started);
  row.messages = traffic.messages;
  row.replies = traffic.replies;
  row.bytes = traffic.bytes;
  counters.query_messages += traffic.messages;
  counters.query_replies += traffic.replies;
  counters.query_bytes += traffic.bytes;
  counters.queries_failed += failed;
  for (size_t skill : fetches.found) counters.found_not_live += !Live(skill);
  engine::TraceHash& trace = traces_[engine::EventQueue::LaneOf(slot)];
  trace.Add((uint64_t{slot} << 32) ^ fetches.found.size());
  for (size_t skill : fetches.found) trace.Add(skill);
  if (truth.top.empty()) {
    ++counters.queries_no_answer;
  } else {
    const WordQueryCheck check = WordQueryCheck::Of(truth, fetches);
    row.ranked_out = check.ranked_out;
    counters.missed_ranked_out += check.ranked_out.size();
    counters.missed_not_fetched += check.not_fetched.size();
    for (const NotFetchedSkill& miss : check.not_fetched) {
      not_fetched_[Side()].push_back(
          NotFetched{miss.skill, index, miss.dropped, miss.passed_over, started});
    }
    const double size = static_cast<double>(truth.top.size());
    row.recall = static_cast<double>(check.hits.hits) / size;
    row.recall_strict = static_cast<double>(check.hits.strict) / size;
    ++counters.queries_checked;
    counters.recall_sum += row.recall;
    counters.recall_strict_sum += row.recall_strict;
    counters.queries_recall_one += check.hits.hits == truth.top.size();
    if (row.hot) {
      ++counters.hot_checked;
      counters.hot_recall_sum += row.recall;
    }
  }
  row.found = std::move(fetches.found);
}

WordSummary WordWorkload::Summary(const report::NodeTotals& totals) const {
  const WordCounters counters = this->counters();
  WordSummary s = SummarizeWords(counters, rows_);
  const double skills = std::max<double>(1, static_cast<double>(liveness_.size()));
  const auto share_of = [&](std::string_view term) {
    return static_cast<double>(oracle_.Postings(term).size()) / skills;
  };
  if (!corpus_.word_terms().empty()) s.top_word_share = share_of(corpus_.word_terms().front());
  for (const std::string& term : corpus_.hot_terms()) s.hot_word_shares.push_back(share_of(term));
  const double published = std::max<double>(1, static_cast<double>(counters.published));
  const auto per = [published](uint64_t n) { return static_cast<double>(n) / published; };
  s.stores_per_publish =
      per(totals.rpcs_sent_by_type[static_cast<size_t>(kademlia::TypeSlot::kStore)]);
  s.find_nodes_per_publish =
      per(totals.rpcs_sent_by_type[static_cast<size_t>(kademlia::TypeSlot::kFindNode)]);
  s.term_pointers_per_publish = per(totals.term_pointers_published);
  s.handoff_records_per_publish = per(totals.handoff_records);
  s.handoff_pointers_per_publish = per(totals.term_handoff_pointers);
  s.repair_keys_per_publish = per(totals.repair_keys);
  s.read_repairs_per_publish = per(totals.read_repairs + totals.term_read_repairs);
  if (at_publish_ && at_first_query_) {
    s.publish_phase_datagrams_per_publish = per(at_first_query_->sent - at_publish_->sent);
    s.publish_phase_bytes_per_publish =
        per(at_first_query_->bytes_delivered - at_publish_->bytes_delivered);
  }
  for (const OracleEntry& live : population_.live().entries()) {
    const hosts::Population::Slot& slot = population_.slot(live.slot);
    const kademlia::store::SkillDht* dht = slot.host ? slot.host->dht() : nullptr;
    if (dht == nullptr) continue;
    const kademlia::store::terms::TermTable& table = dht->terms();
    std::array<uint8_t, kademlia::Key::kSize> ones;
    ones.fill(0xff);
    for (const kademlia::Key& key :
         table.KeysBetween(kademlia::Key(), kademlia::Key(ones), table.keys())) {
      const uint64_t count = table.Count(key);
      if (count > s.term_pointers_per_key_max) {
        s.term_pointers_per_key_max = count;
        s.term_keys_at_max = 0;
      }
      s.term_keys_at_max += count == s.term_pointers_per_key_max;
    }
  }
  return s;
}

}  // namespace skillnode::sim::workloads
