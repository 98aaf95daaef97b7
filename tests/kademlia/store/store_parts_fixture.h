// One kademlia::Node driven by hand, with the pieces the skill store's helpers share (its
// config, stats, value store, record window, verifier, outbox and puller), for the unit tests
// of those helpers
// (skill_getter_test.cpp, skill_publisher_test.cpp, replica_handoff_test.cpp,
// listener_table_test.cpp, subscriptions_test.cpp). No SkillDht: each test wires the helper it
// tests itself. Its datagrams are recorded; peers answer at a clock the test moves.
#ifndef SKILLNODE_TESTS_KADEMLIA_STORE_PARTS_FIXTURE_H_
#define SKILLNODE_TESTS_KADEMLIA_STORE_PARTS_FIXTURE_H_

#include <catch2/catch.hpp>
#include <optional>
#include <variant>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/store/holder/value_store.h"
#include "kademlia/store/reader/record_pull.h"
#include "kademlia/store/record/record_verifier.h"
#include "kademlia/store/record/record_window.h"
#include "kademlia/store/record_outbox.h"
#include "kademlia/store/skill_dht_types.h"
#include "support/peer.h"
#include "support/records.h"
#include "transport/logger.h"
#include "transport/rng.h"

namespace skillnode::kademlia::store {

struct StorePartsFixture {
  StorePartsFixture()
      : node(KademliaConfig{}, Identity::FromSeed(Key::Sha256("store-parts").bytes()), transport,
             rng, logger, now) {}

  // Makes `peer` a verified contact: it pings us, we ping back, it signs its pong.
  void Verify(const testing::Peer& peer) {
    Deliver(peer, peer.Request(wire::PingBody{}, 1000 + transport.sent.size()));
    auto sent = transport.Take();
    REQUIRE(sent.size() == 2);
    const wire::Message our_ping = sent[1].Decoded();
    REQUIRE(std::holds_alternative<wire::PingBody>(our_ping.body));
    Deliver(peer, peer.Reply(our_ping, wire::PongBody{}));
    REQUIRE(node.routing_table().Find(peer.id()) != std::nullopt);
  }
  void Deliver(const testing::Peer& from, const wire::Message& message) {
    node.OnDatagram(now, from.endpoint, testing::Peer::Bytes(message));
  }
  // The requests the node has sent to `peer` since the last Take, decoded (others are kept).
  std::vector<wire::Message> SentTo(const testing::Peer& peer) {
    std::vector<wire::Message> to_peer;
    std::vector<testing::RecordingTransport::Sent> others;
    for (auto& sent : transport.Take()) {
      if (sent.to == peer.endpoint) {
        to_peer.push_back(sent.Decoded());
      } else {
        others.push_back(std::move(sent));
      }
    }
    transport.sent = std::move(others);
    return to_peer;
  }
  // Holds `record` under `key` in the value store, as a STORE from 10.9.9.9 would.
  void Hold(const Key& key, const SignedRecord& record,
            transport::Duration lifetime = transport::Seconds(3600)) {
    REQUIRE(store.Put(key, record, transport::Address::Parse("10.9.9.9").value(), now, lifetime)
                .refusal == StoreRefusal::kNone);
  }

  transport::TimePoint now = transport::kTimeZero + transport::Seconds(100);
  testing::RecordingTransport transport;
  transport::Rng rng{7};
  transport::NullLogger logger;
  Node node;
  DhtConfig config;
  DhtStats stats;
  ValueStore store{config.limits};
  RecordWindow window{SimulatedWallClockMs, config.clock_skew};
  RecordVerifier verifier{config.verified_records_max, node.hash_key(), node.signatures(), stats};
  RecordOutbox outbox{node, config, stats};
  RecordPull pull{node, config, verifier, store, outbox, stats};
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_TESTS_KADEMLIA_STORE_PARTS_FIXTURE_H_
