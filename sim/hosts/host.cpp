#include "sim/hosts/host.h"

#include "sim/network/addressing.h"

namespace skillnode::sim::hosts {

Host::Host(HostKind kind, uint32_t slot, const kademlia::KademliaConfig& config,
           const kademlia::Identity& identity, uint64_t rng_seed, const HostContext& context)
    : kind_(kind),
      slot_(slot),
      context_(context),
      rng_(rng_seed),
      network_id_(config.network_id),
      k_(config.routing.bucket_size) {
  if (context_.ideal != nullptr) context_.ideal->Register(identity);
  if (IsScripted(kind_)) {
    identity_ = std::make_unique<kademlia::Identity>(identity);
  } else {
    node_.emplace(config, identity, *this, rng_, *context_.logger, *context_.now,
                  *context_.signatures, std::nullopt,
                  kademlia::NodeSharing{.config = kademlia::NodeSharing::Config::kReference,
                                        .peers = context_.peers,
                                        .stats = context_.stats});
    if (context_.dht != nullptr) {
      dht_ = std::make_unique<kademlia::store::SkillDht>(*node_, *context_.dht);
      if (kind_ == HostKind::kForgeRecords) {
        forger_ = std::make_unique<adversaries::Forger>(*node_, *dht_, node_->identity(),
                                                        *context_.counters);
      }
    }
  }
}

const kademlia::NodeId& Host::id() const { return node_ ? node_->id() : identity_->node_id(); }

const kademlia::PublicKey& Host::public_key() const {
  return node_ ? node_->identity().public_key() : identity_->public_key();
}

void Host::Send(const transport::Endpoint& to, std::span<const uint8_t> datagram) {
  context_.network->Send(*context_.now, slot_, to, datagram);
}

void Host::OnDatagram(transport::TimePoint now, const transport::Endpoint& from,
                      std::span<const uint8_t> datagram) {
  switch (kind_) {
    case HostKind::kEclipse:
    case HostKind::kSybil:
    case HostKind::kImpersonate:
      return ScriptedAnswer(from, slot_, OwnClaim(), datagram);
    case HostKind::kDropStorage:
    case HostKind::kForgeRecords: {
      const auto message = kademlia::wire::Decode(datagram);
      const bool storage = message && adversaries::IsStorageRequest(message->type());
      if (storage && kind_ == HostKind::kDropStorage) {
        ++context_.counters->storage_requests_dropped;
        return;
      }
      if (message &&
          message->type() == static_cast<uint8_t>(kademlia::wire::MessageType::kFindValue)) {
        ++context_.counters->forge_opportunities;
      }
      break;
    }
    case HostKind::kHonest:
      break;
  }
  node_->OnDatagram(now, from, datagram);
}

adversaries::Claim Host::OwnClaim() const {
  return adversaries::Claim{identity_->node_id(), identity_->public_key(),
                            [this](std::span<const uint8_t> bytes) {
                              return context_.signatures->Sign(*identity_, bytes);
                            }};
}

void Host::OnAliasDatagram(const transport::Endpoint& from, uint32_t address,
                           std::span<const uint8_t> datagram) {
  const uint32_t index = address - context_.alias_first;
  if (kind_ == HostKind::kSybil) {
    const adversaries::SybilPool& pool = *context_.sybils;
    const kademlia::PublicKey key = pool.key(index);
    const adversaries::Claim claim{
        kademlia::NodeIdOf(key), key,
        [&pool, index](std::span<const uint8_t> bytes) { return pool.Sign(index, bytes); }};
    return ScriptedAnswer(from, address, claim, datagram);
  }
  if (kind_ != HostKind::kImpersonate) return;
  // The honest node this alias stands for, under the adversary's own key and signature.
  const auto honest = context_.identity_of(index);
  if (!honest) return;
  adversaries::Claim claim = OwnClaim();
  claim.id = *honest;
  ++context_.counters->impersonations;
  ScriptedAnswer(from, address, claim, datagram);
}

void Host::ScriptedAnswer(const transport::Endpoint& from, uint32_t address,
                          const adversaries::Claim& claim, std::span<const uint8_t> datagram) {
  const auto request = kademlia::wire::Decode(datagram);
  if (!request) return;
  std::optional<kademlia::wire::Message> reply;
  switch (kind_) {
    case HostKind::kEclipse:
      reply = adversaries::EclipseAnswer(*identity_, *context_.signatures, *request, from,
                                         *context_.adversaries, k_, network_id_);
      break;
    case HostKind::kSybil:
      reply = adversaries::SybilAnswer(claim, *request, from, *context_.sybils, k_, network_id_);
      break;
    case HostKind::kImpersonate:
      reply = adversaries::ImpersonationAnswer(claim, *request, from, *context_.live,
                                               context_.honest_slots, context_.alias_first, k_,
                                               network_id_);
      break;
    default:
      return;
  }
  if (!reply) return;
  if (std::holds_alternative<kademlia::wire::NodesBody>(reply->body)) {
    ++context_.counters->eclipse_replies;
  }
  auto bytes = kademlia::wire::EncodeFitting(std::move(*reply));
  if (bytes) context_.network->SendAs(*context_.now, slot_, address, from, *bytes);
}

void Host::OnTimer(transport::TimePoint now) {
  if (node_) node_->OnTimer(now);
}

transport::TimePoint Host::NextDeadline() const {
  return node_ ? node_->NextDeadline() : transport::kTimeNever;
}

void Host::Announce(std::span<const transport::Endpoint> peers) {
  if (!identity_) return;
  for (const transport::Endpoint& peer : peers) {
    kademlia::wire::Message request;
    request.header.network_id = network_id_;
    request.header.txid = rng_.Next64() | 1;  // never 0
    request.header.sender_id = identity_->node_id();
    request.header.sender_key = identity_->public_key();
    request.body = kademlia::wire::FindNodeBody{identity_->node_id()};
    if (auto bytes = kademlia::wire::Encode(request)) Send(peer, *bytes);
  }
}

}  // namespace skillnode::sim::hosts
