// Contact: what a node knows about one peer.
#ifndef SKILLNODE_KADEMLIA_CONTACT_H_
#define SKILLNODE_KADEMLIA_CONTACT_H_

#include <algorithm>
#include <cstdint>

#include "kademlia/identity.h"
#include "kademlia/key.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia {

struct Contact {
  NodeId id;
  transport::Endpoint endpoint;
  // The key `id` was derived from; known once the peer sent us a message itself (contacts
  // learnt from a NODES reply carry only id and endpoint until we hear from them).
  PublicKey public_key{};
  // When we last received a valid message from this peer (zero: never).
  transport::TimePoint last_seen = transport::kTimeZero;
  // Consecutive requests to this peer that timed out; reset by any valid reply.
  int failures = 0;
  // Smoothed round-trip time of our requests to this peer and its mean deviation (RFC 6298);
  // zero until one of our requests was answered. Contacts heard only through their own
  // requests have none.
  transport::Duration rtt{};
  transport::Duration rtt_deviation{};

  bool operator==(const Contact& other) const { return id == other.id; }

  bool rtt_known() const { return rtt > transport::Duration::zero(); }
  // False until the peer sent us a message itself (an all-zero key is no key).
  bool key_known() const {
    return std::any_of(public_key.begin(), public_key.end(), [](uint8_t b) { return b != 0; });
  }
  // Folds one measured round trip into rtt and rtt_deviation (RFC 6298 section 2: the first
  // sample sets rtt and half of it as the deviation; later ones move them by 1/8 and 1/4).
  void AddRttSample(transport::Duration sample) {
    if (sample <= transport::Duration::zero()) return;
    if (!rtt_known()) {
      rtt = sample;
      rtt_deviation = sample / 2;
      return;
    }
    const transport::Duration error = sample > rtt ? sample - rtt : rtt - sample;
    rtt_deviation = (3 * rtt_deviation + error) / 4;
    rtt = (7 * rtt + sample) / 8;
    if (rtt <= transport::Duration::zero()) rtt = transport::Duration(1);
  }
  // How long an answer from this peer may take before it is overdue: rtt + 4 deviations, as
  // RFC 6298's retransmission timeout; zero when no round trip has been measured.
  transport::Duration ExpectedReplyWithin() const {
    return rtt_known() ? rtt + 4 * rtt_deviation : transport::Duration{};
  }
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_CONTACT_H_
