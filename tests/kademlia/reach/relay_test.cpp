// Relays through real Nodes and SkillDhts on the fake network (kademlia/reach/relay_driver.h,
// docs/protocol.md "Relays"): a client keeps reservations at the full nodes closest to its id
// and renews them; a push reaches a client behind a NAT that no longer lets its holders in,
// through its relay, and is acknowledged back the same way; without relays it does not arrive;
// a client that loses a relay listens again naming the new one; a relay carries nothing for a
// node that holds no reservation with it; a client whose relays all refuse remembers a bounded
// number of them; two clients behind NATs reach each other directly after a punch, and the path
// falls back to the relay when the punch is refused.
#include <catch2/catch.hpp>
#include <optional>
#include <span>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/store/skill_dht.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::kademlia::reach {
namespace {

using store::CapabilityKey;
using store::DhtConfig;
using store::ListenEvent;
using testing::FakeNetwork;

constexpr size_t kFullNodes = 12;

KademliaConfig FullConfig() {
  KademliaConfig config;
  config.routing.bucket_size = 8;
  return config;
}

KademliaConfig ClientConfig(size_t relays_max) {
  KademliaConfig config = FullConfig();
  config.client_mode = ClientMode::kOn;
  config.relay.relays_max = relays_max;
  config.relay.keep_interval = transport::Seconds(10);
  return config;
}

// Adds a client behind a NAT, joined through node 0, and runs a minute; returns its index.
size_t AddClient(FakeNetwork& net, const KademliaConfig& client_config) {
  const transport::Endpoint seed = net.endpoint(0);
  const size_t client = net.size();
  net.AddDhtNode(client_config, DhtConfig{});
  net.SetBehindNat(client, true);
  net.node(client).Join(net.now(), std::span(&seed, 1), nullptr);
  net.RunFor(transport::Seconds(60));
  return client;
}

// kFullNodes full nodes with the skill store, then a client behind a NAT whose flows live
// `flow_life`; all joined through node 0. Runs a minute. Returns the client's index.
size_t Build(FakeNetwork& net, const KademliaConfig& client_config, transport::Duration flow_life,
             const KademliaConfig& full = FullConfig()) {
  net.SetNatFlowLife(flow_life);
  net.AddDhtNode(full, DhtConfig{});
  const transport::Endpoint seed = net.endpoint(0);
  for (size_t i = 1; i < kFullNodes; ++i) {
    net.AddDhtNode(full, DhtConfig{});
    net.node(i).Join(net.now(), std::span(&seed, 1), nullptr);
  }
  net.RunFor(transport::Seconds(10));
  return AddClient(net, client_config);
}

// What `from` found connecting to `to` (after running 10 s).
std::optional<HolePuncher::Connection> ConnectFor(FakeNetwork& net, size_t from, const NodeId& to) {
  std::optional<HolePuncher::Connection> found;
  REQUIRE(net.node(from).Connect(
      net.now(), to, [&](const HolePuncher::Connection& connection) { found = connection; }));
  net.RunFor(transport::Seconds(10));
  return found;
}

TEST_CASE("a client keeps reservations at the two full nodes closest to its id", "[unit]") {
  FakeNetwork net(/*seed=*/41);
  const size_t client = Build(net, ClientConfig(2), transport::Seconds(120));
  const Node& x = net.node(client);
  const auto held = x.relay().held(net.now());
  REQUIRE(held.size() == 2);
  // The two closest full nodes to the client's id, closest first.
  std::vector<size_t> by_distance;
  for (size_t i = 0; i < kFullNodes; ++i) by_distance.push_back(i);
  std::sort(by_distance.begin(), by_distance.end(), [&](size_t a, size_t b) {
    return CloserTo(x.id(), net.node(a).id(), net.node(b).id());
  });
  CHECK(held[0].relay.id == net.node(by_distance[0]).id());
  CHECK(held[1].relay.id == net.node(by_distance[1]).id());
  for (size_t rank = 0; rank < 2; ++rank) {
    const RelayTable& table = net.node(by_distance[rank]).relay().table();
    CHECK(table.EndpointOf(net.now(), x.id()) == net.endpoint(client));
  }
  // Kept for as long as it is a client: every keep answered, none given up.
  net.RunFor(transport::Seconds(5 * 60));
  CHECK(x.relay().held(net.now()).size() == 2);
  CHECK(x.relay().stats().keeps_failed == 0);
  CHECK(x.relay().stats().keeps_sent >= 2 * (5 * 60 / 10));
  // Nobody else asked for one.
  size_t reservations = 0;
  for (size_t i = 0; i < kFullNodes; ++i) reservations += net.node(i).relay().table().size();
  CHECK(reservations == 2);
}

TEST_CASE("a client whose relays all refuse remembers at most given_up_max of them", "[unit]") {
  FakeNetwork net(/*seed=*/44);
  KademliaConfig refusing = FullConfig();
  refusing.relay.limits.clients_max = 0;  // every RELAY_KEEP is answered kRelayFull
  KademliaConfig client_config = ClientConfig(2);
  client_config.relay.given_up_max = 3;
  const size_t client = Build(net, client_config, transport::Seconds(120), refusing);
  net.RunFor(transport::Seconds(3 * 60));
  const RelayDriver& relay = net.node(client).relay();
  CHECK(relay.held(net.now()).empty());
  // It went on asking past the first three refusals: forgetting the one due soonest let it try
  // that one again, or one further out.
  CHECK(relay.stats().keeps_failed > 3);
  CHECK(relay.given_up() == 3);
  // ... but not at its round trip's pace: once the list is full, a refill waits for the timer
  // (5 s), two relays a time, over the 4 minutes since it joined (and each relay's first
  // answer asks for a proof, which costs one more RELAY_KEEP).
  CHECK(relay.stats().keeps_sent <= 2 * (4 * 60 / 5) + 2 * kFullNodes + 4);
  size_t refused = 0;
  for (size_t i = 0; i < kFullNodes; ++i) {
    refused += net.node(i).relay().stats().keeps_refused;
    CHECK(net.node(i).relay().table().size() == 0);
  }
  CHECK(refused == relay.stats().keeps_failed);
}

// The client listens on a key, then stays quiet for longer than its NAT keeps the holders'
// flows; a full node then publishes a record under the key. Returns what the client heard.
std::vector<ListenEvent> PublishAfterQuiet(FakeNetwork& net, size_t client) {
  std::vector<ListenEvent> events;
  const Key key = CapabilityKey("user-auth");
  REQUIRE(net.dht(client).Listen(net.now(), key,
                                 [&](const ListenEvent& event) { events.push_back(event); }) != 0);
  net.RunFor(transport::Seconds(40));  // longer than the 20 s flows, shorter than a renewal
  REQUIRE(events.empty());
  net.dht(3).Publish(net.now(), testing::Signed(testing::SampleRecord(), testing::Publisher()),
                     nullptr);
  net.RunFor(transport::Seconds(5));
  return events;
}

TEST_CASE("a push reaches a client whose NAT no longer lets its holders in, through its relay",
          "[unit]") {
  FakeNetwork net(/*seed=*/43);
  const size_t client = Build(net, ClientConfig(2), transport::Seconds(20));
  REQUIRE(net.node(client).relay().held(net.now()).size() == 2);
  const std::vector<ListenEvent> events = PublishAfterQuiet(net, client);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == ListenEvent::Kind::kAdded);
  uint64_t relayed = 0;
  uint64_t retried = 0;
  uint64_t carried = 0;
  for (size_t i = 0; i < kFullNodes; ++i) {
    relayed += net.dht(i).stats().pushes_relayed;
    retried += net.dht(i).stats().pushes_retried;
    carried += net.node(i).relay().stats().carried;
  }
  CHECK(relayed >= 1);
  // Each push and its acknowledgement went through a relay, and no push was sent again: the
  // acknowledgement came back through the relay and counted as the client's.
  CHECK(carried >= 2 * relayed);
  CHECK(retried == 0);
  CHECK(net.node(client).stats().relayed_received >= 1);
  CHECK(net.node(client).stats().relayed_sent >= 1);
}

TEST_CASE(
    "a client that loses its closest relay listens again naming the new one, and hears pushes",
    "[unit]") {
  FakeNetwork net(/*seed=*/47);
  const size_t client = Build(net, ClientConfig(2), transport::Seconds(20));
  std::vector<ListenEvent> events;
  REQUIRE(net.dht(client).Listen(net.now(), CapabilityKey("user-auth"),
                                 [&](const ListenEvent& event) { events.push_back(event); }) != 0);
  net.RunFor(transport::Seconds(5));
  const auto held = net.node(client).relay().held(net.now());
  REQUIRE(held.size() == 2);
  // The relay its LISTENs named first (the one holders push through) goes silent.
  size_t lost = kFullNodes;
  for (size_t i = 0; i < kFullNodes; ++i) {
    if (net.node(i).id() == held[0].relay.id) lost = i;
  }
  REQUIRE(lost < kFullNodes);
  net.SetSilent(lost, true);
  const uint64_t changes = net.node(client).relay().held_changes();
  const uint64_t renewed = net.dht(client).stats().subscriptions_renewed;
  // A renewal of the reservation times out, the next closest full node grants one, and the
  // holders' flows to the client close (20 s); the regular renewal is 150 s away.
  net.RunFor(transport::Seconds(40));
  const auto now_held = net.node(client).relay().held(net.now());
  REQUIRE(now_held.size() == 2);
  for (const auto& relay : now_held) CHECK(relay.relay.id != held[0].relay.id);
  CHECK(net.node(client).relay().held_changes() >= changes + 2);  // one lost, one granted
  CHECK(net.dht(client).stats().subscriptions_renewed > renewed);

  const size_t publisher = lost == 3 ? 4 : 3;
  net.dht(publisher).Publish(
      net.now(), testing::Signed(testing::SampleRecord(), testing::Publisher()), nullptr);
  net.RunFor(transport::Seconds(5));
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == ListenEvent::Kind::kAdded);
}

TEST_CASE("without relays a push to a client whose NAT closed does not arrive", "[unit]") {
  FakeNetwork net(/*seed=*/43);
  const size_t client = Build(net, ClientConfig(0), transport::Seconds(20));
  CHECK(net.node(client).relay().held(net.now()).empty());
  const uint64_t dropped = net.nat_dropped();
  CHECK(PublishAfterQuiet(net, client).empty());
  CHECK(net.nat_dropped() > dropped);
}

TEST_CASE("a relay carries nothing for a node without a reservation, nor a stranger's reply",
          "[unit]") {
  FakeNetwork net(/*seed=*/47);
  const size_t client = Build(net, ClientConfig(2), transport::Seconds(120));
  const NodeId stranger = net.node(5).id();  // a full node: no reservation anywhere
  const auto held = net.node(client).relay().held(net.now());
  REQUIRE(!held.empty());
  size_t relay = 0;
  while (net.node(relay).id() != held[0].relay.id) ++relay;
  const uint64_t before = net.node(relay).relay().stats().refused_no_client;
  // A push to the stranger through the client's relay: the relay has no reservation for it.
  bool answered = true;
  REQUIRE(net.node(7).Request(
      net.now(), net.endpoint(5), stranger, wire::PingBody{},
      [&](const rpc::RpcResult& result) { answered = result.status == rpc::RpcStatus::kReplied; },
      net.endpoint(relay)));
  net.RunFor(transport::Seconds(10));
  CHECK_FALSE(answered);
  CHECK(net.node(relay).relay().stats().refused_no_client == before + 1);
}

TEST_CASE("two clients behind NATs reach each other directly after a punch through a relay",
          "[unit]") {
  FakeNetwork net(/*seed=*/53);
  const size_t x = Build(net, ClientConfig(2), transport::Seconds(120));
  const size_t y = AddClient(net, ClientConfig(2));
  REQUIRE(net.node(y).relay().held(net.now()).size() == 2);
  const uint64_t dropped = net.nat_dropped();
  const auto found = ConnectFor(net, x, net.node(y).id());
  REQUIRE(found);
  CHECK(found->path == HolePuncher::Path::kPunched);
  CHECK(found->endpoint == net.endpoint(y));
  REQUIRE(found->relay);
  CHECK(net.node(y).relay().IsRelay(net.now(), found->relay->endpoint));
  CHECK(net.node(x).puncher().stats().punches_sent == 1);
  CHECK(net.node(x).puncher().stats().punched == 1);
  CHECK(net.node(y).puncher().stats().punches_answered == 1);
  // Y's PING to X opened Y's NAT and was itself dropped by X's, as X's direct PING had not left.
  CHECK(net.nat_dropped() > dropped);
}

TEST_CASE(
    "a full node is reached directly, a client that refuses punches through its relay, "
    "and an id nobody has is unreachable",
    "[unit]") {
  FakeNetwork net(/*seed=*/59);
  const size_t x = Build(net, ClientConfig(2), transport::Seconds(120));
  KademliaConfig refusing = ClientConfig(2);
  refusing.punch.answers_per_second = 1e-6;  // less than one token: every PUNCH refused
  const size_t y = AddClient(net, refusing);

  const auto full = ConnectFor(net, x, net.node(5).id());
  REQUIRE(full);
  CHECK(full->path == HolePuncher::Path::kDirect);
  CHECK(full->endpoint == net.endpoint(5));

  const auto relayed = ConnectFor(net, x, net.node(y).id());
  REQUIRE(relayed);
  CHECK(relayed->path == HolePuncher::Path::kRelayed);
  CHECK(net.node(y).puncher().stats().punches_refused == 1);
  CHECK(net.node(x).puncher().stats().punches_failed == 1);

  const auto nobody = ConnectFor(net, x, Key::Sha256("no such node"));
  REQUIRE(nobody);
  CHECK(nobody->path == HolePuncher::Path::kUnreachable);
  CHECK(net.node(x).puncher().running() == 0);
}

}  // namespace
}  // namespace skillnode::kademlia::reach
