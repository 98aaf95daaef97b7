// Contact: what a node knows about one peer.
#ifndef SKILLNODE_KADEMLIA_CONTACT_H_
#define SKILLNODE_KADEMLIA_CONTACT_H_

#include "kademlia/identity.h"
#include "kademlia/key.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia {

struct Contact {
  NodeId id;
  Endpoint endpoint;
  // The key `id` was derived from; known once the peer sent us a message itself (contacts
  // learnt from a NODES reply carry only id and endpoint until we hear from them).
  PublicKey public_key{};
  // When we last received a valid message from this peer (zero: never).
  TimePoint last_seen = kTimeZero;
  // Consecutive requests to this peer that timed out; reset by any valid reply.
  int failures = 0;

  bool operator==(const Contact& other) const { return id == other.id; }
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_CONTACT_H_
