// PeerUpkeep (peer_upkeep.h): requesters verified or skipped, verified peers heard, failures
// counted, the oldest contact of a full bucket pinged, departed contacts probed.
#include "kademlia/routing/peer_upkeep.h"

#include <cassert>
#include <utility>

namespace skillnode::kademlia::routing {

PeerUpkeep::PeerUpkeep(const KademliaConfig& config, RoutingTable& routing, PeerBook& peers,
                       NodeStats& stats, Actions actions)
    : config_(config),
      routing_(routing),
      peers_(peers),
      stats_(stats),
      actions_(std::move(actions)) {
  assert(actions_.send && actions_.added && actions_.evicted && actions_.rejoin);
}

void PeerUpkeep::ConsiderRequester(transport::TimePoint now, const transport::Endpoint& from,
                                   const wire::Message& request) {
  const wire::Header& header = request.header;
  if (header.client) {
    // Never a routing contact. One the table holds (its reachability changed) or a chunk
    // requester (chunks go to proven addresses only) is pinged: the reply to our random
    // transaction id, from its address, says "c" again before the table drops it
    // (HearVerified), so a forged request claiming a contact's id and address evicts nothing.
    ++stats_.client_messages;
    if (routing_.FindRecord(header.sender_id) != nullptr || wire::IsChunkRequest(request.type())) {
      VerifyRequester(now, from, header.sender_id);
    }
    return;
  }
  if (peers_.ProvenRequester(from, header)) {
    ++stats_.verification_cache_hits;
    Contact contact{header.sender_id, from, header.sender_key, now, 0};
    Inserted(now, contact, peers_.Hear(now, contact).inserted);
    return;
  }
  // Unproven: ask it to sign a reply to our own random transaction id before trusting it,
  // unless the table has no use for it. A chunk requester is asked all the same: chunks go to
  // proven addresses only (kademlia/blobs/chunk_server.h), so one outside the table would
  // otherwise never be served.
  if (!routing_.Wants(header.sender_id, now) && !wire::IsChunkRequest(request.type())) {
    ++stats_.verifications_skipped;
    return;
  }
  VerifyRequester(now, from, header.sender_id);
}

void PeerUpkeep::VerifyRequester(transport::TimePoint now, const transport::Endpoint& from,
                                 const NodeId& id) {
  if (!peers_.StartVerifying(id, from)) return;
  const bool sent =
      actions_.send(now, from, id, wire::PingBody{},
                    [this, id, from](const rpc::RpcResult&) { peers_.Verified(id, from); });
  if (!sent) peers_.Verified(id, from);
}

void PeerUpkeep::HearVerified(transport::TimePoint now, const transport::Endpoint& from,
                              const wire::Header& header, transport::Duration rtt) {
  peers_.Remember(from, header);
  if (header.client) {
    ++stats_.client_messages;
    DropClient(now, header.sender_id);
    return;
  }
  Contact contact{header.sender_id, from, header.sender_key, now, 0};
  const PeerBook::Hearing heard = peers_.Hear(now, contact, rtt);
  Inserted(now, contact, heard.inserted);
  // A contact we had given up on answered: what cut us off may have healed, and the peers
  // near us on its side are found by looking up our own id again (as when joining); the
  // peers it asks learn of us in turn.
  if (heard.returned && now >= next_rejoin_lookup_) {
    next_rejoin_lookup_ = now + config_.routing.departed_probe_after;
    actions_.rejoin(now);
  }
}

void PeerUpkeep::DropClient(transport::TimePoint now, const NodeId& id) {
  if (RemoveContact(now, id)) ++stats_.clients_removed;
}

bool PeerUpkeep::RemoveContact(transport::TimePoint now, const NodeId& id) {
  const bool contact = routing_.InBucket(id);  // services heard of bucket contacts only
  if (!routing_.Remove(id)) return false;
  if (contact) actions_.evicted(now, id);
  return true;
}

void PeerUpkeep::Left(transport::TimePoint now, const transport::Endpoint& from, const NodeId& id) {
  const PeerRecord* record = routing_.FindRecord(id);
  if (record == nullptr || record->endpoint != from) return;
  if (RemoveContact(now, id)) ++stats_.contacts_left;
}

void PeerUpkeep::FailedAt(transport::TimePoint now, const NodeId& id,
                          const transport::Endpoint& at) {
  if (peers_.Failed(now, id, at)) actions_.evicted(now, id);
  peers_.ForgetProof(id, at);
}

void PeerUpkeep::OnTimer(transport::TimePoint now) {
  // A departed contact that answers is verified and heard like any other (HearVerified).
  if (peers_.departed().NextDue() > now) return;
  if (auto contact = peers_.departed().TakeDue(now)) {
    ++stats_.departed_probes;
    actions_.send(now, contact->endpoint, contact->id, wire::PingBody{}, nullptr);
  }
}

void PeerUpkeep::Inserted(transport::TimePoint now, const Contact& contact,
                          const InsertResult& inserted) {
  if (inserted.ping) PingOldest(now, *inserted.ping);
  if (inserted.outcome == InsertOutcome::kAdded) actions_.added(now, contact);
}

void PeerUpkeep::PingOldest(transport::TimePoint now, const Contact& oldest) {
  if (!peers_.StartLivenessPing(oldest.id)) return;
  const NodeId pinged = oldest.id;
  if (!actions_.send(now, oldest.endpoint, pinged, wire::PingBody{},
                     [this, pinged](const rpc::RpcResult&) { peers_.LivenessPinged(pinged); })) {
    peers_.LivenessPinged(pinged);
  }
}

}  // namespace skillnode::kademlia::routing
