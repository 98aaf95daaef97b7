// Sybil and impersonation adversaries: S/Kademlia's threat model (Baumgart & Mies 2007).
//
// A node id is SHA-256 of a public key, so an adversary cannot choose its ids, but it can
// compute key pairs in advance, as many as it likes, and keep the ids that fall near the
// keys it wants to attack. SybilPool is that stock: `count` key pairs derived from a secret,
// their ids sorted for XOR-closest queries. Each pool id answers at an address of its own (an
// alias of one of the adversary hosts, network.h Aliases), signs its replies with its own key
// (IdealSignatures::DerivedSeed), and so passes every check an honest node makes.
//
// Two adversary models use it (scenario.h AdversaryModel):
//   sybil: FIND_NODE is answered with pool ids closer to the target than the one answering,
//     drawn afresh for every reply from the closest few, so the lookup's disjoint paths never
//     see the same fabricated id twice and no answer ever leads back to an honest node;
//   impersonate: FIND_NODE is answered with the honest nodes closest to the target, each at
//     an address the adversary controls (alias first + the honest node's slot). A request that
//     reaches such an address is answered under the honest node's id, but signed with the
//     adversary's own key: only the id-to-key binding (id = SHA-256(key)) can reject it.
// Both answer PING and ignore everything else. Thread-safe once built (all reads).
#ifndef SKILLNODE_SIM_ADVERSARIES_SYBIL_H_
#define SKILLNODE_SIM_ADVERSARIES_SYBIL_H_

#include <cstdint>
#include <optional>

#include "kademlia/identity.h"
#include "kademlia/signature_scheme.h"
#include "kademlia/wire/wire.h"
#include "sim/adversaries/adversary.h"
#include "sim/workloads/oracle.h"
#include "transport/endpoint.h"

namespace skillnode::sim::adversaries {

class SybilPool {
 public:
  // `count` key pairs derived from `secret`; their addresses are the slots alias_first + index.
  SybilPool(size_t count, const kademlia::Seed& secret, uint32_t alias_first);

  size_t size() const { return ids_.size(); }
  uint32_t alias_first() const { return alias_first_; }
  kademlia::PublicKey key(uint32_t index) const;
  kademlia::Signature Sign(uint32_t index, std::span<const uint8_t> message) const;
  // The ids sorted, each with its index in the pool (OracleEntry::slot).
  const workloads::Oracle& ids() const { return ids_; }

 private:
  kademlia::Seed secret_;
  uint32_t alias_first_;
  workloads::Oracle ids_;
};

// sybil: the answer of `claim` (a pool id, or the adversary host itself) to `request`; nullopt
// to stay silent. `k` is the reply size.
std::optional<kademlia::wire::Message> SybilAnswer(const Claim& claim,
                                                   const kademlia::wire::Message& request,
                                                   const transport::Endpoint& from,
                                                   const SybilPool& pool, size_t k,
                                                   uint32_t network_id);

// impersonate: `live` lists the live nodes, those in slots below `honest_slots` honest; the
// alias of honest slot s is alias_first + s.
std::optional<kademlia::wire::Message> ImpersonationAnswer(
    const Claim& claim, const kademlia::wire::Message& request, const transport::Endpoint& from,
    const workloads::Oracle& live, uint32_t honest_slots, uint32_t alias_first, size_t k,
    uint32_t network_id);

}  // namespace skillnode::sim::adversaries

#endif  // SKILLNODE_SIM_ADVERSARIES_SYBIL_H_
