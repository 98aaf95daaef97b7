// ReachDriver (reach_driver.h).
#include "kademlia/reach/reach_driver.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstring>
#include <utility>
#include <variant>

namespace skillnode::kademlia::reach {

namespace {

// Contacts drawn around a random key when picking a helper or a third party.
constexpr size_t kCandidates = 16;

Key RandomKey(transport::Rng& rng) {
  std::array<uint8_t, Key::kSize> bytes{};
  for (size_t i = 0; i < bytes.size(); i += sizeof(uint64_t)) {
    const uint64_t word = rng.Next64();
    std::memcpy(bytes.data() + i, &word, sizeof(word));
  }
  return Key(bytes);
}

}  // namespace

ReachDriver::ReachDriver(const KademliaConfig& config, const routing::RoutingTable& routing,
                         transport::Rng& rng, transport::TimePoint now, Actions actions)
    : config_(config),
      routing_(routing),
      rng_(rng),
      actions_(std::move(actions)),
      tracker_(config.reach),
      dial_backs_(config.reach.dial_backs_burst, now) {
  UpdateDeadline(now);
}

void ReachDriver::OnObserved(transport::TimePoint now, const transport::Endpoint& from,
                             const transport::Endpoint& observed) {
  if (!config_.reach_probes) return;
  tracker_.OnObserved(now, from, observed);
  UpdateDeadline(now);  // a move to another address makes a probe due at once
}

std::optional<wire::Body> ReachDriver::OnRequest(transport::TimePoint now,
                                                 const transport::Endpoint& from,
                                                 const wire::Message& request) {
  if (std::holds_alternative<wire::ReachAskBody>(request.body)) return Help(now, from, request);
  const auto* dial = std::get_if<wire::DialRequestBody>(&request.body);
  assert(dial != nullptr);  // the node hands over only these two types
  return Dial(now, *dial);
}

std::optional<wire::Body> ReachDriver::Help(transport::TimePoint now,
                                            const transport::Endpoint& from,
                                            const wire::Message& request) {
  if (helps_in_flight_ >= config_.reach.helps_in_flight_max) {
    ++stats_.helps_full;
    return wire::ReachAskedBody{false};
  }
  const std::optional<Contact> third = PickThirdParty(request.header.sender_id, from);
  if (!third) {
    ++stats_.helps_no_third;
    return wire::ReachAskedBody{false};
  }
  const uint64_t nonce = std::get<wire::ReachAskBody>(request.body).nonce;
  const bool sent = actions_.send(
      now, third->endpoint, third->id, wire::DialRequestBody{nonce, from}, config_.rpc_timeout,
      [this, from, header = request.header](const rpc::RpcResult& result) {
        assert(helps_in_flight_ > 0);
        --helps_in_flight_;
        const auto* sent_body = result.reply != nullptr
                                    ? std::get_if<wire::DialSentBody>(&result.reply->body)
                                    : nullptr;
        const bool dialed = sent_body != nullptr && sent_body->dialed;
        stats_.helps_dialed += dialed ? 1 : 0;
        actions_.reply(result.now, from, header, wire::ReachAskedBody{dialed});
      });
  if (!sent) return wire::ReachAskedBody{false};
  ++helps_in_flight_;
  ++stats_.helps;
  return std::nullopt;
}

wire::Body ReachDriver::Dial(transport::TimePoint now, const wire::DialRequestBody& request) {
  // Never at a group or an address no host answers at: only a peer's own endpoint.
  const transport::Address& to = request.to.address();
  const bool dialable = !to.IsMulticast() && !to.IsUnspecified();
  if (!dialable ||
      !dial_backs_.Take(now, config_.reach.dial_backs_per_second, config_.reach.dial_backs_burst)) {
    ++stats_.dial_backs_limited;
    return wire::DialSentBody{false};
  }
  actions_.dial(now, request.to, wire::DialBackBody{request.nonce});
  ++stats_.dial_backs_sent;
  return wire::DialSentBody{true};
}

void ReachDriver::OnDialBack(transport::TimePoint now, const transport::Endpoint& from,
                             const wire::DialBackBody& dial_back) {
  if (!config_.reach_probes) return;
  tracker_.OnDialBack(now, dial_back.nonce, from);
  UpdateDeadline(now);
}

void ReachDriver::OnTimer(transport::TimePoint now) {
  if (!config_.reach_probes) return;
  tracker_.OnTimer(now);
  if (retry_at_ <= now && tracker_.ProbeDue(now)) StartProbe(now);
  UpdateDeadline(now);
}

void ReachDriver::StartProbe(transport::TimePoint now) {
  const std::optional<Contact> helper = PickHelper();
  if (!helper) {
    ++stats_.asks_no_helper;
    retry_at_ = now + config_.reach.probe_interval_unknown;
    return;
  }
  uint64_t nonce = 0;
  do {
    nonce = rng_.Next64();
  } while (nonce == 0);
  const bool sent = actions_.send(
      now, helper->endpoint, helper->id, wire::ReachAskBody{nonce}, config_.reach.probe_timeout,
      [this, nonce](const rpc::RpcResult& result) {
        const auto* asked = result.reply != nullptr
                                ? std::get_if<wire::ReachAskedBody>(&result.reply->body)
                                : nullptr;
        if (asked == nullptr) {
          // No answer, or an ERROR (a peer that does not know REACH_ASK): the probe ends at
          // its deadline with no outcome.
          ++stats_.asks_unanswered;
          return;
        }
        tracker_.ProbeAnswered(result.now, nonce, asked->dialed);
        UpdateDeadline(result.now);
      });
  if (!sent) {
    retry_at_ = now + config_.reach.probe_interval_unknown;
    return;
  }
  tracker_.ProbeStarted(now, nonce, helper->id);
  ++stats_.asks_sent;
}

std::optional<Contact> ReachDriver::PickHelper() {
  for (const Contact& contact : routing_.Closest(RandomKey(rng_), kCandidates)) {
    if (!tracker_.Asking(contact.id)) return contact;
  }
  return std::nullopt;
}

std::optional<Contact> ReachDriver::PickThirdParty(const NodeId& asker,
                                                   const transport::Endpoint& from) {
  // One on another address than the asker's, whose datagrams a NAT in front of the asker has
  // no reason to let in; failing that (one host, or one LAN), any other peer: its dial-back
  // comes from a port the asker never sent to all the same.
  std::optional<Contact> fallback;
  for (const Contact& contact : routing_.Closest(RandomKey(rng_), kCandidates)) {
    if (contact.id == asker || contact.endpoint == from) continue;
    if (contact.endpoint.address() != from.address()) return contact;
    if (!fallback) fallback = contact;
  }
  return fallback;
}

void ReachDriver::Recheck(transport::TimePoint now) {
  tracker_.Restart(now);
  UpdateDeadline(now);
}

void ReachDriver::UpdateDeadline(transport::TimePoint now) {
  if (!config_.reach_probes) {
    next_deadline_ = transport::kTimeNever;
    return;
  }
  next_deadline_ =
      std::min(tracker_.NextProbeDeadline(), std::max(tracker_.NextProbeDue(now), retry_at_));
}

}  // namespace skillnode::kademlia::reach
