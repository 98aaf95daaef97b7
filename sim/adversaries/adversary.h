// Adversaries: hosts whose datagrams the simulator writes, never an #ifdef in kademlia/.
//
// An adversary has a real Identity, decodes requests with kademlia::Decode and answers with
// kademlia::Encode, so its replies are validly signed and honest nodes cannot tell it from an
// honest node by the form of its messages. The models (scenario.h AdversaryModel):
//   (a) eclipse: no routing of its own; answers FIND_NODE only with other adversaries closer
//       to the target than itself (the colluding set is known to all adversaries, as in the
//       S/Kademlia evaluation), answers PING, ignores everything else a node would answer;
//   (b) drop_storage: a real Node that never sees STORE or FIND_VALUE (they are dropped);
//   (c) forge_records: a real Node and SkillDht whose VALUES replies carry forged records
//       instead of the genuine ones (forger.h);
//   (d) sybil and (e) impersonate: S/Kademlia's threat model, with ids computed in advance
//       and with honest nodes' ids at the adversary's addresses (sybil.h).
#ifndef SKILLNODE_SIM_ADVERSARIES_ADVERSARY_H_
#define SKILLNODE_SIM_ADVERSARIES_ADVERSARY_H_

#include <cstdint>
#include <functional>
#include <optional>

#include "kademlia/identity.h"
#include "kademlia/signature_scheme.h"
#include "kademlia/wire/wire.h"
#include "sim/workloads/oracle.h"
#include "transport/endpoint.h"

namespace skillnode::sim::adversaries {

struct AdversaryCounters {
  uint64_t eclipse_replies = 0;  // FIND_NODE answered by a scripted adversary (eclipse, sybil,
                                 // impersonate): with adversaries or impersonations only
  uint64_t impersonations = 0;   // impersonate: requests answered under an honest node's id
  uint64_t storage_requests_dropped = 0;  // (b)
  uint64_t forge_opportunities = 0;       // (c): FIND_VALUE requests seen
  uint64_t records_forged = 0;            // (c): forged records sent in VALUES replies

  AdversaryCounters& operator+=(const AdversaryCounters& o) {
    eclipse_replies += o.eclipse_replies;
    impersonations += o.impersonations;
    storage_requests_dropped += o.storage_requests_dropped;
    forge_opportunities += o.forge_opportunities;
    records_forged += o.records_forged;
    return *this;
  }
};

// Whom the live honest nodes' routing tables hold at the end of a run with adversaries: how
// far the adversaries got into them (an adversary host, or one of its pool ids at an alias).
// Reported under "adversary" in summary.json.
struct TableCensus {
  uint64_t contacts = 0;     // bucket contacts of the live honest nodes
  uint64_t adversarial = 0;  // ... that are adversaries
  // Each node's contacts closest to its own id, at most k: those it names when asked for a
  // key near itself, the last hops of a lookup for it.
  uint64_t nearest = 0;
  uint64_t nearest_adversarial = 0;

  TableCensus& operator+=(const TableCensus& o) {
    contacts += o.contacts;
    adversarial += o.adversarial;
    nearest += o.nearest;
    nearest_adversarial += o.nearest_adversarial;
    return *this;
  }
};

// The eclipse adversary's answer to `request` from `from`: a signed reply message, or nullopt
// to stay silent. `adversaries` lists every adversary; `k` is the reply size.
std::optional<kademlia::wire::Message> EclipseAnswer(const kademlia::Identity& self,
                                                     const kademlia::SignatureScheme& signatures,
                                                     const kademlia::wire::Message& request,
                                                     const transport::Endpoint& from,
                                                     const workloads::Oracle& adversaries, size_t k,
                                                     uint32_t network_id);

// Who answers a request, and how it signs: an identity the adversary holds (its own, or a
// pool id's) or, for an impersonation, another node's id under the adversary's own key.
struct Claim {
  kademlia::NodeId id;
  kademlia::PublicKey key{};
  std::function<kademlia::Signature(std::span<const uint8_t>)> sign;
};

// A reply to `request` from `claim` with `body`, with the proof signature when asked for.
kademlia::wire::Message ReplyAs(const Claim& claim, const kademlia::wire::Message& request,
                                const transport::Endpoint& from, kademlia::wire::Body body,
                                uint32_t network_id);

// What every scripted adversary (eclipse, sybil, impersonate) does with `request`: a PING is
// answered with a PONG, a FIND_NODE with `nodes(find)`, both under `claim`; anything else,
// and anything from another network, gets no answer (nullopt).
std::optional<kademlia::wire::Message> ScriptedReply(
    const Claim& claim, const kademlia::wire::Message& request, const transport::Endpoint& from,
    uint32_t network_id,
    const std::function<kademlia::wire::NodesBody(const kademlia::wire::FindNodeBody&)>& nodes);

// A reply to `request` from `self` with `body`, with the proof signature when asked for.
kademlia::wire::Message SignedReply(const kademlia::Identity& self,
                                    const kademlia::SignatureScheme& signatures,
                                    const kademlia::wire::Message& request,
                                    const transport::Endpoint& from, kademlia::wire::Body body,
                                    uint32_t network_id);

// (b): true for the requests a drop_storage adversary never answers.
inline bool IsStorageRequest(uint8_t type) {
  return type == static_cast<uint8_t>(kademlia::wire::MessageType::kFindValue) ||
         type == static_cast<uint8_t>(kademlia::wire::MessageType::kStore);
}

}  // namespace skillnode::sim::adversaries

#endif  // SKILLNODE_SIM_ADVERSARIES_ADVERSARY_H_
