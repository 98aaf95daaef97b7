#include "sim/adversaries/sybil.h"

#include <sodium.h>

#include <algorithm>
#include <utility>

#include "sim/hosts/ideal_signatures.h"
#include "sim/network/addressing.h"
#include "transport/rng.h"

namespace skillnode::sim::adversaries {
namespace {

// A sybil reply draws its k ids from the closest kSybilChoice * k pool ids closer to the
// target than the one answering: enough that the ids handed out differ from reply to reply.
constexpr size_t kSybilChoice = 4;

}  // namespace

SybilPool::SybilPool(size_t count, const kademlia::Seed& secret, uint32_t alias_first)
    : secret_(secret), alias_first_(alias_first) {
  std::vector<workloads::OracleEntry> entries;
  entries.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    entries.push_back(workloads::OracleEntry{kademlia::NodeIdOf(key(i)), i});
  }
  ids_.Assign(std::move(entries));
}

kademlia::PublicKey SybilPool::key(uint32_t index) const {
  // Public keys are uniformly random bytes to everything but the signature scheme.
  uint8_t counter[4] = {static_cast<uint8_t>(index >> 24), static_cast<uint8_t>(index >> 16),
                        static_cast<uint8_t>(index >> 8), static_cast<uint8_t>(index)};
  kademlia::PublicKey key;
  crypto_generichash(key.data(), key.size(), counter, sizeof counter, secret_.data(),
                     secret_.size());
  return key;
}

kademlia::Signature SybilPool::Sign(uint32_t index, std::span<const uint8_t> message) const {
  return hosts::IdealSignatures::SignWithSeed(
      hosts::IdealSignatures::DerivedSeed(secret_, key(index)), message);
}

std::optional<kademlia::wire::Message> SybilAnswer(const Claim& claim,
                                                   const kademlia::wire::Message& request,
                                                   const transport::Endpoint& from,
                                                   const SybilPool& pool, size_t k,
                                                   uint32_t network_id) {
  const kademlia::NodeId& asker = request.header.sender_id;
  return ScriptedReply(
      claim, request, from, network_id, [&](const kademlia::wire::FindNodeBody& find) {
        const kademlia::Key own = kademlia::Distance(claim.id, find.target);
        // Those closer than the one answering come first in the closest-first order.
        std::vector<workloads::OracleEntry> closer =
            pool.ids().Closest(find.target, kSybilChoice * k + 1);
        std::erase_if(closer, [&](const workloads::OracleEntry& e) {
          return e.id == asker || !(kademlia::Distance(e.id, find.target) < own);
        });
        // A partial shuffle seeded by the request: the same request gets the same answer, and
        // every other request a different draw.
        uint64_t state = request.header.txid ^ claim.id.FirstWord();
        const size_t n = std::min(k, closer.size());
        for (size_t i = 0; i < n; ++i) {
          const size_t j =
              i + static_cast<size_t>(transport::SplitMix64(&state) % (closer.size() - i));
          std::swap(closer[i], closer[j]);
        }
        kademlia::wire::NodesBody nodes;
        for (size_t i = 0; i < n; ++i) {
          nodes.nodes.push_back(kademlia::wire::WireContact{
              closer[i].id, network::EndpointOfSlot(pool.alias_first() + closer[i].slot)});
        }
        return nodes;
      });
}

std::optional<kademlia::wire::Message> ImpersonationAnswer(
    const Claim& claim, const kademlia::wire::Message& request, const transport::Endpoint& from,
    const workloads::Oracle& live, uint32_t honest_slots, uint32_t alias_first, size_t k,
    uint32_t network_id) {
  const kademlia::NodeId& asker = request.header.sender_id;
  return ScriptedReply(
      claim, request, from, network_id, [&](const kademlia::wire::FindNodeBody& find) {
        const auto honest = [&](const workloads::OracleEntry& e) { return e.slot < honest_slots; };
        kademlia::wire::NodesBody nodes;
        for (const workloads::OracleEntry& e : live.Closest(find.target, k + 1, honest)) {
          if (e.id == asker || e.id == claim.id) continue;
          if (nodes.nodes.size() == k) break;
          nodes.nodes.push_back(
              kademlia::wire::WireContact{e.id, network::EndpointOfSlot(alias_first + e.slot)});
        }
        return nodes;
      });
}

}  // namespace skillnode::sim::adversaries
