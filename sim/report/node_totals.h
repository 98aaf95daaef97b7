// NodeTotals: the kademlia::NodeStats counters of every node that ran in one simulation,
// added up (nodes that left are added when they leave). Reported under "node_stats" in
// summary.json; the drop reasons and timeouts are where simulator-found bugs show first.
#ifndef SKILLNODE_SIM_REPORT_NODE_TOTALS_H_
#define SKILLNODE_SIM_REPORT_NODE_TOTALS_H_

#include <algorithm>
#include <array>
#include <cstdint>

#include "kademlia/node_stats.h"
#include "kademlia/store/skill_dht.h"

namespace skillnode::sim::report {

// What the live nodes hold at the end of a run, added up (nodes that left hold nothing): the
// memory a simulated node's store carries, beside the process's peak RSS.
struct Holdings {
  uint64_t records = 0;          // skill records in value stores (a copy per key held)
  uint64_t record_bytes = 0;     // their accounted bytes (encoding and signature)
  uint64_t pointers = 0;         // term pointers in term tables
  uint64_t pointer_bytes = 0;    // their accounted bytes
  uint64_t term_keys = 0;        // term keys held, one per node holding it
  uint64_t pointers_max = 0;     // the most pointers one node holds
  uint64_t verified_cached = 0;  // records kept decoded in the tables of verified copies
  uint64_t verified_cached_max = 0;

  void Add(const kademlia::store::SkillDht& dht) {
    records += dht.store().records();
    record_bytes += dht.store().bytes();
    pointers += dht.terms().pointers();
    pointer_bytes += dht.terms().bytes();
    term_keys += dht.terms().keys();
    pointers_max = std::max<uint64_t>(pointers_max, dht.terms().pointers());
    verified_cached += dht.verified_records_cached();
    verified_cached_max = std::max<uint64_t>(verified_cached_max, dht.verified_records_cached());
  }
};

struct NodeTotals {
  uint64_t nodes = 0;  // nodes that ran (scripted adversaries have none)
  uint64_t datagrams_received = 0;
  uint64_t datagrams_sent = 0;
  uint64_t send_failures = 0;
  std::array<uint64_t, static_cast<size_t>(kademlia::DropReason::kCount)> dropped{};
  uint64_t rpcs_sent = 0;
  kademlia::NodeStats::PerType<uint64_t> rpcs_sent_by_type{};
  kademlia::NodeStats::PerType<uint64_t> requests_received_by_type{};
  uint64_t rpcs_timed_out = 0;
  uint64_t rpcs_refused = 0;
  uint64_t rpcs_rejected = 0;
  uint64_t signatures_verified = 0;
  uint64_t verification_cache_hits = 0;
  uint64_t verifications_skipped = 0;
  uint64_t lookups_started = 0;
  uint64_t lookups_refused = 0;
  uint64_t leaves_sent = 0;          // LEAVE notices of graceful departures
  uint64_t contacts_left = 0;        // ... contacts removed from tables on one
  uint64_t client_messages = 0;      // messages from peers in client mode (network.nat)
  uint64_t clients_removed = 0;      // ... contacts removed as they turned out to be clients
  uint64_t client_mode_changes = 0;  // ... nodes going into or out of client mode
  // From the skill store (kademlia::DhtStats), when the scenario has records.
  uint64_t handoff_records = 0;
  uint64_t repair_keys = 0;
  uint64_t pages_retried = 0;
  uint64_t read_repairs = 0;
  uint64_t records_resigned = 0;         // own records signed again as their window ran out
  uint64_t records_outside_window = 0;   // dropped from answers and pushes: outside their window
  uint64_t term_pointers_published = 0;  // keyword index pointers placed by their publishers
  uint64_t term_handoff_pointers = 0;    // ... handed to newcomers and repaired by holders
  uint64_t term_read_repairs = 0;        // ... stored by readers on close holders lacking them
  uint64_t term_pointers_handed_on = 0;  // ... displaced from full keys, sent to the next shard
  uint64_t term_hand_ons_placed = 0;     // ... of those, stored there or farther up
  uint64_t term_pointers_outranked = 0;  // held pointers kept shorter: their holder outranked
  uint64_t records_verified = 0;         // record signatures checked in full
  uint64_t records_verified_again = 0;   // copies found in the verified-record table instead
  Holdings held;                         // the live nodes' stores at the end

  void AddDht(const kademlia::store::DhtStats& s) {
    read_repairs += s.read_repairs;
    records_resigned += s.records_resigned;
    records_outside_window += s.records_outside_window;
    handoff_records += s.handoff_records;
    repair_keys += s.repair_keys;
    pages_retried += s.pages_retried;
    term_pointers_published += s.term_pointers_published;
    term_handoff_pointers += s.term_handoff_pointers;
    term_read_repairs += s.term_read_repairs;
    term_pointers_handed_on += s.term_pointers_handed_on;
    term_hand_ons_placed += s.term_hand_ons_placed;
    term_pointers_outranked += s.term_pointers_outranked;
    records_verified += s.records_verified;
    records_verified_again += s.records_verified_again;
  }

  // Adds counters, of one node or of many that shared them (kademlia::NodeSharing); `nodes`
  // is counted apart.
  void Add(const kademlia::NodeStats& s) {
    datagrams_received += s.datagrams_received;
    datagrams_sent += s.datagrams_sent;
    send_failures += s.send_failures;
    for (size_t i = 0; i < dropped.size(); ++i) dropped[i] += s.dropped[i];
    for (size_t i = 0; i < rpcs_sent_by_type.size(); ++i) {
      rpcs_sent += s.rpcs_sent[i];
      rpcs_sent_by_type[i] += s.rpcs_sent[i];
      requests_received_by_type[i] += s.requests_received[i];
    }
    for (uint64_t n : s.rpcs_timed_out) rpcs_timed_out += n;
    rpcs_refused += s.rpcs_refused;
    rpcs_rejected += s.rpcs_rejected;
    signatures_verified += s.signatures_verified;
    verification_cache_hits += s.verification_cache_hits;
    verifications_skipped += s.verifications_skipped;
    lookups_started += s.lookups_started;
    lookups_refused += s.lookups_refused;
    leaves_sent += s.leaves_sent;
    contacts_left += s.contacts_left;
    client_messages += s.client_messages;
    clients_removed += s.clients_removed;
    client_mode_changes += s.client_mode_changes;
  }
};

}  // namespace skillnode::sim::report

#endif  // SKILLNODE_SIM_REPORT_NODE_TOTALS_H_
