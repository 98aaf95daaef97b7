// ReachConfig: the named limits of a node's reachability knowledge (docs/protocol.md
// "Reachability"): how it votes on its external address over what peers saw, how it weighs the
// dial-backs that tell it whether strangers reach it, and how many destinations it remembers to
// tell a stranger's dial-back from a reply its NAT let through. RelayConfig: what a node carries
// as a relay, and the reservations it keeps as a client (docs/protocol.md "Relays").
#ifndef SKILLNODE_KADEMLIA_REACH_REACH_CONFIG_H_
#define SKILLNODE_KADEMLIA_REACH_REACH_CONFIG_H_

#include <cstddef>

#include "transport/clock.h"

namespace skillnode::kademlia::reach {

struct ReachConfig {
  // Voter groups whose latest vote on the external address is kept; past this the oldest vote
  // goes. A group is a public voter's /24 (IPv4) or /48 (IPv6), or a non-public voter's own
  // address and port, so one operator's many nodes on one network cast one vote.
  size_t votes_max = 64;
  // A vote counts this long after it was cast; a group that votes again refreshes it.
  transport::Duration vote_life = transport::Seconds(30 * 60);
  // A group's vote is cast again at most this often when it says the same thing, so the
  // replies of one busy peer do not make work on every datagram.
  transport::Duration vote_refresh = transport::Seconds(60);
  // Votes an address (and, for the port, an endpoint) needs before it is the external one;
  // it must also hold more than half of the counted votes.
  size_t vote_quorum = 3;

  // Dial-back outcomes weighed for the verdict, the most recent first; older ones are dropped.
  size_t outcomes_max = 4;
  // Outcomes of one kind (reached, or not reached) that move the verdict to that side, when
  // they also outnumber the other kind among those weighed.
  size_t outcomes_to_decide = 2;
  // An outcome is weighed this long after it came.
  transport::Duration outcome_life = transport::Seconds(60 * 60);

  // Dial-back probes (reach_probes.h). At most probes_in_flight_max wait for their helper at
  // once, each asking a different helper. While the verdict is unknown a probe starts every
  // probe_interval_unknown; once it is decided, every probe_interval, to notice a change.
  size_t probes_in_flight_max = 3;
  transport::Duration probe_interval_unknown = transport::Seconds(5);
  transport::Duration probe_interval = transport::Seconds(10 * 60);
  // A helper that has not answered within probe_timeout is given up (no outcome). Once it
  // answers that the dial-back was sent, the dial-back has dial_back_grace to arrive (it
  // usually comes first) before the probe counts as not reached.
  transport::Duration probe_timeout = transport::Seconds(5);
  transport::Duration dial_back_grace = transport::Seconds(2);

  // Destinations this node sent to, remembered so that a dial-back from one of them is not
  // taken for a stranger's: a NAT lets replies from them through. At most
  // recent_destinations_max are kept, each for recent_destination_life (longer than Linux
  // conntrack's 120 s for a UDP flow that was answered).
  size_t recent_destinations_max = 4096;
  transport::Duration recent_destination_life = transport::Seconds(180);

  // Helping others (reach_driver.h). REACH_ASKs passed on to a third party and waiting for its
  // answer at once; past this a REACH_ASK is answered "not dialed" at once.
  size_t helps_in_flight_max = 32;
  // DIAL_BACKs sent as a third party, per second and in a burst; past this a DIAL_REQUEST is
  // answered "not sent". A dial-back is one small datagram to an endpoint a peer names, so it is
  // bounded like any reply, and sent only to an address a host answers at.
  double dial_backs_per_second = 10;
  double dial_backs_burst = 20;

  bool operator==(const ReachConfig&) const = default;
};

// What a relay carries for its clients (relay_table.h, docs/protocol.md "Relays").
struct RelayLimits {
  // Reservations held at once.
  size_t clients_max = 64;
  // A reservation lasts this long after its last RELAY_KEEP (clients keep every 25 s, within
  // Linux conntrack's 30 s for a UDP flow that has not been answered twice).
  transport::Duration lifetime = transport::Seconds(60);
  // Datagrams carried to or from one client per second (twice that in a burst).
  double messages_per_second = 20;
  // Datagrams carried for all clients per second (twice that in a burst).
  double total_per_second = 400;
  // Endpoints a client may answer through this node, each for peer_life after the last
  // datagram carried from it to the client.
  size_t peers_per_client = 32;
  transport::Duration peer_life = transport::Seconds(60);

  bool operator==(const RelayLimits&) const = default;
};

// Relaying (relay_driver.h): the relay's limits and the client's reservations.
struct RelayConfig {
  // What this node carries for others.
  RelayLimits limits;
  // Relays a client keeps reservations at.
  size_t relays_max = 2;
  // A client renews each reservation this often: within Linux conntrack's 30 s for a UDP flow
  // seen one way, so that its NAT keeps the relay's way in open (a reply makes it 120 s).
  transport::Duration keep_interval = transport::Seconds(25);
  // The lifetime a client asks for (a relay grants at most RelayLimits::lifetime).
  transport::Duration keep_lifetime = transport::Seconds(60);
  // A relay that failed or refused is not asked again for this long.
  transport::Duration retry_after = transport::Seconds(600);
  // Relays given up on that a client remembers (for retry_after) at most: past it, the one whose
  // wait ends soonest is forgotten. Four times relays_max leaves room for a run of refusals
  // among the closest full nodes; 0 remembers none.
  size_t given_up_max = 8;

  bool operator==(const RelayConfig&) const = default;
};

// Hole punching (hole_puncher.h, docs/protocol.md "Hole punching").
struct PunchConfig {
  // Connects (HolePuncher::Connect) running at once; a new one past it is refused.
  size_t connects_max = 16;
  // PUNCHes this node answers a second, each with a PING to the asker (twice that in a burst);
  // past it the answer is ERROR kRateLimited, and the asker goes through the relay.
  double answers_per_second = 10;
  // Direct PINGs an asker sends after PUNCHED, each waiting rpc_timeout, before it falls back
  // to the relay.
  size_t direct_pings = 2;

  bool operator==(const PunchConfig&) const = default;
};

}  // namespace skillnode::kademlia::reach

#endif  // SKILLNODE_KADEMLIA_REACH_REACH_CONFIG_H_
