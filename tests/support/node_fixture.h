// One kademlia::Node under test at 10.0.0.1:6881, driven by hand: its datagrams are recorded,
// and peers' messages are delivered to it at a clock the test moves.
#ifndef SKILLNODE_TESTS_SUPPORT_NODE_FIXTURE_H_
#define SKILLNODE_TESTS_SUPPORT_NODE_FIXTURE_H_

#include <catch2/catch.hpp>
#include <span>
#include <variant>

#include "kademlia/node.h"
#include "support/peer.h"

namespace skillnode::testing {

struct Fixture {
  explicit Fixture(kademlia::KademliaConfig config = {})
      : identity(kademlia::Identity::FromSeed(kademlia::Key::Sha256("node-under-test").bytes())),
        node(config, identity, transport, rng, logger, now) {}

  void Deliver(const Peer& from, const kademlia::wire::Message& message) {
    node.OnDatagram(now, from.endpoint, Peer::Bytes(message));
  }
  void Deliver(const transport::Endpoint& from, std::span<const uint8_t> bytes) {
    node.OnDatagram(now, from, bytes);
  }
  uint64_t Dropped(kademlia::DropReason reason) const {
    return node.stats().dropped[static_cast<size_t>(reason)];
  }
  // Makes `peer` a verified contact: it pings us, we ping back, it signs its pong.
  void Verify(const Peer& peer) {
    Deliver(peer, peer.Request(kademlia::wire::PingBody{}, 1000 + transport.sent.size()));
    auto sent = transport.Take();
    REQUIRE(sent.size() == 2);
    const kademlia::wire::Message our_ping = sent[1].Decoded();
    REQUIRE(std::holds_alternative<kademlia::wire::PingBody>(our_ping.body));
    Deliver(peer, peer.Reply(our_ping, kademlia::wire::PongBody{}));
    REQUIRE(node.routing_table().Find(peer.id()) != std::nullopt);
  }

  transport::TimePoint now = transport::kTimeZero + transport::Seconds(100);
  kademlia::Identity identity;
  RecordingTransport transport;
  transport::Rng rng{7};
  transport::NullLogger logger;
  kademlia::Node node;
};

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_NODE_FIXTURE_H_
