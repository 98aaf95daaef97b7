// TermPublisher: the publisher side of the keyword index (docs/protocol.md "Keyword index").
// For each version of a record this node signed itself that SkillPublisher publishes or
// republishes, it publishes one signed TermPointer per term the caller gave (the record key,
// name, description prefix, the term's weight clamped to 1..kTermWeightCentiMax, the profile of
// all the terms it carries, and the record's timestamp, sequence, TTL and publisher) on the r
// closest nodes of one of the term's shard keys, and keeps a copy here when this node is one of
// them.
//
// Shards: a term with no shard yet is placed by a ShardSearch (shard_search.h) over whether
// each shard's holders take it (`tt` in VALUES, and `lw`: a full key still takes a pointer
// heavier than its lightest, so a heavy pointer lands in shard 0 however late it comes, and
// shard 0 holds a common term's heaviest pointers, the ones a reader reads first); a republish of
// the same version goes to the shard it was placed in; a new version (signed again, or an update)
// first tries one shard lower, so pointers drift down as others leave. When every holder that
// answered a STORE refused it with ERROR 24 (term key full), the pointer moves to the next shard;
// past the last, the term is given up (until the next version). The shard of each (identity, term)
// is remembered.
//
// Displaced pointers: a pointer this node holds that a heavier one pushed out of a full key goes
// on to the next shard at once (HandOn), not lost until its publisher's next refresh.
//
// Removal: a tombstone record buries every term placed for its identity with a tombstone
// pointer (the tombstone's timestamp, sequence and TTL, weight 0, no name or description) in
// the shard it was in, again at each of the tombstone's republishes; a version that drops a
// term buries that term the same way, and does so again with the later versions until the
// dropped pointer's window has ended. A tombstone pointer never moves to another shard.
//
// Each pointer is a job (a lookup of its shard key, then its STOREs); at most
// term_jobs_running_max run at once and term_jobs_queued_max wait, in order, and jobs start at
// most term_jobs_per_second a second (a token bucket holding term_jobs_burst): a node that
// registers hundreds of skills does not burst thousands of lookups at its peers, whose
// per-source rate limits would drop them. OnTimer starts the jobs the pace held back, at
// NextDeadline. Records signed by
// another key get no pointers. Driven by SkillPublisher (skill_publisher.h), which owns it; the
// node, the holder (for the copies kept here), the config and the stats are SkillDht's. No I/O
// of its own; not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_TERMS_TERM_PUBLISHER_H_
#define SKILLNODE_KADEMLIA_STORE_TERMS_TERM_PUBLISHER_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "kademlia/node.h"
#include "kademlia/rpc/rate_limiter.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/record/term_pointer.h"
#include "kademlia/store/skill_dht_types.h"
#include "kademlia/store/terms/term_holder.h"

namespace skillnode::kademlia::store::terms {

class TermPublisher {
 public:
  TermPublisher(Node& node, const DhtConfig& config, TermHolder& holder, DhtStats& stats);
  TermPublisher(const TermPublisher&) = delete;
  TermPublisher& operator=(const TermPublisher&) = delete;

  // The pointers of `record` (a version being published or republished) for `terms` (most
  // distinctive first; those past term_pointers_per_record_max are left out). A tombstone
  // buries what its identity's pointers were; `terms` is then not read.
  void Publish(transport::TimePoint now, const SignedRecord& record,
               std::span<const IndexTerm> terms);
  // `displaced` left a full key this node holds for a heavier pointer: unless this node knows a
  // node closer to that key than itself (the closest holder hands on; the others' copies of
  // the same key left the same pointer), a job stores it at the next shard, and farther up as
  // those are full, as its publisher would at its next refresh. Another publisher's pointer,
  // signed as it came: its place is not remembered here. Within the same queue and pace as
  // this node's own jobs (term_jobs_queued_max, term_jobs_per_second).
  void HandOn(transport::TimePoint now, const DisplacedPointer& displaced);
  // Forgets the shards of `identity`'s terms (its record is no longer published).
  void Forget(const RecordIdentity& identity) { places_.erase(identity); }

  // Where the pointer of (identity, term) was last placed, if it was.
  std::optional<uint32_t> ShardOf(const RecordIdentity& identity, std::string_view term) const;
  // Starts the waiting jobs the pace now allows.
  void OnTimer(transport::TimePoint now) { Pump(now); }
  // When the pace next lets a waiting job start (kTimeNever: none waits, or as many run as may;
  // a job's end starts the next).
  transport::TimePoint NextDeadline() const;
  size_t jobs_running() const { return running_; }
  size_t jobs_queued() const { return queued_.size(); }

 private:
  // Where a term of one identity stands. kBuried: a tombstone pointer holds its shard.
  enum class Placement : uint8_t { kSearching, kPlaced, kBuried, kGivenUp };
  struct Place {
    Placement placement = Placement::kSearching;
    uint32_t shard = 0;            // kPlaced, kBuried
    uint64_t sequence = 0;         // of the version the term's last pointer was made from
    uint64_t buried_until_ms = 0;  // kBuried by an update: when the dropped pointer's ends
  };
  using Places = std::map<std::string, Place, std::less<>>;
  struct Job;
  // What a shard's closest answering holder said of its key in VALUES.
  struct ShardFullness {
    uint32_t total = 0;                   // `tt`: pointers held under the key
    std::optional<uint32_t> entry_floor;  // `lw`: when full, the weight to outweigh
    // Whether the holder would take a newcomer weighing `weight_centi`.
    bool Takes(uint32_t weight_centi) const;
  };

  // The live terms of `record` (with the places of its identity): pointers, and tombstone
  // pointers for the terms it dropped.
  void PublishLive(const SignedRecord& record, std::span<const IndexTerm> terms, Places& places);
  // Tombstone pointers for every placed term of a tombstone record's identity.
  void Bury(const SignedRecord& record, Places& places);
  // Signs the pointer of `term` made from `record`, carrying `profile` (a tombstone pointer when
  // there is none) and queues its job; false (nothing queued) when it cannot be signed.
  bool Enqueue(const SignedRecord& record, std::string_view term, uint32_t weight_centi,
               const std::optional<TermProfile>& profile, std::optional<uint32_t> shard);
  // Whether the job queue holds term_jobs_queued_max jobs: a job that finds it so is dropped
  // and counted (term_jobs_dropped).
  bool QueueFull();
  // Starts queued jobs while fewer than term_jobs_running_max run and the pace allows.
  void Pump(transport::TimePoint now);
  // A lookup of `shard`'s key for `job`; false when the node refuses the lookup.
  bool Locate(transport::TimePoint now, const std::shared_ptr<Job>& job, uint32_t shard);
  // The lookup of `shard` ended; `seen` is what its closest answering holder said of the key.
  void OnLocated(const std::shared_ptr<Job>& job, uint32_t shard, const LookupResult& closest,
                 const ShardFullness& seen);
  // STOREs the job's pointer on the r closest of `shard`'s key found by `closest`.
  void StoreAt(transport::TimePoint now, const std::shared_ptr<Job>& job, uint32_t shard,
               const LookupResult& closest);
  // Every STORE of `job` at `shard` has answered: placed, on to the next shard, or given up.
  void OnStored(transport::TimePoint now, const std::shared_ptr<Job>& job, uint32_t shard);
  // Records where the job left its term (nullopt: where it was), then starts the next job.
  void Finish(transport::TimePoint now, const std::shared_ptr<Job>& job,
              std::optional<Placement> placement, uint32_t shard);

  Node& node_;
  const DhtConfig& config_;
  TermHolder& holder_;
  DhtStats& stats_;
  std::map<RecordIdentity, Places> places_;
  std::deque<std::shared_ptr<Job>> queued_;
  size_t running_ = 0;
  rpc::TokenBucket pace_;  // starts empty and fills to term_jobs_burst at the first Pump
  // Inside Pump: a job that ends at once (a lookup with no contacts) does not start the next
  // from its own frame; the loop already running does, so the stack stays flat.
  bool pumping_ = false;
};

}  // namespace skillnode::kademlia::store::terms

#endif  // SKILLNODE_KADEMLIA_STORE_TERMS_TERM_PUBLISHER_H_
