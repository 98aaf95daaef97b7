// PeerBook (peer_book.h): the verified-peer cache, departed contacts and in-flight checks, and
// the routing table updates as peers are heard from and fail.
#include "kademlia/routing/peer_book.h"

#include <cassert>

namespace skillnode::kademlia::routing {

PeerBook::PeerBook(const KademliaConfig& config, RoutingTable& routing, const HashKey& hash_key)
    : config_(config),
      routing_(routing),
      departed_(config_.routing),
      verified_(KeyedHash<NodeId>(hash_key)) {}

const PublicKey* PeerBook::ProvenKey(const NodeId& id, const transport::Endpoint* at) const {
  if (const VerifiedPeer* known = verified_.Get(id)) {
    if (at == nullptr || known->endpoint == *at) return &known->key;
  }
  return TableKey(id, at);
}

const PublicKey* PeerBook::TableKey(const NodeId& id, const transport::Endpoint* at) const {
  const Contact* contact = routing_.Find(id);
  if (contact == nullptr || contact->failures > 0 || !contact->key_known()) return nullptr;
  return at == nullptr || contact->endpoint == *at ? &contact->public_key : nullptr;
}

bool PeerBook::ProvenRequester(const transport::Endpoint& from, const wire::Header& header) {
  // ProvenKey's two sources, the cache probed once: a cached peer becomes the most recent.
  const auto cached = verified_.Find(header.sender_id);
  const bool cache_proof = cached != verified_.kNone && verified_.value(cached).endpoint == from;
  const PublicKey* proven =
      cache_proof ? &verified_.value(cached).key : TableKey(header.sender_id, &from);
  if (proven == nullptr || *proven != header.sender_key) return false;
  if (cache_proof) verified_.MakeNewest(cached);
  return true;
}

void PeerBook::Remember(const transport::Endpoint& from, const wire::Header& header) {
  auto peer = verified_.Find(header.sender_id);
  if (peer != verified_.kNone) {
    verified_.MakeNewest(peer);
  } else {
    // At the bound, the least recent peer goes before the newcomer is placed, so that its slab
    // place is reused and the cache never grows past verified_peers_max.
    while (!verified_.empty() && verified_.size() >= config_.verified_peers_max) {
      verified_.Erase(verified_.oldest());
    }
    peer = verified_.Emplace(header.sender_id).first;
  }
  verified_.value(peer) = VerifiedPeer{from, header.sender_key};
}

PeerBook::Hearing PeerBook::Hear(transport::TimePoint now, const Contact& contact,
                                 transport::Duration rtt) {
  Hearing hearing;
  hearing.returned = departed_.contains(contact.id);
  departed_.Forget(contact.id);
  hearing.inserted = routing_.Heard(contact, now, rtt);
  // An added contact is in the table, once: under its own id, not departed.
  assert(hearing.inserted.outcome != InsertOutcome::kAdded || routing_.Find(contact.id) != nullptr);
  return hearing;
}

bool PeerBook::Failed(transport::TimePoint now, const NodeId& id, const transport::Endpoint& at) {
  const Contact* known = routing_.Find(id);
  if (known == nullptr || known->endpoint != at) return false;
  const Contact last = *known;
  if (!routing_.Failed(id)) return false;
  // Dropped from the table: nowhere in it any more, and kept only as departed.
  assert(routing_.Find(id) == nullptr);
  departed_.Add(last, now);
  return true;
}

void PeerBook::ForgetProof(const NodeId& id, const transport::Endpoint& at) {
  const VerifiedPeer* verified = verified_.Get(id);
  if (verified != nullptr && verified->endpoint == at) verified_.Erase(id);
}

bool PeerBook::StartVerifying(const NodeId& id, const transport::Endpoint& from) {
  if (verifying_.contains(id) || verifying_endpoints_.contains(from) ||
      verifying_.size() >= config_.verifications_in_flight_max) {
    return false;
  }
  verifying_.insert(id);
  verifying_endpoints_.insert(from);
  assert(verifying_.size() == verifying_endpoints_.size());
  return true;
}

void PeerBook::Verified(const NodeId& id, const transport::Endpoint& from) {
  verifying_.erase(id);
  verifying_endpoints_.erase(from);
  assert(verifying_.size() == verifying_endpoints_.size());
}

bool PeerBook::StartLivenessPing(const NodeId& id) { return liveness_pings_.insert(id).second; }

}  // namespace skillnode::kademlia::routing
