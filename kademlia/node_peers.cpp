// Node, part three: which peers have proved their key at their address (the verified-peer
// cache), checking new requesters before they enter the routing table, and forgetting peers
// that fail. The rest of the node is in node.cpp and node_lookup.cpp.
#include <utility>

#include "kademlia/node.h"

namespace skillnode::kademlia {

const PublicKey* Node::ProvenKey(const NodeId& id, const Endpoint* at) const {
  if (const VerifiedPeer* known = verified_.Get(id)) {
    if (at == nullptr || known->endpoint == *at) return &known->key;
  }
  return TableKey(id, at);
}

const PublicKey* Node::TableKey(const NodeId& id, const Endpoint* at) const {
  const Contact* contact = routing_.Find(id);
  if (contact == nullptr || contact->failures > 0 || !contact->key_known()) return nullptr;
  return at == nullptr || contact->endpoint == *at ? &contact->public_key : nullptr;
}

void Node::ConsiderRequester(TimePoint now, const Endpoint& from, const Header& header) {
  // ProvenKey's two sources, the cache probed once: a cached peer becomes the most recent.
  const auto cached = verified_.Find(header.sender_id);
  const bool cache_proof = cached != verified_.kNone && verified_.value(cached).endpoint == from;
  const PublicKey* proven =
      cache_proof ? &verified_.value(cached).key : TableKey(header.sender_id, &from);
  if (proven != nullptr && *proven == header.sender_key) {
    ++stats_.verification_cache_hits;
    if (cache_proof) verified_.MakeNewest(cached);
    Contact contact{header.sender_id, from, header.sender_key, now, 0};
    departed_.Forget(header.sender_id);
    auto inserted = routing_.Heard(contact, now);
    if (inserted.ping) PingOldest(now, *inserted.ping);
    if (inserted.outcome == InsertOutcome::kAdded) NotifyAdded(now, contact);
    return;
  }
  // Unproven: ask it to sign a reply to our own random transaction id before trusting it,
  // unless the table has no use for it.
  if (!routing_.Wants(header.sender_id, now)) {
    ++stats_.verifications_skipped;
    return;
  }
  if (verifying_.contains(header.sender_id) || verifying_endpoints_.contains(from) ||
      verifying_.size() >= config_.verifications_in_flight_max) {
    return;
  }
  const NodeId requester = header.sender_id;
  verifying_.insert(requester);
  verifying_endpoints_.insert(from);
  const bool sent = SendRequest(now, from, requester, PingBody{}, [this, requester, from](auto&) {
    verifying_.erase(requester);
    verifying_endpoints_.erase(from);
  });
  if (!sent) {
    verifying_.erase(requester);
    verifying_endpoints_.erase(from);
  }
}

void Node::NoteVerified(TimePoint now, const Endpoint& from, const Header& header, Duration rtt) {
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
  Contact contact{header.sender_id, from, header.sender_key, now, 0};
  const bool returned = departed_.contains(header.sender_id);
  departed_.Forget(header.sender_id);
  auto result = routing_.Heard(contact, now, rtt);
  if (result.ping) PingOldest(now, *result.ping);
  if (result.outcome == InsertOutcome::kAdded) NotifyAdded(now, contact);
  // A contact we had given up on answered: what cut us off may have healed, and the peers
  // near us on its side are found by looking up our own id again (as when joining); the
  // peers it asks learn of us in turn.
  if (returned && now >= next_rejoin_lookup_) {
    next_rejoin_lookup_ = now + config_.routing.departed_probe_after;
    FindNode(now, identity_.node_id(), nullptr);
  }
}

void Node::Forget(const NodeId& id) { verified_.Erase(id); }

void Node::FailedAt(TimePoint now, const NodeId& id, const Endpoint& at) {
  const Contact* known = routing_.Find(id);
  if (known != nullptr && known->endpoint == at) {
    const Contact last = *known;
    if (routing_.Failed(id)) {
      departed_.Add(last, now);
      NotifyEvicted(now, id);
    }
  }
  const VerifiedPeer* verified = verified_.Get(id);
  if (verified != nullptr && verified->endpoint == at) Forget(id);
}

}  // namespace skillnode::kademlia
