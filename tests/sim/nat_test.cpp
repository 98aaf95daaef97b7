// Hosts behind NATs in the simulator (sim/network/nat.h): the routers' address-restricted
// pinholes, and a churning population with 60 % of its nodes behind them, whose public nodes'
// routing tables fill with unreachable contacts unless client mode keeps them out.
#include "sim/network/nat.h"

#include <catch2/catch.hpp>
#include <string>

#include "sim_util.h"

namespace skillnode::sim {
namespace {

using testing::RunOne;

constexpr transport::TimePoint kT0 = transport::kTimeZero + transport::Seconds(10);

scenario::NatSpec Spec(double share, double pinhole_s = 120, size_t pinholes_max = 1024) {
  scenario::NatSpec spec;
  spec.share = share;
  spec.pinhole_s = pinhole_s;
  spec.pinholes_max = pinholes_max;
  return spec;
}

// The first host slot behind a NAT.
uint32_t FirstBehind(const network::NatRouters& nats) {
  uint32_t slot = 0;
  while (!nats.BehindNat(slot)) ++slot;
  return slot;
}

TEST_CASE("about the share asked of the hosts is behind NATs, the same ones for one seed",
          "[unit]") {
  network::NatRouters nats(Spec(0.6), 7);
  nats.Place(10'000);
  CHECK(nats.hosts_behind() > 5'800);
  CHECK(nats.hosts_behind() < 6'200);
  network::NatRouters again(Spec(0.6), 7);
  again.Place(10'000);
  network::NatRouters other(Spec(0.6), 8);
  other.Place(10'000);
  size_t same = 0, differ = 0;
  for (uint32_t slot = 0; slot < 10'000; ++slot) {
    same += nats.BehindNat(slot) == again.BehindNat(slot);
    differ += nats.BehindNat(slot) != other.BehindNat(slot);
  }
  CHECK(same == 10'000);
  CHECK(differ > 3'000);
  // Past the hosts placed (adversaries, aliases): never.
  CHECK_FALSE(nats.BehindNat(10'000));
  network::NatRouters none(Spec(0), 7);
  none.Place(10'000);
  CHECK(none.hosts_behind() == 0);
}

TEST_CASE("a NATed host hears only from the addresses it wrote to, for pinhole_s", "[unit]") {
  network::NatRouters nats(Spec(0.5, /*pinhole_s=*/120), 3);
  nats.Place(100);
  const uint32_t host = FirstBehind(nats);
  const uint32_t peer = host + 1, stranger = host + 2;
  CHECK_FALSE(nats.Admits(host, peer, kT0));  // nobody unasked
  nats.OnSent(host, peer, kT0);
  CHECK(nats.Admits(host, peer, kT0 + transport::Seconds(119)));
  CHECK_FALSE(nats.Admits(host, stranger, kT0 + transport::Seconds(1)));  // another address
  CHECK_FALSE(nats.Admits(host, peer, kT0 + transport::Seconds(120)));    // closed
  // Writing again keeps it open from then on.
  nats.OnSent(host, peer, kT0 + transport::Seconds(100));
  CHECK(nats.Admits(host, peer, kT0 + transport::Seconds(219)));
  // A public host hears from anyone.
  uint32_t open = 0;
  while (nats.BehindNat(open)) ++open;
  CHECK(nats.Admits(open, stranger, kT0));
}

TEST_CASE("a router holds at most pinholes_max, the least recently used leaving first", "[unit]") {
  network::NatRouters nats(Spec(0.5, /*pinhole_s=*/120, /*pinholes_max=*/3), 3);
  nats.Place(100);
  const uint32_t host = FirstBehind(nats);
  nats.OnSent(host, 50, kT0);
  nats.OnSent(host, 51, kT0 + transport::Seconds(1));
  nats.OnSent(host, 52, kT0 + transport::Seconds(2));
  nats.OnSent(host, 50, kT0 + transport::Seconds(3));  // used again: 51 is the oldest now
  nats.OnSent(host, 53, kT0 + transport::Seconds(4));
  const transport::TimePoint now = kT0 + transport::Seconds(5);
  CHECK(nats.Admits(host, 50, now));
  CHECK_FALSE(nats.Admits(host, 51, now));
  CHECK(nats.Admits(host, 52, now));
  CHECK(nats.Admits(host, 53, now));
  // Closed pinholes go before any open one does.
  nats.OnSent(host, 54, kT0 + transport::Seconds(123));  // 50 and 52 closed by now
  CHECK(nats.Admits(host, 53, kT0 + transport::Seconds(123)));
  CHECK(nats.Admits(host, 54, kT0 + transport::Seconds(123)));
}

// 150 nodes under churn, 60 % behind NATs, dial-back probes on; client mode as asked.
std::string Population(const std::string& client_mode) {
  return R"(
seed: 5
nodes: 150
kademlia: {k: 8, alpha: 3, reach_probes: true, client_mode: )" +
         client_mode + R"(}
network:
  build: join
  join_interval_ms: 100
  latency: {model: constant, rtt_ms: 60}
  nat: {share: 0.6}
churn:
  session: {distribution: exponential, mean_s: 3000}
  rejoin: lose
workload: {lookup_interval_s: 60, warmup_s: 600, measure_s: 600, drain_s: 30}
)";
}

TEST_CASE("behind NATs, client mode keeps the public tables reachable and lookups right", "[sim]") {
  const report::PointResult with = RunOne(Population("auto"));
  REQUIRE(with.summary.reach.has_value());
  const report::ReachCensus& on = *with.summary.reach;
  INFO("nodes public " << on.nodes_public << ", behind " << on.nodes_behind_nat);
  CHECK(on.nodes_behind_nat > on.nodes_public);
  // Every NATed node found it out and is a client, but for those still probing (joined a
  // moment ago); no public node thinks it is one.
  CHECK(on.clients_behind_nat + on.undecided_behind_nat == on.nodes_behind_nat);
  CHECK(on.undecided_behind_nat * 10 < on.nodes_behind_nat);
  CHECK(on.clients_public == 0);
  // The public nodes' tables hold almost only reachable contacts (a NATed node enters one only
  // until its verdict, a minute or so after it joins).
  CHECK(on.public_table_contacts > 0);
  CHECK(on.public_table_contacts_behind_nat * 20 < on.public_table_contacts);
  CHECK(with.summary.node_totals.clients_removed > 0);
  CHECK(with.summary.lookups.success_rate >= 0.99);
  CHECK(with.summary.network.nat_dropped > 0);

  // Without it, a third or more of what the public nodes hold cannot be reached: lookups wait
  // for them, and miss more.
  const report::PointResult without = RunOne(Population("off"));
  REQUIRE(without.summary.reach.has_value());
  const report::ReachCensus& off = *without.summary.reach;
  CHECK(off.clients_behind_nat == 0);
  CHECK(off.public_table_contacts_behind_nat * 3 > off.public_table_contacts);
  CHECK(without.summary.lookups.latency_ms_p50 > with.summary.lookups.latency_ms_p50);
}

}  // namespace
}  // namespace skillnode::sim
