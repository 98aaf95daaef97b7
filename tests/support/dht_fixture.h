// One node with the skill store (kademlia::SkillDht), driven by hand: requests from a test
// peer are answered at once, on a clock the test moves (`now`), and the wall clock is the
// simulated calendar (kademlia::SimulatedWallClockMs).
#ifndef SKILLNODE_TESTS_SUPPORT_DHT_FIXTURE_H_
#define SKILLNODE_TESTS_SUPPORT_DHT_FIXTURE_H_

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "kademlia/store/skill_dht.h"
#include "support/fake_network.h"
#include "support/peer.h"

namespace skillnode::testing {

struct DhtFixture {
  explicit DhtFixture(const kademlia::store::DhtConfig& config = {})
      : node(kademlia::KademliaConfig{},
             kademlia::Identity::FromSeed(kademlia::Key::Sha256("dht-node").bytes()), transport,
             rng, logger, now),
        dht(node, config) {}

  // Sends `body` from `peer` and returns the node's reply to it.
  kademlia::wire::Message Ask(const Peer& peer, kademlia::wire::Body body, uint64_t txid = 1) {
    transport.Take();
    node.OnDatagram(now, peer.endpoint, Peer::Bytes(peer.Request(std::move(body), txid, false)));
    for (const auto& sent : transport.Take()) {
      const kademlia::wire::Message m = sent.Decoded();
      if (sent.to == peer.endpoint && m.header.txid == txid) return m;
    }
    FAIL("no reply");
    return {};
  }
  std::vector<uint8_t> TokenFor(const Peer& peer) {
    return std::get<kademlia::wire::NodesBody>(
               Ask(peer, kademlia::wire::FindNodeBody{kademlia::Key::Sha256("t")}, 99).body)
        .token;
  }
  uint16_t ErrorCodeOf(const kademlia::wire::Message& reply) {
    const auto* error = std::get_if<kademlia::wire::ErrorBody>(&reply.body);
    return error != nullptr ? error->code : 0;
  }

  transport::TimePoint now = transport::kTimeZero + transport::Seconds(10);
  RecordingTransport transport;
  transport::Rng rng{3};
  transport::NullLogger logger;
  kademlia::Node node;
  kademlia::store::SkillDht dht;
};

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_DHT_FIXTURE_H_
