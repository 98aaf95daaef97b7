#include "kademlia/reach/relay_table.h"

#include <algorithm>
#include <cassert>

namespace skillnode::kademlia::reach {

RelayTable::KeepOutcome RelayTable::Keep(transport::TimePoint now, const NodeId& client,
                                         const transport::Endpoint& seen) {
  const transport::TimePoint expires = now + limits_.lifetime;
  if (auto it = clients_.find(client); it != clients_.end() && it->second.expires > now) {
    if (it->second.seen != seen) {
      // Its NAT mapped it anew: the reservation follows, and the old endpoint is nobody's.
      by_endpoint_.erase(it->second.seen);
      if (auto other = by_endpoint_.find(seen); other != by_endpoint_.end()) {
        clients_.erase(other->second);  // an older reservation at that endpoint is stale
        by_endpoint_.erase(other);
      }
      it->second.seen = seen;
      by_endpoint_[seen] = client;
    }
    it->second.expires = expires;
    return KeepOutcome::kRenewed;
  }
  Expire(now);
  if (auto it = clients_.find(client); it != clients_.end()) Erase(it);  // expired, not swept
  if (clients_.size() >= limits_.clients_max) return KeepOutcome::kFull;
  if (auto other = by_endpoint_.find(seen); other != by_endpoint_.end()) {
    Erase(clients_.find(other->second));  // one reservation per endpoint: the latest keeps it
  }
  Reservation reservation;
  reservation.seen = seen;
  reservation.expires = expires;
  reservation.rate = rpc::TokenBucket(2 * limits_.messages_per_second, now);
  clients_.emplace(client, std::move(reservation));
  by_endpoint_[seen] = client;
  assert(by_endpoint_.size() == clients_.size());
  return KeepOutcome::kAdded;
}

void RelayTable::Release(const NodeId& client) {
  if (auto it = clients_.find(client); it != clients_.end()) Erase(it);
}

void RelayTable::Erase(Clients::iterator it) {
  assert(it != clients_.end());
  by_endpoint_.erase(it->second.seen);
  clients_.erase(it);
  assert(by_endpoint_.size() == clients_.size());
}

bool RelayTable::Admit(transport::TimePoint now, Reservation& reservation) {
  if (!total_started_) {
    total_ = rpc::TokenBucket(2 * limits_.total_per_second, now);
    total_started_ = true;
  }
  // The client's own bucket first: a client past its rate takes nothing from the others.
  if (!reservation.rate.Take(now, limits_.messages_per_second, 2 * limits_.messages_per_second)) {
    return false;
  }
  return total_.Take(now, limits_.total_per_second, 2 * limits_.total_per_second);
}

RelayTable::Route RelayTable::ToClient(transport::TimePoint now, const NodeId& client,
                                       const transport::Endpoint& sender) {
  auto it = clients_.find(client);
  if (it == clients_.end() || it->second.expires <= now) return Route{};
  Reservation& reservation = it->second;
  if (!Admit(now, reservation)) return Route{Verdict::kRateLimited, {}};
  std::vector<Peer>& peers = reservation.peers;
  std::erase_if(peers,
                [&](const Peer& peer) { return peer.endpoint == sender || peer.expires <= now; });
  if (limits_.peers_per_client > 0) {
    if (peers.size() >= limits_.peers_per_client) peers.erase(peers.begin());
    peers.push_back(Peer{sender, now + limits_.peer_life});
  }
  assert(peers.size() <= limits_.peers_per_client);
  return Route{Verdict::kCarry, reservation.seen};
}

RelayTable::Route RelayTable::FromClient(transport::TimePoint now, const transport::Endpoint& from,
                                         const transport::Endpoint& to) {
  auto at = by_endpoint_.find(from);
  if (at == by_endpoint_.end()) return Route{};
  auto it = clients_.find(at->second);
  assert(it != clients_.end());
  Reservation& reservation = it->second;
  if (reservation.expires <= now) return Route{};
  const bool peer = std::any_of(reservation.peers.begin(), reservation.peers.end(),
                                [&](const Peer& p) { return p.endpoint == to && p.expires > now; });
  if (!peer) return Route{Verdict::kNotAPeer, {}};
  if (!Admit(now, reservation)) return Route{Verdict::kRateLimited, {}};
  return Route{Verdict::kCarry, to};
}

std::optional<NodeId> RelayTable::ClientAt(transport::TimePoint now,
                                           const transport::Endpoint& from) const {
  auto at = by_endpoint_.find(from);
  if (at == by_endpoint_.end()) return std::nullopt;
  auto it = clients_.find(at->second);
  assert(it != clients_.end());
  if (it->second.expires <= now) return std::nullopt;
  return it->first;
}

std::optional<transport::Endpoint> RelayTable::EndpointOf(transport::TimePoint now,
                                                          const NodeId& client) const {
  auto it = clients_.find(client);
  if (it == clients_.end() || it->second.expires <= now) return std::nullopt;
  return it->second.seen;
}

size_t RelayTable::Expire(transport::TimePoint now) {
  const size_t dropped = std::erase_if(clients_, [&](const auto& entry) {
    if (entry.second.expires > now) return false;
    by_endpoint_.erase(entry.second.seen);
    return true;
  });
  assert(by_endpoint_.size() == clients_.size());
  return dropped;
}

}  // namespace skillnode::kademlia::reach
