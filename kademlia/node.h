// Node: one Kademlia node as a step function (docs/architecture.md "Layers").
//
// The Env hands it datagrams (OnDatagram) and wakes it at NextDeadline() (OnTimer); it
// answers through the injected Transport and never reads a clock, opens a socket or starts a
// thread. The libuv daemon and the simulator run exactly this class.
//
// Identity: every message carries the sender's id and Ed25519 key, and the id must be the
// SHA-256 of the key. A peer enters the routing table only after it has signed a reply to one
// of our requests (the signature covers our random transaction id, so it is fresh). Once a
// peer is verified at an address, later requests to it do not ask for a signature, so
// verification costs one signature per peer, not one per message.
//
// Node answers requests, completes its requests with their replies and timeouts, runs the timer
// and joins, and owns one helper per further job: MessageScreen (kademlia/message_screen.h,
// which incoming messages are acted on and as what: network, id-key binding, rate limits, a
// reply's pending request and proof), PeerBook (kademlia/routing/peer_book.h, which peers proved
// their key, departed contacts, verification pings in flight), PeerUpkeep
// (kademlia/routing/peer_upkeep.h, what is done about the peers heard from and failed: requesters
// verified, verified peers heard, bucket and departed contacts pinged) and LookupDriver
// (kademlia/lookup/lookup_driver.h, the iterative lookups), MessageSender
// (kademlia/message_sender.h, what goes on the wire and how), ReachDriver
// (kademlia/reach/reach_driver.h, the dial-back protocol), TableFiller
// (kademlia/routing/table_filler.h, joining and bucket refreshes), HolePuncher
// (kademlia/reach/hole_puncher.h, the path to a node by its id), NodesAnswer
// (kademlia/routing/nodes_answer.h, what a FIND_NODE is answered with) and LeaveNotices
// (kademlia/leave_notices.h, the LEAVE at shutdown, made as it is sent). The counters are NodeStats
// (kademlia/node_stats.h).
//
// Callbacks are called exactly once, from inside OnDatagram, OnTimer or Shutdown (never
// re-entrantly from the call that registered them, except where noted). Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_NODE_H_
#define SKILLNODE_KADEMLIA_NODE_H_

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "kademlia/config.h"
#include "kademlia/flat_linked_map.h"
#include "kademlia/identity.h"
#include "kademlia/keyed_hash.h"
#include "kademlia/lookup/lookup.h"
#include "kademlia/lookup/lookup_driver.h"
#include "kademlia/message_screen.h"
#include "kademlia/message_sender.h"
#include "kademlia/node_stats.h"
#include "kademlia/reach/hole_puncher.h"
#include "kademlia/reach/reach_driver.h"
#include "kademlia/reach/relay_driver.h"
#include "kademlia/request_handler.h"
#include "kademlia/routing/departed_contacts.h"
#include "kademlia/routing/nodes_answer.h"
#include "kademlia/routing/peer_book.h"
#include "kademlia/routing/peer_upkeep.h"
#include "kademlia/routing/routing_table.h"
#include "kademlia/routing/table_filler.h"
#include "kademlia/rpc/rpc_table.h"
#include "kademlia/rpc/write_token.h"
#include "kademlia/services.h"
#include "kademlia/signature_scheme.h"
#include "kademlia/wire/wire.h"
#include "transport/logger.h"
#include "transport/rng.h"
#include "transport/transport.h"

namespace skillnode::kademlia {

// What the nodes of one thread may share (the simulator's lane); each must outlive the nodes.
// A member left null gives the node one of its own.
struct NodeSharing {
  // How the node holds its configuration: a copy of its own, or a reference to the one given
  // to its constructor, which must then outlive the node (a simulated node's 536 bytes).
  enum class Config : uint8_t { kCopy, kReference };
  Config config = Config::kCopy;
  // The routing table's peer records (kademlia/routing/peer_directory.h).
  routing::PeerDirectory* peers = nullptr;
  // Counters added up over the nodes that share them (a simulated node's 1.7 kB of counters,
  // which the simulator's report sums anyway).
  NodeStats* stats = nullptr;
};

class Node {
 public:
  // `signatures` signs this node's reply proofs and checks its peers'; it must outlive the node.
  // `hash_key` keys the hashes of the verified-peer cache and the rate limiter's sources
  // (kademlia/keyed_hash.h): the daemon passes one from the OS; without one it comes from a copy
  // of `rng` (HashKeyFromCopyOf), so that a seeded run (the simulator, tests) is reproducible
  // and draws the same random numbers as before. `sharing` may give the routing table's peer
  // records (kademlia/routing/peer_directory.h) and the counters from the nodes of one thread,
  // and keep `config` by reference instead of a copy (NodeSharing).
  Node(const KademliaConfig& config, const Identity& identity, transport::Transport& transport,
       transport::Rng& rng, transport::Logger& logger, transport::TimePoint now,
       const SignatureScheme& signatures = Ed25519Signatures(),
       std::optional<HashKey> hash_key = std::nullopt, const NodeSharing& sharing = {});
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // One datagram from `from`. Anything malformed, foreign or unproven is dropped and counted.
  void OnDatagram(transport::TimePoint now, const transport::Endpoint& from,
                  std::span<const uint8_t> datagram);
  // Expires requests and refreshes idle buckets; call at NextDeadline() (earlier is harmless).
  void OnTimer(transport::TimePoint now);
  transport::TimePoint NextDeadline() const;

  // Pings an address whose node id we may not know; the reply must prove the responder's key.
  // Returns false (and never calls `done`) when too many requests are in flight.
  bool Ping(transport::TimePoint now, const transport::Endpoint& to, rpc::RpcCallback done);
  // Starts an iterative lookup for the k closest nodes to `target`. Returns false (and never
  // calls `done`) when lookups_max lookups are running.
  bool FindNode(transport::TimePoint now, const Key& target, LookupCallback done);
  // The same lookup with another request (e.g. FIND_VALUE) and a hook on every reply.
  bool StartLookup(transport::TimePoint now, const Key& target, LookupOptions options,
                   LookupCallback done);
  // Sends one request to a contact and calls `done` with the reply or the timeout. Returns
  // false (and never calls `done`) when too many requests are in flight. With `relay`, the
  // contact is a client and the request goes through that relay of its (docs/protocol.md
  // "Relays"); its reply counts as coming from `to`.
  bool Request(transport::TimePoint now, const transport::Endpoint& to, const NodeId& to_id,
               wire::Body body, rpc::RpcCallback done,
               std::optional<transport::Endpoint> relay = std::nullopt);
  // Has `id` prove its key from `from` (a ping it must sign), even when the routing table has
  // no room for it: for a service that answers only peers verified at their address (BLOB_GET
  // chunks), which a requester the table does not want would otherwise never become. The
  // proof lands in the verified-peer cache (IsVerified). One verification per peer and
  // address runs at a time, at most verifications_in_flight_max in all; a call while one runs,
  // or past that bound, does nothing.
  void VerifyRequester(transport::TimePoint now, const transport::Endpoint& from, const NodeId& id);
  // Where this node sends its dial-backs from as a third party (DIAL_BACK, docs/protocol.md
  // "Reachability"): a send-only socket whose port its peers never sent to (not owned; null: the
  // node's own transport, whose dial-backs a peer that talked to this node cannot count).
  void SetDialTransport(transport::Transport* dial) { dial_transport_ = dial; }
  // Whether this node is a client now (docs/protocol.md "Client mode"): every message it sends
  // says so ("c"), and its peers keep it out of their routing tables, as a contact strangers
  // cannot reach; it still looks up, gets, listens and publishes through them. As
  // KademliaConfig::client_mode says: never, always, or while the reachability verdict is nat
  // (looked at as each datagram arrives and each timer fires; on a change the node pings its
  // routing contacts, so that they drop it, or take it again, at once).
  bool client_mode() const { return sender_.client(); }
  // What lies between this node and the others changed (the daemon's port mapping was made,
  // moved or lost): the reachability verdict starts over (ReachDriver::Recheck).
  void RecheckReachability(transport::TimePoint now);
  // Requests of types the core does not know go to `handler` (not owned; may be null).
  void SetRequestHandler(RequestHandler* handler) { services_.SetHandler(handler); }
  // Further services (the blob transfer): asked in the order added for the requests the
  // handler does not answer, told of every contact added and evicted, and timed with the node.
  // Not owned; a service removes itself before it goes.
  void AddService(RequestHandler* service) { services_.Add(service); }
  void RemoveService(RequestHandler* service) { services_.Remove(service); }
  // Joins through `seeds`: pings them, looks up our own id, then refreshes the buckets
  // farther away (TableFiller::Join). `done` runs after the own-id lookup (or at once if no
  // seed answered).
  void Join(transport::TimePoint now, std::span<const transport::Endpoint> seeds,
            routing::JoinCallback done) {
    filler_.Join(now, seeds, std::move(done));
  }
  // Finds the node `id` and the best path to it: direct, punched through both NATs with its
  // relay's help, or through its relay (HolePuncher::Connect, docs/protocol.md "Hole
  // punching"). False (and `done` never called) when too many are running.
  bool Connect(transport::TimePoint now, const NodeId& id,
               reach::HolePuncher::ConnectCallback done) {
    return puncher_.Connect(now, id, relay_.table().EndpointOf(now, id), std::move(done));
  }
  // Tells the leave_notices_max contacts nearest our id that we are leaving (LEAVE), cancels
  // every request (callbacks get kCancelled) and finishes every lookup with what it has. The
  // node sends nothing afterwards.
  void Shutdown(transport::TimePoint now);

  const NodeId& id() const { return identity_.node_id(); }
  const Identity& identity() const { return identity_; }
  const SignatureScheme& signatures() const { return signatures_; }
  const KademliaConfig& config() const { return config_; }
  const routing::RoutingTable& routing_table() const { return routing_; }
  routing::RoutingTable& mutable_routing_table() { return routing_; }
  // This node's counters, or those of every node sharing them (NodeSharing::stats).
  const NodeStats& stats() const { return stats_; }
  const rpc::WriteTokens& tokens() const { return tokens_; }
  size_t active_lookups() const { return lookups_.size(); }
  size_t rpcs_in_flight() const { return rpcs_.size(); }
  // The key `id` proved it holds, or nullptr: a peer of the routing table that has not failed
  // since (only peers that proved their key enter it), or one of the last verified_peers_max
  // other peers that signed a reply to us. With `at`, only a proof made from that address
  // counts.
  const PublicKey* ProvenKey(const NodeId& id, const transport::Endpoint* at = nullptr) const {
    return peers_.ProvenKey(id, at);
  }
  // True when `id` proved its key from `at` and is still remembered: a peer whose address is
  // known not to be spoofed.
  bool IsVerified(const NodeId& id, const transport::Endpoint& at) const {
    return ProvenKey(id, &at) != nullptr;
  }
  // The secret key of this node's keyed hashes, for its services' tables of peer-chosen keys.
  const HashKey& hash_key() const { return hash_key_; }
  // The longest probe of the verified-peer cache and of the rate limiter's source table
  // (FlatLinkedMap::ProbeDistanceMax): short under the keyed hash whatever ids peers choose.
  size_t verified_probe_distance_max() const { return peers_.probe_distance_max(); }
  size_t rate_limiter_probe_distance_max() const {
    return screen_.rate_limiter_probe_distance_max();
  }
  // Our address as the last peer to answer us saw it (NAT discovery), if any.
  const std::optional<transport::Endpoint>& observed_address() const { return observed_; }
  // What this node knows of its reachability, and its part in others' dial-backs.
  reach::ReachDriver& reach() { return reach_; }
  const reach::ReachDriver& reach() const { return reach_; }
  // The clients this node relays for, and the relays it keeps as a client.
  const reach::RelayDriver& relay() const { return relay_; }
  // The paths Connect found, and the punches this node answered.
  const reach::HolePuncher& puncher() const { return puncher_; }

 private:
  void Drop(DropReason reason, const transport::Endpoint& from, std::string_view detail);
  void HandleRequest(transport::TimePoint now, const transport::Endpoint& from,
                     const wire::Message& request);
  void HandleReply(transport::TimePoint now, const transport::Endpoint& from,
                   const wire::Message& reply);
  // A message that decoded, from `from`: screened, then handled.
  void Dispatch(transport::TimePoint now, const transport::Endpoint& from,
                const wire::Message& message);
  // A notice (wire::IsNotice): a DIAL_BACK, a relay's RELAY, RELAY_BACK or RELAYED, or a LEAVE.
  void HandleNotice(transport::TimePoint now, const transport::Endpoint& from,
                    const wire::Message& notice);
  // A RELAYED from `relay`: what it carries, handled as if it came from where it counts from.
  void OpenRelayed(transport::TimePoint now, const transport::Endpoint& relay,
                   const wire::RelayedBody& relayed);
  // Client mode as KademliaConfig::client_mode says, at `now` (kWhenNat: the verdict).
  void RefreshClientMode(transport::TimePoint now);
  // A reply with one of our txids, from the address and under the id that request went to,
  // failed the id-key binding or its proof (MessageScreen::Action::kReject): the request fails
  // now rather than at its timeout.
  void RejectPending(transport::TimePoint now, const wire::Header& header);

  // A request that fails after `timeout` (rpc_timeout unless a service waits longer).
  // With `relay` (and `to_id`, the client's id), through that relay.
  bool SendRequest(transport::TimePoint now, const transport::Endpoint& to,
                   std::optional<NodeId> to_id, wire::Body body, rpc::RpcCallback done,
                   std::optional<transport::Duration> timeout = std::nullopt,
                   std::optional<transport::Endpoint> relay = std::nullopt);
  uint64_t NewTxid();
  // SendRequest to a contact, as the helpers' `send` action.
  auto SendAction();

  // A copy of the configuration (NodeSharing::Config::kCopy); config_ is it or the caller's.
  std::unique_ptr<const KademliaConfig> own_config_;
  const KademliaConfig& config_;
  Identity identity_;
  const SignatureScheme& signatures_;
  transport::Rng& rng_;
  transport::Logger& logger_;
  const HashKey hash_key_;

  // The routing table's peer records, when no shared directory was given.
  std::unique_ptr<routing::PeerDirectory> own_directory_;
  routing::RoutingTable routing_;
  // The verified-peer cache, departed contacts and verification pings in flight.
  routing::PeerBook peers_;
  rpc::RpcTable rpcs_;
  rpc::RttEstimator rtt_;
  // The counters, when none were given to share; stats_ is these or the shared ones.
  std::unique_ptr<NodeStats> own_stats_;
  NodeStats& stats_;
  // Headers, replies' "o" and proofs, encoding, the send counters, the transports.
  MessageSender sender_;
  // The checks on incoming messages, with the request rate limiter.
  MessageScreen screen_;
  rpc::WriteTokens tokens_;
  // The skill store and the blob transfer: requests the core does not know, contact events,
  // timers.
  Services services_;
  // The running lookups (FindNode, StartLookup).
  LookupDriver lookups_;
  // Requesters verified, verified peers heard, failures counted, departed contacts probed.
  routing::PeerUpkeep upkeep_;
  // Reachability: the dial-back protocol's three parts.
  reach::ReachDriver reach_;
  // Relays: carrying for clients, and the reservations this node keeps as one.
  reach::RelayDriver relay_;
  // Joining and bucket refreshes.
  routing::TableFiller filler_;
  // Connect's paths, and the answers to PUNCH.
  reach::HolePuncher puncher_;
  // What a FIND_NODE is answered with.
  routing::NodesAnswer nodes_answer_;
  transport::Transport* dial_transport_ = nullptr;

  std::optional<transport::Endpoint> observed_;
  bool shut_down_ = false;
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_NODE_H_
