// ReachDriver: a node's three parts in the dial-back protocol (docs/protocol.md "Reachability"),
// over the node's messages:
//   - the asker: while its ReachTracker says a probe is due, it asks a routing contact it is not
//     asking already (REACH_ASK, a fresh nonce) to have a stranger dial it back, and feeds the
//     tracker with the answer (REACH_ASKED), the dial-backs that arrive (DIAL_BACK), every
//     datagram the node sends and the address each replier saw it at ("o");
//   - the helper: on a REACH_ASK, it asks a third party (a routing contact on another address
//     than the asker's) to dial the asker at the endpoint the REACH_ASK came from
//     (DIAL_REQUEST), and answers REACH_ASKED only once the third party answered, or did not
//     (so its answer says whether the dial-back went, and the dial-back usually arrives first);
//     at most helps_in_flight_max wait for their third party at once;
//   - the third party: on a DIAL_REQUEST, it sends DIAL_BACK through the dial action (the
//     daemon's send-only socket, whose port the asker never sent to) at most
//     dial_backs_per_second, and answers DIAL_SENT.
// The asker's part runs only when KademliaConfig::reach_probes is set; the helper's and third
// party's always do, so that every node helps its peers.
//
// The Node owns it, hands it the messages of the five types, its sends and the replies' "o",
// and gives it ways to send (Actions). Not thread-safe; no I/O.
#ifndef SKILLNODE_KADEMLIA_REACH_REACH_DRIVER_H_
#define SKILLNODE_KADEMLIA_REACH_REACH_DRIVER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>

#include "kademlia/config.h"
#include "kademlia/reach/reach_tracker.h"
#include "kademlia/routing/routing_table.h"
#include "kademlia/rpc/rate_limiter.h"
#include "kademlia/rpc/rpc_table.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"
#include "transport/endpoint.h"
#include "transport/rng.h"

namespace skillnode::kademlia::reach {

struct ReachDriverStats {
  uint64_t asks_sent = 0;           // REACH_ASK sent (a probe started)
  uint64_t asks_unanswered = 0;     // REACH_ASK that failed or timed out
  uint64_t asks_no_helper = 0;      // a probe was due and no contact could be asked
  uint64_t helps = 0;               // REACH_ASK taken on (a DIAL_REQUEST sent)
  uint64_t helps_no_third = 0;      // REACH_ASK answered "not dialed": no third party to ask
  uint64_t helps_full = 0;          // REACH_ASK answered "not dialed": helps_in_flight_max
  uint64_t helps_dialed = 0;        // REACH_ASKED "dialed" sent
  uint64_t dial_backs_sent = 0;     // DIAL_BACK sent as a third party
  uint64_t dial_backs_limited = 0;  // DIAL_REQUEST answered "not sent": dial_backs_per_second
};

class ReachDriver {
 public:
  struct Actions {
    // Sends a request to `to_id` at `to`, waiting `timeout` for its reply; false when it was not
    // sent, and then `done` is never called.
    std::function<bool(transport::TimePoint now, const transport::Endpoint& to, const NodeId& to_id,
                       wire::Body body, transport::Duration timeout, rpc::RpcCallback done)>
        send;
    // Answers the request with header `request`, which came from `to`.
    std::function<void(transport::TimePoint now, const transport::Endpoint& to,
                       const wire::Header& request, wire::Body body)>
        reply;
    // Sends the notice `body` (DIAL_BACK) to `to` from the dial socket.
    std::function<void(transport::TimePoint now, const transport::Endpoint& to, wire::Body body)>
        dial;
  };

  // `config` and `routing` are the node's and must outlive this.
  ReachDriver(const KademliaConfig& config, const routing::RoutingTable& routing,
              transport::Rng& rng, transport::TimePoint now, Actions actions);
  ReachDriver(const ReachDriver&) = delete;
  ReachDriver& operator=(const ReachDriver&) = delete;

  // The node sent a datagram to `to` from its own socket.
  void OnSent(transport::TimePoint now, const transport::Endpoint& to) {
    if (config_.reach_probes) tracker_.OnSent(now, to);
  }
  // A reply from `from` said it saw this node at `observed`.
  void OnObserved(transport::TimePoint now, const transport::Endpoint& from,
                  const transport::Endpoint& observed);
  // A REACH_ASK or DIAL_REQUEST from `from`: the reply to send now, or nullopt when it goes
  // later through Actions::reply (a REACH_ASK passed on to a third party).
  std::optional<wire::Body> OnRequest(transport::TimePoint now, const transport::Endpoint& from,
                                      const wire::Message& request);
  // A DIAL_BACK from `from`.
  void OnDialBack(transport::TimePoint now, const transport::Endpoint& from,
                  const wire::DialBackBody& dial_back);

  // Starts the probes due and ends those whose time ran out; call at NextDeadline.
  void OnTimer(transport::TimePoint now);
  // The way in from outside changed (the daemon's port mapping was made or lost): the verdict
  // starts over (unknown: a node in client mode when nat is a full node again meanwhile) and
  // probes go at once, every probe_interval_unknown until they agree.
  void Recheck(transport::TimePoint now);
  transport::TimePoint NextDeadline() const { return next_deadline_; }

  Reachability reachability(transport::TimePoint now) { return tracker_.Current(now); }
  const ExternalAddress& external(transport::TimePoint now) { return tracker_.External(now); }
  const ReachStats& tracker_stats() const { return tracker_.stats(); }
  const ReachDriverStats& stats() const { return stats_; }
  size_t helps_in_flight() const { return helps_in_flight_; }

 private:
  // Asks one more helper when a probe is due.
  void StartProbe(transport::TimePoint now);
  // A contact to ask for help, not asked by a probe in flight; nullopt when there is none.
  std::optional<Contact> PickHelper();
  // A third party for the asker at `asker`: a contact on another address, not the asker.
  std::optional<Contact> PickThirdParty(const NodeId& asker, const transport::Endpoint& from);
  // A REACH_ASK: passed on to a third party, or answered "not dialed" now.
  std::optional<wire::Body> Help(transport::TimePoint now, const transport::Endpoint& from,
                                 const wire::Message& request);
  // A DIAL_REQUEST: the dial-back sent (within the rate), and the answer.
  wire::Body Dial(transport::TimePoint now, const wire::DialRequestBody& request);
  void UpdateDeadline(transport::TimePoint now);

  const KademliaConfig& config_;
  const routing::RoutingTable& routing_;
  transport::Rng& rng_;
  Actions actions_;
  ReachTracker tracker_;
  rpc::TokenBucket dial_backs_;
  size_t helps_in_flight_ = 0;
  // A probe that was due found no helper: the next try, not before.
  transport::TimePoint retry_at_ = transport::kTimeZero;
  transport::TimePoint next_deadline_ = transport::kTimeNever;
  ReachDriverStats stats_;
};

}  // namespace skillnode::kademlia::reach

#endif  // SKILLNODE_KADEMLIA_REACH_REACH_DRIVER_H_
