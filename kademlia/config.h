// KademliaConfig: every tunable and every limit of the protocol core, in one place, each with
// its default and a one-line reason. The daemon fills it from YAML and flags; the simulator
// from a scenario file.
#ifndef SKILLNODE_KADEMLIA_CONFIG_H_
#define SKILLNODE_KADEMLIA_CONFIG_H_

#include <cstddef>
#include <cstdint>

#include "kademlia/reach/reach_config.h"
#include "transport/clock.h"

namespace skillnode::kademlia {

// Protocol version carried in every message; a receiver accepts any version and ignores
// fields it does not know (forward compatibility).
constexpr uint32_t kProtocolVersion = 1;
// One message per datagram, never more: the IPv6 minimum MTU, so no IP fragmentation.
constexpr size_t kDatagramSizeMax = 1280;

struct RoutingConfig {
  // k: contacts per bucket and the size of a lookup's result (Kademlia paper, mainline DHT
  // and OpenDHT use 8; libp2p and the paper's analysis use 20).
  size_t bucket_size = 20;
  // Verified contacts kept per bucket to replace failing ones without a new lookup.
  size_t replacement_cache_size = 10;
  // Consecutive timeouts after which a contact is evicted; 3 keeps a contact through brief
  // loss (2 % loss: 1 in 125,000 chance of a false eviction) but drops dead ones in seconds.
  int stale_failures_max = 3;
  // A bucket with no lookup through it for this long is refreshed (Kademlia paper: 1 hour;
  // 15 min keeps tables fresh under the churn measured in deployed DHTs).
  transport::Duration bucket_refresh_interval = transport::Seconds(15 * 60);
  // A full bucket pings its least-recently-seen contact for a newcomer only when that contact
  // has been silent this long or has just failed; one heard from recently is alive, and the
  // newcomer waits in the replacement cache (BEP 5: a node is good for 15 minutes after it
  // was last heard from). Pinging for every newcomer made pings 70 % of all requests.
  transport::Duration ping_oldest_after = transport::Seconds(15 * 60);
  // Proximity neighbour selection: in a full bucket that holds none of our k closest
  // contacts, a newcomer whose measured RTT is at most this fraction of the slowest measured
  // contact's takes its place (that one goes to the replacement cache). Early lookup hops
  // then go to near peers; 0 turns it off and keeps plain Kademlia's oldest-first buckets.
  double proximity_ratio = 0.5;
  // Sybil resistance: at most this many contacts per bucket from one network prefix.
  size_t diversity_per_bucket_max = 2;
  int diversity_ipv4_prefix_bits = 24;
  int diversity_ipv6_prefix_bits = 64;
  // Loopback, link-local and private addresses are exempt, so that many nodes on one host or
  // one LAN can form a network.
  bool diversity_exempt_local = true;
  // Contacts evicted for silence are kept (at most departed_max; 0: none) and pinged
  // departed_probe_after their eviction, then at doubling intervals, for departed_keep, one
  // ping per departed_probe_spacing at most: a node that lost peers to a partition rather
  // than to churn finds them again once it heals (kademlia/routing/departed_contacts.h).
  size_t departed_max = 64;
  transport::Duration departed_probe_after = transport::Seconds(5);
  transport::Duration departed_keep = transport::Seconds(10 * 60);
  transport::Duration departed_probe_spacing = transport::Seconds(1);

  bool operator==(const RoutingConfig&) const = default;
};

struct RateLimitConfig {
  // Requests per second accepted from one source IP, and the burst allowed above it. 50
  // nodes on one host share 127.0.0.1, each sending a few requests per second at most.
  double per_ip_rate = 500.0;
  double per_ip_burst = 1000.0;
  // Requests per second accepted in total, and the burst; beyond that requests are dropped.
  double global_rate = 20000.0;
  double global_burst = 40000.0;
  // Source IPs tracked at once; the least recently active bucket is forgotten past this.
  size_t tracked_ips_max = 4096;

  bool operator==(const RateLimitConfig&) const = default;
};

// Whether a node is a client: a node its peers keep out of their routing tables, as strangers
// cannot reach it (docs/protocol.md "Client mode").
enum class ClientMode : uint8_t {
  kOff,      // a full node (the simulator's scenarios, unless they say)
  kOn,       // always a client (set by configuration)
  kWhenNat,  // a client while the dial-backs' verdict is nat (the daemon's default; needs
             // reach_probes to come to a verdict)
};

struct KademliaConfig {
  // Messages with another network id are dropped: separate networks never mix.
  uint32_t network_id = 0;
  RoutingConfig routing;
  RateLimitConfig rate_limit;
  // Parallel requests per lookup (alpha), as in the paper.
  size_t alpha = 3;
  // Disjoint paths per lookup (S/Kademlia d); 1 is a plain Kademlia lookup.
  size_t disjoint_paths = 1;
  // Times a node lookup sends a query again when the closest contact it knows has not
  // answered by its soft deadline (see rpc_timeout): one lost datagram to the node that holds
  // the target then costs a soft deadline, not the lookup's answer. Only the closest: waiting
  // twice for every silent one of the k closest (most of them gone, not lost) made the
  // lookups that meet one half a second slower.
  size_t lookup_slow_retries = 1;
  // Once the closest contact a lookup knows has answered, it asks the rest of the k closest
  // at once instead of alpha at a time (Kademlia paper 2.3, the last round): no more
  // messages, and the lookup ends about one round trip after it converged.
  bool lookup_final_round = true;
  // Queries a lookup may have in flight beyond alpha, for contacts closer to the target than
  // all but alpha - 1 of those in flight (LookupParams::extra_slots): a closer contact an
  // answer names is asked at once. Measured on E3 at Heep's conditions (docs/simulation.md
  // "Lookups under churn"): 3 takes Heep's latency from 358 to 347 ms for 18 % more messages.
  size_t lookup_extra_slots = 3;
  // A request unanswered for rpc_timeout has failed (the peer counts a failure). A lookup
  // stops waiting for a query sooner, after the adaptive timeout (twice the 95th percentile
  // of recent RTTs, rpc_table.h RttEstimator, within [rpc_timeout_min, rpc_timeout]), and
  // still takes its reply if it comes before rpc_timeout.
  transport::Duration rpc_timeout = transport::Seconds(1);
  transport::Duration rpc_timeout_min = transport::Millis(100);
  // A contact whose RTT has been measured gets a soft deadline of its own: its smoothed RTT
  // plus four deviations (RFC 6298), within the same bounds. A near peer that went silent is
  // then given up in a few of its round trips, not in twice the slowest peers' time.
  bool peer_soft_deadlines = true;
  // A node that shuts down sends LEAVE to this many of its contacts nearest its own id (0:
  // none): they are the ones that name it in answers for keys near it, and a lookup then
  // does not wait out its silence (docs/protocol.md "Leaving").
  size_t leave_notices_max = 64;
  // Requests awaiting a reply at once; beyond that new requests fail at once.
  size_t rpcs_in_flight_max = 4096;
  // Lookups running at once; beyond that new lookups fail at once.
  size_t lookups_max = 256;
  // Requests per lookup before it gives up (guards against endless closer-node chains).
  size_t lookup_requests_max = 200;
  // Peers outside the routing table remembered as verified (key proven at an address); the
  // least recently heard is forgotten first, and must then sign once more. The table's own
  // contacts count as verified without an entry, so this covers the peers of the last few
  // lookups (a lookup asks 10 to 60), in about 30 KB. When this cache held the table's
  // contacts too (10,000, in insertion order), it was half the memory of a simulated
  // 10,000-node churn run (2.6 GB against 1.0 GB now, with the same traffic).
  size_t verified_peers_max = 256;
  // How often the write-token secret changes; a token stays valid for one to two rotations
  // (BitTorrent's BEP 5 uses 5 minutes and 10 minutes).
  transport::Duration token_rotation = transport::Seconds(5 * 60);
  // Unknown requesters being verified with a ping at once; more wait for their next request.
  size_t verifications_in_flight_max = 64;
  // Reachability (kademlia/reach/reach_driver.h, docs/protocol.md "Reachability"). With
  // reach_probes the node votes on its external address over its replies' "o" and asks peers
  // for dial-backs to learn whether strangers reach it (the daemon sets it); without, it only
  // helps others: the simulator's scenarios leave it off, as they model no NAT.
  bool reach_probes = false;
  reach::ReachConfig reach;
  // Relays (kademlia/reach/relay_driver.h, docs/protocol.md "Relays"): every node carries
  // datagrams for the clients that keep a reservation with it, within these limits; a client
  // keeps reservations at the full nodes closest to its id.
  reach::RelayConfig relay;
  // Hole punching (kademlia/reach/hole_puncher.h, docs/protocol.md "Hole punching"): reaching a
  // client directly through its NAT, coordinated by its relay.
  reach::PunchConfig punch;
  // When this node is a client (Node::client_mode, docs/protocol.md "Client mode"): its
  // messages say so and peers keep it out of their routing tables.
  ClientMode client_mode = ClientMode::kOff;

  bool operator==(const KademliaConfig&) const = default;
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_CONFIG_H_
