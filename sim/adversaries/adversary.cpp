#include "sim/adversaries/adversary.h"

#include <utility>

#include "sim/network/addressing.h"

namespace skillnode::sim::adversaries {

kademlia::wire::Message ReplyAs(const Claim& claim, const kademlia::wire::Message& request,
                                const transport::Endpoint& from, kademlia::wire::Body body,
                                uint32_t network_id) {
  kademlia::wire::Message reply;
  reply.header.network_id = network_id;
  reply.header.txid = request.header.txid;
  reply.header.sender_id = claim.id;
  reply.header.sender_key = claim.key;
  reply.header.observed = from;
  if (request.header.proof_wanted) {
    reply.header.proof = claim.sign(kademlia::wire::ProofBytes(network_id, request.header.txid,
                                                               claim.id, request.header.sender_id));
  }
  reply.body = std::move(body);
  return reply;
}

std::optional<kademlia::wire::Message> ScriptedReply(
    const Claim& claim, const kademlia::wire::Message& request, const transport::Endpoint& from,
    uint32_t network_id,
    const std::function<kademlia::wire::NodesBody(const kademlia::wire::FindNodeBody&)>& nodes) {
  if (request.header.network_id != network_id || !kademlia::wire::IsRequest(request.type())) {
    return std::nullopt;
  }
  if (std::holds_alternative<kademlia::wire::PingBody>(request.body)) {
    return ReplyAs(claim, request, from, kademlia::wire::PongBody{}, network_id);
  }
  const auto* find = std::get_if<kademlia::wire::FindNodeBody>(&request.body);
  if (find == nullptr) return std::nullopt;
  return ReplyAs(claim, request, from, nodes(*find), network_id);
}

kademlia::wire::Message SignedReply(const kademlia::Identity& self,
                                    const kademlia::SignatureScheme& signatures,
                                    const kademlia::wire::Message& request,
                                    const transport::Endpoint& from, kademlia::wire::Body body,
                                    uint32_t network_id) {
  const Claim claim{self.node_id(), self.public_key(),
                    [&](std::span<const uint8_t> bytes) { return signatures.Sign(self, bytes); }};
  return ReplyAs(claim, request, from, std::move(body), network_id);
}

std::optional<kademlia::wire::Message> EclipseAnswer(const kademlia::Identity& self,
                                                     const kademlia::SignatureScheme& signatures,
                                                     const kademlia::wire::Message& request,
                                                     const transport::Endpoint& from,
                                                     const workloads::Oracle& adversaries, size_t k,
                                                     uint32_t network_id) {
  const Claim claim{self.node_id(), self.public_key(),
                    [&](std::span<const uint8_t> bytes) { return signatures.Sign(self, bytes); }};
  const kademlia::NodeId& asker = request.header.sender_id;
  return ScriptedReply(
      claim, request, from, network_id, [&](const kademlia::wire::FindNodeBody& find) {
        // Only adversaries strictly closer to the target than this one: every step leads deeper
        // into the colluding set and never back to an honest node. This adversary is in the set,
        // so those closer come before it in the set's closest-first order: k + 2 entries hold k
        // of them (or all of them) even after leaving out the asker.
        kademlia::wire::NodesBody nodes;
        for (const workloads::OracleEntry& e : adversaries.Closest(find.target, k + 2)) {
          if (e.id == claim.id || nodes.nodes.size() == k) break;
          if (e.id == asker) continue;
          nodes.nodes.push_back(kademlia::wire::WireContact{e.id, network::EndpointOfSlot(e.slot)});
        }
        return nodes;
      });
}

}  // namespace skillnode::sim::adversaries
