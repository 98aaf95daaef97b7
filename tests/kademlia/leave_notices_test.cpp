// LeaveNotices: a node shutting down sends one LEAVE, under its own id and a fresh transaction
// id, to each of the contacts nearest its id, at most the given number.
#include "kademlia/leave_notices.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/peer.h"
#include "support/routing_table_util.h"

namespace skillnode::kademlia {
namespace {

using namespace routing_test;  // NOLINT: test helpers

struct Fixture {
  Fixture() {
    // Four near contacts and four far ones, each at an address of its own.
    for (int i = 0; i < 4; ++i) {
      const Key near = AtDistance(Self(), "0001", "near-" + std::to_string(i));
      REQUIRE(table.Heard(MakeContact(near, "10.0.1." + std::to_string(i + 1)), kStart).outcome ==
              routing::InsertOutcome::kAdded);
    }
    for (int i = 0; i < 4; ++i) {
      REQUIRE(table.Heard(Far(i, "10.0.0." + std::to_string(i + 1)), kStart).outcome ==
              routing::InsertOutcome::kAdded);
    }
  }
  std::vector<transport::Endpoint> NearestEndpoints(size_t count) const {
    std::vector<transport::Endpoint> endpoints;
    for (const Contact& c : table.Closest(Self(), count)) endpoints.push_back(c.endpoint);
    return endpoints;
  }

  KademliaConfig config;
  testing::Peer self{"leaving", "10.0.0.100:6881"};
  testing::RecordingTransport transport;
  transport::NullLogger logger;
  NodeStats stats;
  transport::Rng rng{7};
  routing::RoutingTable table{Self(), SmallConfig(), nullptr};
  MessageSender sender{config,
                       self.identity,
                       Ed25519Signatures(),
                       transport,
                       logger,
                       stats,
                       [](transport::TimePoint, const transport::Endpoint&) {}};
  LeaveNotices notices{table, sender, rng};
};

TEST_CASE("LEAVE goes to the contacts nearest our id, at most the given number", "[unit]") {
  Fixture f;
  CHECK(f.notices.Send(kStart, Self(), 3) == 3);
  const auto sent = f.transport.Take();
  REQUIRE(sent.size() == 3);
  std::vector<transport::Endpoint> to;
  std::set<uint64_t> txids;
  for (const auto& datagram : sent) {
    const wire::Message leave = datagram.Decoded();
    CHECK(std::holds_alternative<wire::LeaveBody>(leave.body));
    CHECK(leave.header.sender_id == f.self.id());
    txids.insert(leave.header.txid);
    to.push_back(datagram.to);
  }
  CHECK(to == f.NearestEndpoints(3));
  CHECK(txids.size() == 3);  // each a fresh transaction id
  // More than the table holds: every contact, once.
  CHECK(f.notices.Send(kStart, Self(), 100) == 8);
  CHECK(f.transport.Take().size() == 8);
}

TEST_CASE("an empty table sends no LEAVE", "[unit]") {
  testing::RecordingTransport transport;
  KademliaConfig config;
  testing::Peer self{"alone", "10.0.0.100:6881"};
  transport::NullLogger logger;
  NodeStats stats;
  transport::Rng rng{7};
  routing::RoutingTable table{Self(), SmallConfig(), nullptr};
  MessageSender sender(config, self.identity, Ed25519Signatures(), transport, logger, stats,
                       [](transport::TimePoint, const transport::Endpoint&) {});
  CHECK(LeaveNotices(table, sender, rng).Send(kStart, Self(), 64) == 0);
  CHECK(transport.sent.empty());
}

}  // namespace
}  // namespace skillnode::kademlia
