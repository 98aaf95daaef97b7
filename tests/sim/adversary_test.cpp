// Adversaries answer with real, validly signed messages that lead only to other adversaries.
#include "sim/adversaries/adversary.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/network/addressing.h"

namespace skillnode::sim {
namespace {

using kademlia::Identity;
using kademlia::Key;

Identity IdentityFor(int i) {
  return Identity::FromSeed(Key::Sha256("adversary-" + std::to_string(i)).bytes());
}

kademlia::wire::Message Request(const Identity& from, kademlia::wire::Body body,
                                bool proof_wanted) {
  kademlia::wire::Message m;
  m.header.txid = 42;
  m.header.sender_id = from.node_id();
  m.header.sender_key = from.public_key();
  m.header.proof_wanted = proof_wanted;
  m.body = std::move(body);
  return m;
}

TEST_CASE("an eclipse adversary answers FIND_NODE only with closer adversaries, signed", "[unit]") {
  std::vector<Identity> adversaries;
  std::vector<workloads::OracleEntry> entries;
  for (int i = 0; i < 60; ++i) {
    adversaries.push_back(IdentityFor(i));
    entries.push_back(
        workloads::OracleEntry{adversaries.back().node_id(), static_cast<uint32_t>(100 + i)});
  }
  workloads::Oracle set;
  set.Assign(entries);
  const Identity honest = Identity::FromSeed(Key::Sha256("honest").bytes());
  const Key target = Key::Sha256("target");
  const transport::Endpoint from = network::EndpointOfSlot(3);
  for (int i = 0; i < 60; ++i) {
    const Identity& me = adversaries[static_cast<size_t>(i)];
    const auto request = Request(honest, kademlia::wire::FindNodeBody{target}, true);
    const auto reply =
        adversaries::EclipseAnswer(me, kademlia::Ed25519Signatures(), request, from, set, 8, 0);
    REQUIRE(reply);
    CHECK(reply->header.txid == 42);
    CHECK(reply->header.sender_id == me.node_id());
    REQUIRE(reply->header.proof);
    CHECK(kademlia::VerifySignature(
        me.public_key(), kademlia::wire::ProofBytes(0, 42, me.node_id(), honest.node_id()),
        *reply->header.proof));
    const auto* nodes = std::get_if<kademlia::wire::NodesBody>(&reply->body);
    REQUIRE(nodes);
    CHECK(nodes->nodes.size() <= 8);
    size_t closer = 0;
    for (const workloads::OracleEntry& e : entries)
      closer += kademlia::CloserTo(target, e.id, me.node_id());
    CHECK(nodes->nodes.size() == std::min<size_t>(8, closer));
    for (const auto& c : nodes->nodes) {
      CHECK(kademlia::CloserTo(target, c.id, me.node_id()));
      CHECK(set.Contains(c.id));
      CHECK(network::SlotOfEndpoint(c.endpoint).value() >= 100);
    }
    CHECK(kademlia::wire::Encode(*reply));  // a well-formed message
  }
}

TEST_CASE("an eclipse adversary answers PING, and ignores replies and foreign networks", "[unit]") {
  const Identity me = IdentityFor(1), honest = IdentityFor(2);
  workloads::Oracle set;
  set.Assign({workloads::OracleEntry{me.node_id(), 0}});
  const auto ping = Request(honest, kademlia::wire::PingBody{}, false);
  const auto pong = adversaries::EclipseAnswer(me, kademlia::Ed25519Signatures(), ping,
                                               network::EndpointOfSlot(1), set, 8, 0);
  REQUIRE(pong);
  CHECK(std::holds_alternative<kademlia::wire::PongBody>(pong->body));
  CHECK_FALSE(pong->header.proof);  // not asked for
  CHECK_FALSE(adversaries::EclipseAnswer(me, kademlia::Ed25519Signatures(),
                                         Request(honest, kademlia::wire::PongBody{}, false),
                                         network::EndpointOfSlot(1), set, 8, 0));
  CHECK_FALSE(adversaries::EclipseAnswer(me, kademlia::Ed25519Signatures(), ping,
                                         network::EndpointOfSlot(1), set, 8, 99));
}

TEST_CASE("a drop_storage adversary drops exactly STORE and FIND_VALUE", "[unit]") {
  CHECK(
      adversaries::IsStorageRequest(static_cast<uint8_t>(kademlia::wire::MessageType::kFindValue)));
  CHECK(adversaries::IsStorageRequest(static_cast<uint8_t>(kademlia::wire::MessageType::kStore)));
  for (uint8_t type : {1, 2, 3, 4, 6, 8, 127}) CHECK_FALSE(adversaries::IsStorageRequest(type));
}

}  // namespace
}  // namespace skillnode::sim
