// WordMissCensus: why a word query missed a skill that the oracle ranks in its top 10 and the
// search never fetched (issue 47, docs/simulation.md "Word search"), told from the live nodes'
// tables as they are when the query answers. The first of these that holds:
//   kPointerFar: for some query term, none of the `replication` live nodes closest to any shard
//                key of a term of the skill that the query term matches holds a live pointer of
//                the skill (of any incarnation), but one of the `bucket_size` closest does;
//   kPointerLost: ... and none of the `bucket_size` closest does either; or
//   kUnplaced:   ... and the publisher, running the skill's incarnation, has not placed that
//                pointer yet (its job is queued or searching, or it gave the term up);
//   kRecordLost: every term's pointer is held where a reader looks, but none of the
//                `bucket_size` live nodes closest to the skill's record key holds a live record
//                of it;
//   kFetchFailed: both are where a reader looks, and the skill was a candidate whose record get
//                failed (or found no live record of it);
//   kReader:     both are where a reader looks: the reader read too little, a read failed, or
//                the candidates' order left the skill out.
// A shard's pointers are looked for in shard order, up to the first shard whose closest nodes
// hold nothing of the term (a term's shards fill in order).
//
// Reads every node's tables: call it on the control side, while no lane runs. Holds references
// to the population only.
#ifndef SKILLNODE_SIM_WORKLOADS_WORD_MISS_CENSUS_H_
#define SKILLNODE_SIM_WORKLOADS_WORD_MISS_CENSUS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/text/analyzer.h"
#include "discovery/text/term_extractor.h"
#include "kademlia/store/record/skill_record.h"
#include "sim/hosts/population.h"
#include "sim/workloads/word_results.h"

namespace skillnode::sim::workloads {

enum class WordMissKind : uint8_t {
  kUnplaced,
  kPointerLost,
  kPointerFar,
  kRecordLost,
  kFetchFailed,
  kReader
};
// Adds one to `counters`' count of `kind`.
void Count(WordMissKind kind, WordCounters& counters);

// One miss: the skill and, per query term, the skill's index terms that the query term matches
// (the term itself, or for a last word typed, the terms it begins; a query term the skill holds
// but is not indexed under, past its 32 most distinctive, is left out).
struct WordMiss {
  std::string skill_id;
  std::vector<std::vector<std::string>> terms;
  // The publisher's SkillDht and the skill's identity under it, when the publisher runs the
  // incarnation that published the skill; otherwise null.
  const kademlia::store::SkillDht* publisher = nullptr;
  kademlia::store::RecordIdentity identity;
  bool dropped = false;  // a candidate of the search whose fetch failed
};

class WordMissCensus {
 public:
  WordMissCensus(const hosts::Population& population, size_t replication, size_t bucket_size);

  // The skill and matching terms of a miss of `record` by a query of `text`; the caller adds
  // the publisher and whether the fetch failed.
  WordMiss FactsOf(const kademlia::store::SkillRecord& record, std::string_view text);
  WordMissKind Classify(const WordMiss& miss) const;
  // Whether, for some query term, every live copy of the skill's pointer that the r closest
  // nodes of its shard keys hold was stored there at or after `since` (the query's start): the
  // pointer was not where a reader looks when the query began to read.
  bool PlacedSince(const WordMiss& miss, transport::TimePoint since) const;

 private:
  // Whether a live pointer of `skill_id` for `term` is on the `nodes` closest live nodes of one
  // of the term's shard keys.
  // The earliest time a live copy of the skill's pointer under `term` was stored on the `nodes`
  // live nodes closest to one of the term's shard keys, if any holds one.
  std::optional<transport::TimePoint> EarliestCopy(std::string_view term, std::string_view skill_id,
                                                   size_t nodes) const;
  bool PointerHeld(std::string_view term, std::string_view skill_id, size_t nodes) const;
  bool RecordHeld(std::string_view skill_id) const;

  const hosts::Population& population_;
  size_t replication_;
  size_t bucket_size_;
  discovery::text::Analyzer analyzer_;
  discovery::text::TermExtractor extractor_;
};

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_WORD_MISS_CENSUS_H_
