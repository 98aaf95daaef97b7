// RpcTable: requests awaiting a reply, matched by transaction id, expired in deadline order.
//
// The node owns one. A reply is matched by txid and must come from the address the request
// went to; the table only stores and hands back entries, the node decides. Bounded by
// rpcs_in_flight_max. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_RPC_RPC_TABLE_H_
#define SKILLNODE_KADEMLIA_RPC_RPC_TABLE_H_

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kademlia/key.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::rpc {

enum class RpcStatus {
  kReplied,    // a valid, verified reply arrived (may be an ERROR reply: check its body)
  kTimedOut,   // no valid reply before the deadline
  kCancelled,  // the node shut down, or the in-flight limit refused the request
  kRejected,   // the address asked answered with our txid, but not as the node asked for:
               // its id is not SHA-256 of its key, or its proof did not verify
};

struct RpcResult {
  RpcStatus status = RpcStatus::kTimedOut;
  // The reply, valid only during the callback; null unless kReplied.
  const wire::Message* reply = nullptr;
  // The address the reply came from (the request's destination).
  transport::Endpoint from;
  transport::Duration rtt{};
  // When the outcome happened (the reply's arrival, the timeout, the shutdown).
  transport::TimePoint now = transport::kTimeZero;
};

// Called exactly once per request.
using RpcCallback = std::function<void(const RpcResult&)>;

struct PendingRpc {
  transport::Endpoint to;
  std::optional<NodeId> to_id;  // unknown for bootstrap seeds given by address only
  // The relay the request went through to the client `to_id` (docs/protocol.md "Relays"): its
  // reply comes back from there, in a RELAYED, and counts as coming from `to`.
  std::optional<transport::Endpoint> relay;
  uint8_t type = 0;
  bool proof_wanted = false;
  // The key `to_id` had proven at `to` when the request went out without asking for a proof.
  std::optional<PublicKey> verified_key;
  transport::TimePoint sent = transport::kTimeZero;
  transport::TimePoint deadline = transport::kTimeZero;
  RpcCallback done;
};

class RpcTable {
 public:
  // Taken requests the deadline heap may hold beyond twice the pending ones before it is
  // rebuilt.
  static constexpr size_t kTakenSlack = 64;
  // The most hash buckets and deadline places an empty table keeps: a table that held more
  // requests at once lets their storage go once the last one is taken (a large simulated
  // network holds a million idle tables).
  static constexpr size_t kIdleCapacity = 16;

  explicit RpcTable(size_t in_flight_max) : in_flight_max_(in_flight_max) {}

  bool full() const { return by_txid_.size() >= in_flight_max_; }
  size_t size() const { return by_txid_.size(); }
  bool contains(uint64_t txid) const { return by_txid_.contains(txid); }

  // Stores a request; txid must be unused and the table not full.
  void Add(uint64_t txid, PendingRpc rpc);
  const PendingRpc* Find(uint64_t txid) const;
  std::optional<PendingRpc> Take(uint64_t txid);
  // Removes and returns the requests whose deadline is at or before `now`, earliest first
  // (ties in the order they were added).
  std::vector<PendingRpc> TakeExpired(transport::TimePoint now);
  std::vector<PendingRpc> TakeAll();
  transport::TimePoint NextDeadline() const;
  // Entries in the deadline heap, pending or taken (never above 2 x size() + kTakenSlack);
  // for tests.
  size_t deadline_entries() const { return by_deadline_.size(); }
  // The hash buckets and deadline places allocated, used or not; for tests.
  size_t bucket_count() const { return by_txid_.bucket_count(); }
  size_t deadline_capacity() const { return by_deadline_.capacity(); }

 private:
  struct Entry {
    PendingRpc rpc;
    uint64_t sequence = 0;  // its place in by_deadline_
  };
  struct Deadline {
    transport::TimePoint at;
    uint64_t sequence;  // ties: the order they were added
    uint64_t txid;
    bool operator>(const Deadline& o) const {
      return at != o.at ? at > o.at : sequence > o.sequence;
    }
  };

  // Whether the heap entry is still a pending request (not taken since).
  bool Live(const Deadline& d) const;
  // Pops taken requests off the top of the heap, so that its top is always pending; rebuilds
  // the heap from the pending requests when taken ones make up most of it.
  void DropTaken();

  size_t in_flight_max_;
  uint64_t sequence_ = 0;
  std::unordered_map<uint64_t, Entry> by_txid_;
  // A min-heap on (deadline, sequence). Take leaves its entry in place (no search); entries
  // of taken requests are dropped when they reach the top, and the heap is rebuilt from the
  // pending ones once it holds more than 2 x pending + kTakenSlack entries.
  std::vector<Deadline> by_deadline_;
};

// Round-trip times of a node's recent replies, over all its peers, and the timeout derived
// from them: how long a lookup waits for a query before it moves on (Lookup's soft deadline;
// the request itself stays open until rpc_timeout, so a slow answer still arrives as a sample).
//
// A node talks to near and far peers alike, so its RTTs are a mix, not one path's jittery
// delay: RFC 6298's SRTT + 4 * RTTVAR follows a run of near peers down and then times out
// the far ones that are still answering (a simulated churn run with regional RTTs lost 31 %
// of its requests that way, most of them replies that came late). The timeout is instead
// 1.5 times the 95th percentile of the last kRttWindow samples: it waits for the slow peers
// the node actually has, and still gives up quickly on a LAN. (Twice it, as before, waited
// longer for departed contacts with no gain; 1.2 and 1.0 gave up on slow live ones too, and
// lookups missed more of the true k closest: docs/simulation.md, "Faster lookups".) Until
// kRttSamplesMin replies have been seen it is the ceiling.
class RttEstimator {
 public:
  static constexpr size_t kRttWindow = 64;
  static constexpr size_t kRttSamplesMin = 32;
  static constexpr double kRttTimeoutFactor = 1.5;
  static constexpr double kRttTimeoutPercentile = 0.95;

  // The longest sample kept, about 36 minutes: a longer one counts as this long (no reply is
  // waited for nearly so long). Samples are kept in 32 bits, since a large simulated network
  // holds a million estimators.
  static constexpr int32_t kRttSampleMaxUs = std::numeric_limits<int32_t>::max();

  void Sample(transport::Duration rtt);
  transport::Duration Timeout(transport::Duration floor, transport::Duration ceiling) const;

 private:
  uint64_t samples_ = 0;
  std::array<int32_t, kRttWindow> window_us_{};  // ring; samples_ % kRttWindow is next
  // The same samples in ascending order (the first min(samples_, kRttWindow)): a Sample moves
  // a few of them, and Timeout reads its percentile directly, once per lookup step.
  std::array<int32_t, kRttWindow> sorted_us_{};
};

}  // namespace skillnode::kademlia::rpc

#endif  // SKILLNODE_KADEMLIA_RPC_RPC_TABLE_H_
