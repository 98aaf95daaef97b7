// RelayDriver (relay_driver.h).
#include "kademlia/reach/relay_driver.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace skillnode::kademlia::reach {

namespace {

// A client asks a relay that wanted a proof of its key again this soon (the proof is one
// ping's round trip).
constexpr transport::Duration kProvenRetry = transport::Seconds(1);
// ... at most this many times in a row before it gives the relay up.
constexpr int kUnprovenMax = 3;
// A client short of relays looks for more this often.
constexpr transport::Duration kRefillRetry = transport::Seconds(5);

uint32_t WholeSeconds(transport::Duration d) {
  return static_cast<uint32_t>(std::chrono::duration_cast<std::chrono::seconds>(d).count());
}

}  // namespace

RelayDriver::RelayDriver(const RelayConfig& config, const NodeId& id,
                         const routing::RoutingTable& routing, Actions actions)
    : config_(config),
      id_(id),
      routing_(routing),
      actions_(std::move(actions)),
      table_(config.limits) {
  assert(actions_.send && actions_.notice);
}

wire::Body RelayDriver::OnKeep(transport::TimePoint now, const transport::Endpoint& from,
                               const NodeId& client, bool proven, const wire::RelayKeepBody& keep) {
  if (!proven) {
    ++stats_.keeps_unproven;
    return wire::ErrorBody{static_cast<uint16_t>(wire::ErrorReplyCode::kRelayUnproven),
                           "answer this node's ping from this address, then ask again"};
  }
  if (table_.Keep(now, client, from) == RelayTable::KeepOutcome::kFull) {
    ++stats_.keeps_refused;
    return wire::ErrorBody{static_cast<uint16_t>(wire::ErrorReplyCode::kRelayFull),
                           "this node relays for as many clients as it may"};
  }
  ++stats_.keeps_granted;
  const transport::Duration asked = transport::Seconds(keep.lifetime_seconds);
  return wire::RelayKeptBody{WholeSeconds(std::min(asked, config_.limits.lifetime))};
}

void RelayDriver::OnRelay(transport::TimePoint now, const transport::Endpoint& from,
                          const wire::Body& body) {
  RelayTable::Route route;
  const std::vector<uint8_t>* datagram = nullptr;
  if (const auto* relay = std::get_if<wire::RelayBody>(&body)) {
    route = table_.ToClient(now, relay->target, from);
    datagram = &relay->datagram;
  } else {
    const auto& back = std::get<wire::RelayBackBody>(body);  // the node hands over only these
    route = table_.FromClient(now, from, back.to);
    datagram = &back.datagram;
  }
  switch (route.verdict) {
    case RelayTable::Verdict::kCarry:
      ++stats_.carried;
      actions_.notice(now, route.to, wire::RelayedBody{from, *datagram});
      return;
    case RelayTable::Verdict::kNoReservation:
      ++stats_.refused_no_client;
      return;
    case RelayTable::Verdict::kNotAPeer:
      ++stats_.refused_not_a_peer;
      return;
    case RelayTable::Verdict::kRateLimited:
      ++stats_.refused_rate;
      return;
  }
}

transport::Result<RelayDriver::Opened> RelayDriver::Open(transport::TimePoint now,
                                                         const transport::Endpoint& relay,
                                                         const wire::RelayedBody& relayed,
                                                         const rpc::RpcTable& rpcs) const {
  auto decoded = wire::Decode(relayed.datagram);
  if (!decoded) return tl::unexpected(decoded.error());
  const uint8_t type = decoded->type();
  if (wire::IsNotice(type)) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "a relay carried a " + std::string(wire::MessageTypeName(type)) +
                               ", which no relay may carry");
  }
  if (wire::IsRequest(type)) {
    if (!IsRelay(now, relay)) {
      return transport::Fail(
          transport::ErrorCode::kInvalidArgument,
          "a request carried by " + relay.ToString() + ", where this node holds no reservation");
    }
    return Opened{std::move(*decoded), relayed.from, true};
  }
  const rpc::PendingRpc* pending = rpcs.Find(decoded->header.txid);
  if (pending == nullptr || pending->relay != relay) {
    return transport::Fail(
        transport::ErrorCode::kInvalidArgument,
        "a reply carried by " + relay.ToString() + " to no request sent through it");
  }
  return Opened{std::move(*decoded), pending->to, false};
}

bool RelayDriver::IsRelay(transport::TimePoint now, const transport::Endpoint& relay) const {
  return std::any_of(reservations_.begin(), reservations_.end(), [&](const auto& entry) {
    return entry.second.relay.endpoint == relay && entry.second.expires > now;
  });
}

std::vector<RelayDriver::Held> RelayDriver::held(transport::TimePoint now) const {
  std::vector<Held> out;
  for (const auto& [id, reservation] : reservations_) {
    if (reservation.expires > now) out.push_back(Held{reservation.relay, reservation.expires});
  }
  std::sort(out.begin(), out.end(),
            [this](const Held& a, const Held& b) { return CloserTo(id_, a.relay.id, b.relay.id); });
  return out;
}

void RelayDriver::OnTimer(transport::TimePoint now, bool client) {
  client_ = client;
  table_.Expire(now);
  std::erase_if(given_up_, [now](const auto& entry) { return entry.second <= now; });
  if (!client_) {
    // A full node needs no relay: its reservations lapse at their relays (in flight ones are
    // forgotten when they answer).
    if (std::any_of(reservations_.begin(), reservations_.end(),
                    [now](const auto& entry) { return entry.second.expires > now; })) {
      ++held_changes_;
    }
    reservations_.clear();
  } else {
    for (auto& [id, reservation] : reservations_) {
      if (!reservation.asking && reservation.next_keep <= now) Ask(now, reservation.relay);
    }
    Fill(now);
  }
  UpdateDeadline(now);
}

void RelayDriver::Fill(transport::TimePoint now) {
  if (reservations_.size() >= config_.relays_max) return;
  // The closest full nodes to this node's id: those a lookup of the id ends at.
  const size_t wanted = config_.relays_max - reservations_.size();
  size_t asked = 0;
  for (const Contact& contact :
       routing_.Closest(id_, config_.relays_max + given_up_.size() + reservations_.size())) {
    if (asked == wanted) break;
    if (reservations_.contains(contact.id) || given_up_.contains(contact.id)) continue;
    reservations_[contact.id].relay = contact;
    Ask(now, contact);
    ++asked;
  }
}

bool RelayDriver::GiveUp(const NodeId& relay, transport::TimePoint until) {
  if (config_.given_up_max == 0) return true;
  bool forgot = false;
  if (given_up_.size() >= config_.given_up_max && !given_up_.contains(relay)) {
    given_up_.erase(
        std::min_element(given_up_.begin(), given_up_.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; }));
    forgot = true;
  }
  given_up_[relay] = until;
  assert(given_up_.size() <= config_.given_up_max);
  return forgot;
}

void RelayDriver::Ask(transport::TimePoint now, const Contact& relay) {
  auto it = reservations_.find(relay.id);
  assert(it != reservations_.end());
  const NodeId relay_id = relay.id;
  it->second.asking = true;
  ++stats_.keeps_sent;
  const bool sent = actions_.send(
      now, relay.endpoint, relay.id, wire::RelayKeepBody{WholeSeconds(config_.keep_lifetime)},
      [this, relay_id](const rpc::RpcResult& result) { Kept(relay_id, result); });
  if (!sent) {
    // Too many requests in flight: the next timer tries again.
    it->second.asking = false;
    it->second.next_keep = now + transport::Seconds(1);
  }
}

void RelayDriver::Kept(const NodeId& relay, const rpc::RpcResult& result) {
  auto it = reservations_.find(relay);
  if (it == reservations_.end()) return;  // no longer a client
  Reservation& reservation = it->second;
  reservation.asking = false;
  const auto* kept =
      result.reply != nullptr ? std::get_if<wire::RelayKeptBody>(&result.reply->body) : nullptr;
  const auto* error =
      result.reply != nullptr ? std::get_if<wire::ErrorBody>(&result.reply->body) : nullptr;
  if (error != nullptr &&
      error->code == static_cast<uint16_t>(wire::ErrorReplyCode::kRelayUnproven) &&
      ++reservation.unproven <= kUnprovenMax) {
    // The relay pings this node to have it prove its key: ask again once that is done.
    reservation.next_keep = result.now + kProvenRetry;
  } else if (kept == nullptr || kept->lifetime_seconds == 0) {
    ++stats_.keeps_failed;
    const bool forgot = GiveUp(relay, result.now + config_.retry_after);
    if (reservation.expires > result.now) ++held_changes_;  // a relay it named is gone
    reservations_.erase(it);
    // With the list full, the relay next in line may be one just forgotten: the timer refills
    // (kRefillRetry), so that relays that all refuse are not asked at their round trip's pace.
    if (client_ && !forgot) Fill(result.now);
  } else {
    const transport::Duration granted = transport::Seconds(kept->lifetime_seconds);
    if (reservation.expires <= result.now) ++held_changes_;  // a relay to name from now on
    reservation.unproven = 0;
    reservation.expires = result.now + granted;
    reservation.next_keep = result.now + std::min(config_.keep_interval, granted / 2);
  }
  UpdateDeadline(result.now);
}

void RelayDriver::UpdateDeadline(transport::TimePoint now) {
  // The table needs no timer: an expired reservation carries nothing and goes at the next keep.
  next_deadline_ = transport::kTimeNever;
  if (!client_) return;
  for (const auto& [id, reservation] : reservations_) {
    if (!reservation.asking) next_deadline_ = std::min(next_deadline_, reservation.next_keep);
  }
  // Too few relays (none to ask yet, or every one given up): look again soon.
  if (reservations_.size() < config_.relays_max) {
    next_deadline_ = std::min(next_deadline_, now + kRefillRetry);
  }
}

}  // namespace skillnode::kademlia::reach
