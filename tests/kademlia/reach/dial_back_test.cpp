// The dial-back protocol through real Nodes on the fake network (kademlia/reach/reach_driver.h,
// docs/protocol.md "Reachability"): a node asks helpers, a helper asks a third party, the third
// party dials back from its second port; a node that strangers reach finds itself public, one
// behind a NAT that drops unsolicited datagrams finds itself behind a NAT, and the bounds hold;
// in client mode (KademliaConfig::client_mode) a node behind a NAT leaves its peers' routing
// tables and still finds what it looks for.
#include <catch2/catch.hpp>
#include <optional>
#include <span>

#include "kademlia/node.h"
#include "kademlia/reach/reach_verdict.h"
#include "support/fake_network.h"

namespace skillnode::kademlia {
namespace {

using reach::Reachability;
using testing::FakeNetwork;

KademliaConfig ProbingConfig() {
  KademliaConfig config;
  config.reach_probes = true;
  return config;
}

// `count` nodes with `config`, each joined through node 0; node `nat` (if below count) sits
// behind a NAT from the start. Runs a minute.
void Build(FakeNetwork& net, size_t count, const KademliaConfig& config,
           size_t nat = static_cast<size_t>(-1)) {
  net.AddNode(config);
  const transport::Endpoint seed = net.endpoint(0);
  for (size_t i = 1; i < count; ++i) {
    net.AddNode(config);
    if (i == nat) net.SetBehindNat(i, true);
    net.node(i).Join(net.now(), std::span(&seed, 1), nullptr);
  }
  net.RunFor(transport::Seconds(60));
}

TEST_CASE("nodes that strangers reach find themselves public, and their external endpoint",
          "[unit]") {
  FakeNetwork net(7);
  Build(net, 8, ProbingConfig());
  for (size_t i = 0; i < net.size(); ++i) {
    INFO("node " << i);
    reach::ReachDriver& reach = net.node(i).reach();
    CHECK(reach.reachability(net.now()) == Reachability::kPublic);
    CHECK(reach.tracker_stats().probes_reached >= 2);
    CHECK(reach.tracker_stats().probes_not_reached == 0);
    // Peers saw it at its own endpoint, and the vote says so.
    CHECK(reach.external(net.now()).endpoint == net.endpoint(i));
  }
  // Every dial-back came from a third party's second port, which no node ever sent to.
  size_t dialed = 0;
  for (size_t i = 0; i < net.size(); ++i) {
    dialed += net.node(i).reach().stats().dial_backs_sent;
  }
  CHECK(dialed >= 2 * net.size());
  CHECK(net.nat_dropped() == 0);
  // A helper's answer waits for its third party: two more hops that are no round trip of the
  // path. Every request here takes exactly two latencies, and so does every contact's RTT.
  for (size_t i = 0; i < net.size(); ++i) {
    for (const Contact& contact : net.node(i).routing_table().Export()) {
      INFO("node " << i << ", contact " << contact.endpoint.ToString());
      CHECK(contact.rtt <= transport::Millis(20));
    }
  }

  SECTION("once decided, a node probes every probe_interval, not every few seconds") {
    uint64_t asks = 0;
    for (size_t i = 0; i < net.size(); ++i) asks += net.node(i).reach().stats().asks_sent;
    net.RunFor(transport::Seconds(5 * 60));
    uint64_t later = 0;
    for (size_t i = 0; i < net.size(); ++i) later += net.node(i).reach().stats().asks_sent;
    CHECK(later == asks);  // the next probe is due 10 minutes after the last
  }
}

TEST_CASE("a node behind a NAT that drops unsolicited datagrams finds itself behind a NAT",
          "[unit]") {
  FakeNetwork net(11);
  Build(net, 8, ProbingConfig(), /*nat=*/3);
  reach::ReachDriver& natted = net.node(3).reach();
  CHECK(natted.reachability(net.now()) == Reachability::kNat);
  CHECK(natted.tracker_stats().probes_not_reached >= 2);
  CHECK(natted.tracker_stats().probes_reached == 0);
  CHECK(net.nat_dropped() > 0);
  for (size_t i = 0; i < net.size(); ++i) {
    if (i == 3) continue;
    INFO("node " << i);
    CHECK(net.node(i).reach().reachability(net.now()) == Reachability::kPublic);
  }

  SECTION("and public again once its NAT lets everything in") {
    net.SetBehindNat(3, false);
    // The decided verdict is checked again every probe_interval (10 minutes); it turns once
    // the outcomes that reach it outnumber the old ones among the last four: three probes.
    net.RunFor(transport::Seconds(35 * 60));
    CHECK(natted.reachability(net.now()) == Reachability::kPublic);
  }
}

TEST_CASE("without a third party the helper answers at once, and the verdict stays unknown",
          "[unit]") {
  FakeNetwork net(3);
  Build(net, 2, ProbingConfig());
  const reach::ReachDriver& helper = net.node(1).reach();
  CHECK(net.node(0).reach().reachability(net.now()) == Reachability::kUnknown);
  CHECK(helper.stats().helps_no_third > 0);
  CHECK(helper.stats().helps == 0);
  CHECK(helper.helps_in_flight() == 0);
  // Probes that decide nothing go on at probe_interval_unknown, a few at a time, not more.
  const uint64_t asks = net.node(0).reach().stats().asks_sent;
  CHECK(asks <= 60 / 5 + 1);
}

TEST_CASE("a node without reach_probes asks nothing and still helps", "[unit]") {
  FakeNetwork net(5);
  KademliaConfig quiet;  // reach_probes off: the simulator's nodes
  Build(net, 6, quiet);
  net.AddNode(ProbingConfig());
  const transport::Endpoint seed = net.endpoint(0);
  net.node(6).Join(net.now(), std::span(&seed, 1), nullptr);
  net.RunFor(transport::Seconds(60));
  CHECK(net.node(6).reach().reachability(net.now()) == Reachability::kPublic);
  uint64_t helps = 0;
  for (size_t i = 0; i < 6; ++i) {
    INFO("node " << i);
    CHECK(net.node(i).reach().stats().asks_sent == 0);
    CHECK(net.node(i).reach().reachability(net.now()) == Reachability::kUnknown);
    helps += net.node(i).reach().stats().helps;
  }
  CHECK(helps >= 2);
}

TEST_CASE("a third party sends at most dial_backs_burst dial-backs at once", "[unit]") {
  FakeNetwork net(9);
  KademliaConfig config = ProbingConfig();
  config.reach.dial_backs_per_second = 0.001;  // one token in 1,000 s
  config.reach.dial_backs_burst = 1;
  Build(net, 4, config);
  uint64_t sent = 0;
  uint64_t limited = 0;
  for (size_t i = 0; i < net.size(); ++i) {
    sent += net.node(i).reach().stats().dial_backs_sent;
    limited += net.node(i).reach().stats().dial_backs_limited;
  }
  CHECK(sent <= net.size());  // one each
  CHECK(limited > 0);
  // A helper whose third party refused answers "not dialed": no outcome, so nobody is found
  // behind a NAT for it.
  for (size_t i = 0; i < net.size(); ++i) {
    INFO("node " << i);
    CHECK(net.node(i).reach().tracker_stats().probes_not_reached == 0);
    CHECK(net.node(i).reach().reachability(net.now()) != Reachability::kNat);
  }
}

// Whether any node but `who` holds `who` in its routing table (buckets or replacements).
bool InAnyTable(FakeNetwork& net, size_t who) {
  for (size_t i = 0; i < net.size(); ++i) {
    if (i != who && net.node(i).routing_table().Find(net.node(who).id()) != std::nullopt)
      return true;
  }
  return false;
}

TEST_CASE(
    "in client mode when behind a NAT, a node leaves its peers' tables once its verdict is nat, "
    "still looks up through them, and comes back when its NAT opens",
    "[unit]") {
  FakeNetwork net(13);
  KademliaConfig config = ProbingConfig();
  config.client_mode = ClientMode::kWhenNat;
  Build(net, 8, config, /*nat=*/3);
  Node& natted = net.node(3);
  REQUIRE(natted.reach().reachability(net.now()) == Reachability::kNat);
  // It went client as its verdict turned, and pinged its contacts saying so: they dropped it.
  net.RunFor(transport::Seconds(5));
  CHECK(natted.client_mode());
  CHECK(natted.stats().client_mode_changes == 1);
  CHECK_FALSE(InAnyTable(net, 3));
  uint64_t removed = 0;
  for (size_t i = 0; i < net.size(); ++i) {
    INFO("node " << i);
    if (i != 3) CHECK_FALSE(net.node(i).client_mode());
    removed += net.node(i).stats().clients_removed;
  }
  CHECK(removed > 0);
  // It still finds the others: a lookup of node 5's id ends at node 5.
  std::optional<LookupResult> found;
  REQUIRE(natted.FindNode(net.now(), net.node(5).id(),
                          [&found](const LookupResult& result) { found = result; }));
  net.RunFor(transport::Seconds(30));
  REQUIRE(found.has_value());
  REQUIRE_FALSE(found->closest.empty());
  CHECK(found->closest.front().id == net.node(5).id());

  SECTION("and a full node again once strangers reach it") {
    net.SetBehindNat(3, false);
    net.RunFor(transport::Seconds(35 * 60));
    CHECK(natted.reach().reachability(net.now()) == Reachability::kPublic);
    CHECK_FALSE(natted.client_mode());
    CHECK(natted.stats().client_mode_changes == 2);
    CHECK(InAnyTable(net, 3));
  }
}

TEST_CASE("a node set to client mode joins and looks up but is in no other node's table",
          "[unit]") {
  FakeNetwork net(17);
  Build(net, 6, KademliaConfig{});
  KademliaConfig client;
  client.client_mode = ClientMode::kOn;
  net.AddNode(client);
  const transport::Endpoint seed = net.endpoint(0);
  net.node(6).Join(net.now(), std::span(&seed, 1), nullptr);
  net.RunFor(transport::Seconds(120));
  CHECK(net.node(6).client_mode());
  CHECK(net.node(6).routing_table().size() >= 5);  // it knows them all
  CHECK_FALSE(InAnyTable(net, 6));
  uint64_t heard = 0;
  for (size_t i = 0; i < 6; ++i) heard += net.node(i).stats().client_messages;
  CHECK(heard > 0);
}

}  // namespace
}  // namespace skillnode::kademlia
