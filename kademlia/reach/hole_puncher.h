// HolePuncher: reaching a node by its id on the best path there is, and this node's part when
// another asks it to punch (docs/protocol.md "Hole punching").
//
// Connect(id) looks the id up (FIND_NODE) and decides the path:
//   - kDirect: a reply came from the id itself (a full node), and it answers a PING there;
//   - kPunched: a reply named the id in "cl" (a client, in nobody's routing table; the replier
//     is one of its relays, which saw it at that endpoint). This node sends PUNCH through the
//     relay; the client PINGs the endpoint the relay saw this node at, which opens its NAT
//     towards this node when the NAT maps endpoint-independently, then answers PUNCHED through
//     the relay; this node then PINGs the client's endpoint directly (direct_pings times at
//     most), and the client answers past its NAT;
//   - kRelayed: the punch failed (ERROR, no PUNCHED, or no PONG: a NAT that draws a new port
//     for each destination, as a random-port router does, makes the endpoints the relay saw
//     useless to the other side), and a PING through the relay was answered;
//   - kUnreachable: nothing answered.
// OnPunch is the client's side: a PING to the asker where the relay saw it, then PUNCHED,
// within answers_per_second.
//
// The Node owns it and gives it its lookups and requests (Actions). Not thread-safe; no I/O.
#ifndef SKILLNODE_KADEMLIA_REACH_HOLE_PUNCHER_H_
#define SKILLNODE_KADEMLIA_REACH_HOLE_PUNCHER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string_view>

#include "kademlia/contact.h"
#include "kademlia/lookup/lookup_driver.h"
#include "kademlia/reach/reach_config.h"
#include "kademlia/rpc/rate_limiter.h"
#include "kademlia/rpc/rpc_table.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::reach {

struct PunchStats {
  // As the asker: Connect calls, by the path they decided.
  uint64_t connects = 0;
  uint64_t direct = 0;
  uint64_t punched = 0;
  uint64_t relayed = 0;
  uint64_t unreachable = 0;
  uint64_t punches_sent = 0;    // PUNCH sent through a relay
  uint64_t punches_failed = 0;  // ... with no PUNCHED, or no PONG to the direct PINGs after it
  // As the client asked.
  uint64_t punches_answered = 0;  // PUNCH answered PUNCHED, after a PING to the asker
  uint64_t punches_refused = 0;   // PUNCH answered ERROR kRateLimited
};

class HolePuncher {
 public:
  enum class Path : uint8_t { kDirect, kPunched, kRelayed, kUnreachable };

  struct Connection {
    NodeId id;
    Path path = Path::kUnreachable;
    // Where the node answered: its own endpoint (direct), the client's as its relay saw it
    // (punched, relayed); unset when unreachable.
    std::optional<transport::Endpoint> endpoint;
    // The client's relay (punched, relayed).
    std::optional<Contact> relay;
    // The round trip of the PING that decided the path.
    transport::Duration rtt{};
  };
  using ConnectCallback = std::function<void(const Connection&)>;

  struct Actions {
    // Node::StartLookup.
    std::function<bool(transport::TimePoint now, const Key& target, LookupOptions options,
                       LookupCallback done)>
        lookup;
    // Node::Request: a request to `to_id` at `to`, through `relay` when set (its reply counts
    // as coming from `to`); false when it was not sent, and then `done` is never called.
    std::function<bool(transport::TimePoint now, const transport::Endpoint& to, const NodeId& to_id,
                       wire::Body body, rpc::RpcCallback done,
                       std::optional<transport::Endpoint> relay)>
        send;
  };

  HolePuncher(const PunchConfig& config, Actions actions);
  HolePuncher(const HolePuncher&) = delete;
  HolePuncher& operator=(const HolePuncher&) = delete;

  // Finds `id` and the best path to it; `done` runs once, possibly before Connect returns (a
  // lookup with no contact to ask ends at once). With `client_of_ours` (a client that keeps a
  // reservation at this node, at that endpoint: its NAT lets this node in) it PINGs it there:
  // kDirect. False (and `done` never called) when connects_max are running, or the lookup or
  // that PING could not start.
  bool Connect(transport::TimePoint now, const NodeId& id,
               std::optional<transport::Endpoint> client_of_ours, ConnectCallback done);
  // A PUNCH from `asker`, which the relay saw at `from`: PINGs `from` (opening this node's NAT
  // towards it) and returns PUNCHED; past answers_per_second, ERROR kRateLimited and no PING.
  wire::Body OnPunch(transport::TimePoint now, const transport::Endpoint& from,
                     const NodeId& asker);

  size_t running() const { return attempts_.size(); }
  const PunchStats& stats() const { return stats_; }

 private:
  struct Attempt {
    NodeId id;
    ConnectCallback done;
    // From the lookup: the node's own endpoint (it answered there: a full node), or the
    // client's endpoint as its relay saw it, and the relay.
    std::optional<transport::Endpoint> direct;
    std::optional<transport::Endpoint> client;
    std::optional<Contact> relay;
    size_t pings = 0;  // direct PINGs sent after PUNCHED
  };

  // Sees each lookup reply; true once it found the node or a relay of its.
  bool OnLookupReply(uint64_t attempt, const Contact& from, const wire::Message& reply);
  void Looked(uint64_t attempt, const LookupResult& result);
  void PingDirect(transport::TimePoint now, uint64_t attempt);
  void Punch(transport::TimePoint now, uint64_t attempt);
  void PingPunched(transport::TimePoint now, uint64_t attempt);
  void PingRelayed(transport::TimePoint now, uint64_t attempt);
  // Sends a PING (through the attempt's relay when `relayed`); `answered` runs with the
  // result when a PONG came, `failed` otherwise (also when it could not be sent).
  void Ping(transport::TimePoint now, uint64_t attempt, const transport::Endpoint& to, bool relayed,
            std::function<void(const rpc::RpcResult&)> answered,
            std::function<void(transport::TimePoint)> failed);
  void Finish(uint64_t attempt, Path path, const transport::Endpoint* at, transport::Duration rtt);

  PunchConfig config_;
  Actions actions_;
  std::map<uint64_t, Attempt> attempts_;  // at most connects_max
  uint64_t next_attempt_ = 1;
  rpc::TokenBucket answers_;
  bool answers_started_ = false;
  PunchStats stats_;
};

// "direct", "punched", "relayed", "unreachable".
std::string_view PathName(HolePuncher::Path path);

}  // namespace skillnode::kademlia::reach

#endif  // SKILLNODE_KADEMLIA_REACH_HOLE_PUNCHER_H_
