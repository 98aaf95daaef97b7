// RecordWorkload: the skill-store workload of a scenario with `records`, and its oracle.
//
// Every honest node publishes records_per_node records through its real kademlia::SkillDht
// once it has joined (the fractional part is drawn per node), and the store republishes them
// every republish_s while the node runs. Each record has the capability "sim", or, with a
// capability pool of `capabilities` names, one or two capabilities drawn from it; it is stored
// under all its keys (kademlia::RecordKeys). Every joined honest node runs a get every
// 60 / gets_per_node_per_min seconds for a record drawn uniformly from the records that should
// exist at that moment, asking for its skill key SHA256("skill:" + skillId) or (get_by:
// capability) the key SHA256("capability:" + c) of one of its capabilities, drawn uniformly:
//
//   a record should exist from the moment its first publish finished, while its publisher runs
//   the incarnation that published it, and for (ttl - republish_s) after that incarnation
//   stopped: the last republish was at most republish_s before the stop, and its copies live
//   for the record's TTL.
//
// A get is a hit when its result holds the record's identity with at least the published
// sequence, whatever else the key holds. records_available_rate = hits / checked gets
// (measured: started inside the window, finished while the asker still ran). Every record a
// get returns must be one an honest node published; any other is an oracle mismatch (a forgery
// that passed verification). Records rejected by verification are summed (the forge_records
// adversary's forgeries).
//
// Lanes (docs/simulation.md "Event loop"): OnJoined, OnPublishAll, OnGet and OnStopped run as
// control events, between batches; they and EndBatch alone add and change entries, and they
// alone draw from the workload's random stream. A publish's and a get's callbacks run in the lane
// of the publisher's or asker's slot, side by side with the other lanes: they only read the
// entries, count into their lane's counters and their asker's lane trace, and note in their lane's
// list what would change shared state (a first publish that finished; a miss, whose classification
// reads other nodes' stores), which EndBatch applies between batches. A callback that runs on
// the control side applies it at once.
#ifndef SKILLNODE_SIM_WORKLOADS_RECORD_WORKLOAD_H_
#define SKILLNODE_SIM_WORKLOADS_RECORD_WORKLOAD_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kademlia/store/skill_dht.h"
#include "sim/engine/event_queue.h"
#include "sim/engine/sim_time.h"
#include "sim/engine/trace_hash.h"
#include "sim/hosts/population.h"
#include "sim/scenario/scenario.h"
#include "sim/workloads/workload.h"

namespace skillnode::sim::workloads {

// A record lives for this many republish intervals at its holders (its TTL), clamped to the
// record format's TTL bounds: one missed republish does not let it expire.
constexpr double kRecordTtlPerRepublish = 2.0;
// The TTL a record republished every `republish_s` is given: kRecordTtlPerRepublish times that,
// within the store's limits. The words workload's pointers and records live as long.
uint32_t RecordTtlSeconds(double republish_s);
// Draws of a random record before a get gives up finding one that should exist.
constexpr int kRecordPickAttemptsMax = 64;
// record_misses.csv keeps at most this many rows per run; later misses are only counted.
constexpr size_t kRecordMissesLoggedMax = 100'000;
// With a capability pool, the share of records that get a second capability (the rest have
// one): each record has 1..2 capabilities, 1.5 on average.
constexpr double kRecordSecondCapabilityChance = 0.5;

struct RecordCounters {
  uint64_t published = 0;         // records handed to Publish
  uint64_t publishes_done = 0;    // first publish finished with at least one STORE acknowledged
  uint64_t gets = 0;              // measured gets started
  uint64_t gets_refused = 0;      // the node refused the lookup
  uint64_t gets_interrupted = 0;  // the asker stopped before the answer
  uint64_t gets_checked = 0;      // measured, finished, checked against the oracle
  uint64_t gets_found = 0;        // ... and the record was in the answer
  // The same two for the gets whose record's publisher was still running when the get ended:
  // a live skill, registered on a node that is up (the oracle also expects the records of a
  // publisher that left less than TTL - republish_s ago).
  uint64_t gets_checked_publisher_up = 0;
  uint64_t gets_found_publisher_up = 0;
  // Why the others missed, by where the record was when the get finished (oracle's view):
  uint64_t missed_asked = 0;    // a live holder answered the get's lookup, yet it was not in the
                                // answer (paging or merging lost it)
  uint64_t missed_near = 0;     // a live holder was among the k nodes closest to the key
  uint64_t missed_far = 0;      // live holders, all outside the k closest: lookups cannot reach it
  uint64_t missed_lost = 0;     // no live node held it under the key
  uint64_t gets_no_target = 0;  // no record should exist yet: nothing to ask for
  uint64_t records_rejected = 0;  // records that failed verification, over all gets
  uint64_t records_unknown = 0;   // accepted records no honest node published (mismatches)

  RecordCounters& operator+=(const RecordCounters& other);
};

enum class MissKind : uint8_t { kAsked, kNear, kFar, kLost };
std::string_view MissKindName(MissKind kind);

// One get that missed its record, as record_misses.csv has it.
struct RecordMiss {
  double finished_s = 0;  // since the simulation's epoch
  uint32_t asker = 0;     // slots
  uint32_t publisher = 0;
  bool publisher_up = false;   // the record's publisher still ran its incarnation
  double published_for_s = 0;  // since its first publish finished
  MissKind kind = MissKind::kLost;
  uint16_t live_holders = 0;  // live nodes that held it under the key
  uint16_t near_holders = 0;  // ... among the k live nodes closest to the key
  uint16_t answered = 0;      // nodes in the get's result (closest that answered)
  uint16_t records = 0;       // records the get returned
  uint32_t messages = 0;
  uint32_t replies = 0;
  uint32_t failures = 0;
};

// Times taken in a callback are its lane's clock (Population::Now).
class RecordWorkload {
 public:
  // Times in the miss log count from `epoch`. A get's result goes into the trace of its
  // asker's lane.
  RecordWorkload(const scenario::Scenario& scenario, hosts::Population& population,
                 engine::EventQueue& queue, const transport::TimePoint& now,
                 transport::TimePoint epoch, uint64_t seed, Workload::LaneTraces& traces);

  // Gets started in [begin, end) are measured.
  void SetWindow(transport::TimePoint begin, transport::TimePoint end);
  // `slot` has joined: it publishes its records and its periodic gets begin.
  void OnJoined(uint32_t slot);
  // Every joined honest node (static networks, kPublishAll).
  void OnPublishAll();
  void OnGet(uint32_t slot, uint64_t incarnation);
  // The host of `slot` is stopping.
  void OnStopped(uint32_t slot);
  // Between batches: what the lanes' callbacks noted, lane by lane (first publishes finished),
  // then the misses by the time they happened (then asker).
  void EndBatch();

  bool Settled() const { return pending_ == 0 && now_ >= window_end_; }
  transport::TimePoint window_end() const { return window_end_; }
  // Summed over the lanes and the control side.
  RecordCounters counters() const;
  // The measured misses, in the order they happened (at most kRecordMissesLoggedMax).
  const std::vector<RecordMiss>& misses() const { return misses_; }
  // hits / checked gets; nullopt when no get was checked.
  std::optional<double> available_rate() const;
  // The same over the gets whose publisher was up (gets_found_publisher_up / ..._checked_...).
  std::optional<double> available_rate_publisher_up() const;
  transport::TimePoint ttl_end_after_stop(transport::TimePoint stopped) const;

 private:
  struct Entry {
    uint32_t slot = 0;
    uint32_t incarnation = 0;
    kademlia::Key key;  // the skill key
    kademlia::store::RecordIdentity identity;
    std::vector<std::string> capabilities;
    uint64_t sequence = 0;
    transport::TimePoint available_from = transport::kTimeNever;  // first publish finished
    transport::TimePoint expected_until = transport::kTimeNever;  // set when its incarnation stops
  };

  // A miss as its get's callback saw it, classified between batches (ClassifyMiss).
  struct PendingMiss {
    uint32_t asker = 0;
    size_t entry = 0;
    bool publisher_up = false;
    transport::TimePoint finished;
    kademlia::Key key;
    std::vector<kademlia::NodeId> closest;  // the get's result's
    size_t records = 0;
    kademlia::LookupStats stats;
  };
  // What a lane's callbacks leave for EndBatch. Used by its lane during a batch only.
  struct LaneNotes {
    std::vector<std::pair<size_t, transport::TimePoint>> available;  // entry, publish finished
    std::vector<PendingMiss> misses;
  };

  bool Expected(const Entry& e) const;
  // Whether `record`, under the identity of `entry`, is a version its honest publisher made.
  bool MadeBy(const Entry& entry, const kademlia::store::SkillRecord& record) const;
  std::optional<size_t> PickExpected();
  void Publish(uint32_t slot);
  std::vector<std::string> DrawCapabilities();
  // The key a get for `entry` asks for (get_by).
  kademlia::Key GetKey(const Entry& entry);
  void Check(uint32_t asker, size_t entry, const kademlia::store::GetResult& result);
  // The lane running on this thread, or kLanes on the control side.
  size_t Side() const { return queue_.running_lane().value_or(engine::EventQueue::kLanes); }
  // Whether this thread runs the control side or `slot`'s lane: where `slot`'s callbacks run.
  bool OnSideOf(uint32_t slot) const {
    const std::optional<size_t> lane = queue_.running_lane();
    return !lane || *lane == engine::EventQueue::LaneOf(slot);
  }
  // Entry `index`'s first publish finished at `at` (counted once).
  void MarkAvailable(size_t index, transport::TimePoint at);
  // Counts a miss under missed_asked, missed_near, missed_far or missed_lost, and logs it.
  // Between batches (or on the control side): it reads every live node's store.
  void ClassifyMiss(const PendingMiss& miss);

  const scenario::Scenario& scenario_;
  hosts::Population& population_;
  engine::EventQueue& queue_;
  const transport::TimePoint& now_;
  transport::TimePoint epoch_;
  Workload::LaneTraces& traces_;
  transport::Rng rng_;  // drawn from on the control side only
  transport::Duration get_interval_;
  transport::Duration republish_;
  uint32_t ttl_seconds_;
  transport::TimePoint window_begin_ = transport::kTimeZero;
  transport::TimePoint window_end_ = transport::kTimeZero;
  std::vector<Entry> entries_;
  std::vector<std::vector<size_t>> by_slot_;  // the running incarnation's entries
  std::map<kademlia::store::RecordIdentity, size_t> by_identity_;  // the latest entry per identity
  std::atomic<uint64_t> pending_ = 0;  // gets start on the control side and finish in lanes
  // Per side (the lanes, then the control side).
  std::array<RecordCounters, engine::EventQueue::kLanes + 1> counters_{};
  std::array<LaneNotes, engine::EventQueue::kLanes> notes_;
  std::vector<RecordMiss> misses_;
};

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_RECORD_WORKLOAD_H_
