// NodesAnswer: a FIND_NODE's answer holds the k contacts closest to the target without the
// requester, names a client this node relays for when it is the target, and carries the token
// that a STORE from the requester's address must show.
#include "kademlia/routing/nodes_answer.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/routing_table_util.h"

namespace skillnode::kademlia::routing {
namespace {

using namespace routing_test;  // NOLINT: test helpers

struct Fixture {
  transport::Rng rng{7};
  RoutingTable table{Self(), SmallConfig(), nullptr};
  reach::RelayTable relays{reach::RelayLimits{}};
  rpc::WriteTokens tokens{rng, kStart, transport::Seconds(300)};
  NodesAnswer answer{table, relays, tokens};
  const transport::Endpoint from{*transport::Address::Parse("198.51.100.7"), 4000};
};

std::vector<NodeId> IdsOf(const std::vector<wire::WireContact>& contacts) {
  std::vector<NodeId> ids;
  for (const wire::WireContact& c : contacts) ids.push_back(c.id);
  return ids;
}

TEST_CASE("a FIND_NODE gets the k closest contacts, never the requester", "[unit]") {
  Fixture f;
  FillFar(f.table, kStart);  // k = 4: four near contacts and four far ones
  const Key target = Far(2).id;
  const std::vector<Contact> closest = f.table.Closest(target, 5);
  REQUIRE(closest.size() == 5);

  // A stranger asks: the four closest.
  const wire::NodesBody stranger = f.answer.For(kStart, f.from, Key::Sha256("stranger"), target);
  CHECK(IdsOf(stranger.nodes) == Ids({closest.begin(), closest.begin() + 4}));
  for (size_t i = 0; i < stranger.nodes.size(); ++i) {
    CHECK(stranger.nodes[i].endpoint == closest[i].endpoint);
  }

  // The closest contact asks for its own id: it is left out and the fifth takes its place.
  const wire::NodesBody own = f.answer.For(kStart, f.from, closest[0].id, target);
  CHECK(IdsOf(own.nodes) == Ids({closest.begin() + 1, closest.end()}));
  CHECK(own.relayed.empty());
}

TEST_CASE("a FIND_NODE for a client this node relays for names it where it is seen", "[unit]") {
  Fixture f;
  FillNear(f.table, kStart);
  const NodeId client = Key::Sha256("client");
  const transport::Endpoint seen{*transport::Address::Parse("192.0.2.9"), 5000};
  REQUIRE(f.relays.Keep(kStart, client, seen) == reach::RelayTable::KeepOutcome::kAdded);

  const wire::NodesBody answer = f.answer.For(kStart, f.from, Key::Sha256("asker"), client);
  REQUIRE(answer.relayed.size() == 1);
  CHECK(answer.relayed[0].id == client);
  CHECK(answer.relayed[0].endpoint == seen);
  CHECK(answer.nodes.size() == 4);
  // Another target names no client.
  CHECK(f.answer.For(kStart, f.from, Key::Sha256("asker"), Key::Sha256("other")).relayed.empty());
  // Nor does the client once its reservation has lapsed.
  const transport::TimePoint later = kStart + f.relays.limits().lifetime + transport::Seconds(1);
  CHECK(f.answer.For(later, f.from, Key::Sha256("asker"), client).relayed.empty());
}

TEST_CASE("a FIND_NODE's token is the requester address's", "[unit]") {
  Fixture f;
  const wire::NodesBody answer = f.answer.For(kStart, f.from, Key::Sha256("asker"), Self());
  CHECK(answer.nodes.empty());
  REQUIRE(answer.token.size() == rpc::WriteTokens::kTokenSize);
  CHECK(f.tokens.Check(answer.token, f.from.address()));
  CHECK_FALSE(f.tokens.Check(answer.token, *transport::Address::Parse("198.51.100.8")));
}

}  // namespace
}  // namespace skillnode::kademlia::routing
