// NodeStats: the counters a Node keeps for metrics and tests. Plain data, a few hundred bytes,
// so that a hundred thousand simulated nodes can each have one.
#ifndef SKILLNODE_KADEMLIA_NODE_STATS_H_
#define SKILLNODE_KADEMLIA_NODE_STATS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "transport/clock.h"

namespace skillnode::kademlia {

// Why an incoming datagram was dropped.
enum class DropReason : uint8_t {
  kMalformed,          // did not decode
  kWrongNetwork,       // another network id
  kIdMismatch,         // sender id is not SHA-256 of its key
  kBadProof,           // a reply's signature was missing or invalid
  kFromSelf,           // our own id
  kRateLimitedIp,      // per-source-IP budget spent
  kRateLimitedGlobal,  // global budget spent
  kUnmatchedReply,     // no request with that transaction id (late, duplicate or unsolicited)
  kWrongSource,        // a reply from another address than the request went to
  kBadRelayed,         // a RELAYED not from a relay of ours, or carrying what no relay may
  kCount,
};
std::string_view DropReasonName(DropReason reason);

// Per-message-type counters are kept in these slots.
enum class TypeSlot : uint8_t {
  kPing,
  kPong,
  kFindNode,
  kNodes,
  kFindValue,
  kValues,
  kStore,
  kStored,
  kListen,
  kListening,
  kPush,
  kPushAck,
  kBlobFind,
  kBlobHolders,
  kBlobAnnounce,
  kBlobGet,
  kBlobData,
  kReachAsk,
  kReachAsked,
  kDialRequest,
  kDialSent,
  kDialBack,
  kBlobHost,
  kRelayKeep,
  kRelayKept,
  kRelay,
  kRelayBack,
  kRelayed,
  kPunch,
  kPunched,
  kLeave,
  kError,
  kUnknown,
  kCount,
};
TypeSlot SlotOf(uint8_t type);
std::string_view TypeSlotName(TypeSlot slot);

// Upper bounds (ms) of the lookup latency histogram; the last bucket is everything above.
constexpr std::array<double, 11> kLookupLatencyBoundsMs = {5,   10,   25,   50,   100,  250,
                                                           500, 1000, 2500, 5000, 10000};

struct NodeStats {
  template <typename T>
  using PerType = std::array<T, static_cast<size_t>(TypeSlot::kCount)>;

  uint64_t datagrams_received = 0;
  uint64_t datagrams_sent = 0;
  uint64_t bytes_received = 0;
  uint64_t bytes_sent = 0;
  uint64_t send_failures = 0;  // a message that could not be encoded (a bug if ever non-zero)
  // Messages sent through a relay (RELAY, RELAY_BACK) and received through one (RELAYED), also
  // counted as datagrams (docs/protocol.md "Relays").
  uint64_t relayed_sent = 0;
  uint64_t relayed_received = 0;
  std::array<uint64_t, static_cast<size_t>(DropReason::kCount)> dropped{};

  PerType<uint64_t> requests_received{};
  PerType<uint64_t> rpcs_sent{};
  PerType<uint64_t> rpcs_replied{};  // answered with the expected reply
  PerType<uint64_t> rpcs_errored{};  // answered with ERROR
  PerType<uint64_t> rpcs_timed_out{};
  uint64_t rpcs_refused = 0;  // not sent: rpcs_in_flight_max reached
  // Failed at once: the address asked answered with our txid under the id we asked for, but
  // that id is not the hash of its key or its proof did not verify (an impersonation).
  uint64_t rpcs_rejected = 0;

  uint64_t signatures_verified = 0;  // Ed25519 checks actually run
  uint64_t verification_cache_hits = 0;
  // Unknown requesters not verified: the routing table had no use for them (Wants).
  uint64_t verifications_skipped = 0;
  // Messages from peers in client mode ("c"), kept out of the routing table, and contacts
  // removed from it because a proven peer said it is one now.
  uint64_t client_messages = 0;
  uint64_t clients_removed = 0;
  // Times this node went into or out of client mode (KademliaConfig::client_mode kWhenNat).
  uint64_t client_mode_changes = 0;
  // Pings to contacts evicted for silence, in case they came back (departed_contacts.h).
  uint64_t departed_probes = 0;
  // LEAVE notices sent when shutting down, and contacts removed because they said they left.
  uint64_t leaves_sent = 0;
  uint64_t contacts_left = 0;

  uint64_t lookups_started = 0;
  uint64_t lookups_completed = 0;
  uint64_t lookups_refused = 0;  // lookups_max reached
  uint64_t lookup_hops_sum = 0;
  uint64_t lookup_messages_sum = 0;
  std::array<uint64_t, kLookupLatencyBoundsMs.size() + 1> lookup_latency_buckets{};
  double lookup_latency_sum_ms = 0;

  uint64_t dropped_total() const;
  void RecordLookup(int hops, size_t messages, transport::Duration duration);
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_NODE_STATS_H_
