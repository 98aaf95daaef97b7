// PeerBook (peer_book.h): the verified-peer cache, departed contacts and in-flight checks, and
// the routing table updates as peers are heard from and fail.
#include "kademlia/routing/peer_book.h"

#include <cassert>

namespace skillnode::kademlia::routing {

PeerBook::PeerBook(const KademliaConfig& config, RoutingTable& routing, const HashKey& hash_key)
    : config_(config),
      routing_(routing),
      departed_(config_.routing),
      verified_(KeyedHash<uint64_t>(hash_key)) {}

PeerBook::~PeerBook() {
  for (auto h = verified_.oldest(); h != verified_.kNone; h = verified_.newer(h)) {
    routing_.directory().Release(verified_.value(h));
  }
}

const PeerRecord& PeerBook::CachedRecord(VerifiedCache::Handle h) const {
  return routing_.directory().record(verified_.value(h));
}

PeerBook::VerifiedCache::Handle PeerBook::FindCached(const NodeId& id) const {
  const auto h = verified_.Find(id.FirstWord());
  return h != verified_.kNone && CachedRecord(h).id == id ? h : verified_.kNone;
}

const PublicKey* PeerBook::ProvenKey(const NodeId& id, const transport::Endpoint* at) const {
  if (const auto h = FindCached(id); h != verified_.kNone) {
    const PeerRecord& known = CachedRecord(h);
    if (at == nullptr || known.endpoint == *at) return &known.key;
  }
  return TableKey(id, at);
}

const PublicKey* PeerBook::TableKey(const NodeId& id, const transport::Endpoint* at) const {
  int failures = 0;
  const PeerRecord* contact = routing_.FindRecord(id, &failures);
  if (contact == nullptr || failures > 0 || contact->key == PublicKey{}) return nullptr;
  return at == nullptr || contact->endpoint == *at ? &contact->key : nullptr;
}

bool PeerBook::ProvenRequester(const transport::Endpoint& from, const wire::Header& header) {
  // ProvenKey's two sources, the cache probed once: a cached peer becomes the most recent.
  const auto cached = FindCached(header.sender_id);
  const bool cache_proof = cached != verified_.kNone && CachedRecord(cached).endpoint == from;
  const PublicKey* proven =
      cache_proof ? &CachedRecord(cached).key : TableKey(header.sender_id, &from);
  if (proven == nullptr || *proven != header.sender_key) return false;
  if (cache_proof) verified_.MakeNewest(cached);
  return true;
}

void PeerBook::Remember(const transport::Endpoint& from, const wire::Header& header) {
  PeerDirectory& directory = routing_.directory();
  const PeerDirectory::Ref record = directory.Acquire({header.sender_id, header.sender_key, from});
  // An entry under the same first 64 bits is this peer's, or (never among honest random ids)
  // another's whose proof gives way.
  auto peer = verified_.Find(header.sender_id.FirstWord());
  if (peer != verified_.kNone) {
    verified_.MakeNewest(peer);
    directory.Release(verified_.value(peer));
  } else {
    // At the bound, the least recent peer goes before the newcomer is placed, so that its slab
    // place is reused and the cache never grows past verified_peers_max.
    while (!verified_.empty() && verified_.size() >= config_.verified_peers_max) {
      directory.Release(verified_.value(verified_.oldest()));
      verified_.Erase(verified_.oldest());
    }
    peer = verified_.Emplace(header.sender_id.FirstWord()).first;
  }
  verified_.value(peer) = record;
}

PeerBook::Hearing PeerBook::Hear(transport::TimePoint now, const Contact& contact,
                                 transport::Duration rtt) {
  Hearing hearing;
  hearing.returned = departed_.contains(contact.id);
  departed_.Forget(contact.id);
  hearing.inserted = routing_.Heard(contact, now, rtt);
  // An added contact is in the table, once: under its own id, not departed.
  assert(hearing.inserted.outcome != InsertOutcome::kAdded || routing_.Find(contact.id));
  return hearing;
}

bool PeerBook::Failed(transport::TimePoint now, const NodeId& id, const transport::Endpoint& at) {
  const std::optional<Contact> known = routing_.Find(id);
  if (!known || known->endpoint != at) return false;
  const Contact last = *known;
  if (!routing_.Failed(id)) return false;
  // Dropped from the table: nowhere in it any more, and kept only as departed.
  assert(!routing_.Find(id));
  departed_.Add(last, now);
  return true;
}

void PeerBook::ForgetProof(const NodeId& id, const transport::Endpoint& at) {
  const auto h = FindCached(id);
  if (h == verified_.kNone || CachedRecord(h).endpoint != at) return;
  routing_.directory().Release(verified_.value(h));
  verified_.Erase(h);
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
