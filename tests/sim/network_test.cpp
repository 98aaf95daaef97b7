// The simulated network: latency models, loss, duplication, reordering and partitions.
#include "sim/network.h"

#include <catch2/catch.hpp>
#include <vector>

#include "sim/addressing.h"
#include "sim/latency.h"

namespace skillnode::sim {
namespace {

constexpr TimePoint kStart = kTimeZero + Seconds(1);

struct Delivery {
  TimePoint at;
  uint32_t to;
};

// Sends `count` datagrams from slot 0 to slot 1 at `now` and returns what was scheduled.
std::vector<Delivery> SendMany(Network& network, EventQueue& queue, TimePoint now, int count,
                               uint32_t from = 0, uint32_t to = 1) {
  const std::vector<uint8_t> bytes = {1, 2, 3};
  for (int i = 0; i < count; ++i) network.Send(now, from, EndpointOfSlot(to), bytes);
  std::vector<Delivery> out;
  while (!queue.empty()) {
    const Event e = queue.Pop();
    out.push_back({e.at, e.slot});
    CHECK(network.packet(e.arg).bytes == bytes);
    network.Release(e.arg);
  }
  return out;
}

TEST_CASE("addresses map to slots and back", "[unit]") {
  for (uint32_t slot : {0u, 1u, 255u, 65535u, 1000000u, kSlotsMax - 1}) {
    CHECK(SlotOfEndpoint(EndpointOfSlot(slot)) == slot);
  }
  CHECK_FALSE(SlotOfEndpoint(Endpoint(*Address::Parse("10.0.0.0"), kSimPort)));
  CHECK_FALSE(SlotOfEndpoint(Endpoint(*Address::Parse("10.0.0.1"), 1234)));
  CHECK_FALSE(SlotOfEndpoint(Endpoint(*Address::Parse("192.168.0.1"), kSimPort)));
}

TEST_CASE("a datagram takes half the RTT of its hosts' regions", "[unit]") {
  LatencySpec spec;
  spec.kind = LatencyKind::kRegions;
  REQUIRE_FALSE(CompleteRegions(spec));
  REQUIRE(spec.regions.size() == 6);
  LatencyModel latency(spec);
  Rng rng(1);
  latency.Place(200, rng);
  for (uint32_t a = 0; a < 20; ++a) {
    for (uint32_t b = 0; b < 20; ++b) {
      const double rtt = spec.rtt_matrix_ms[latency.region(a)][latency.region(b)];
      CHECK(ToMillis(latency.OneWay(a, b, rng)) == Approx(rtt / 2));
    }
  }
  CHECK(spec.rtt_matrix_ms[0][2] == 81);  // us-east <-> eu-west
  CHECK(latency.MeanRttMs() > 100);
  CHECK(latency.MeanRttMs() < 200);
}

TEST_CASE("loss drops the configured share and duplication adds copies", "[unit]") {
  NetworkSpec spec;
  spec.loss = 0.1;
  spec.duplicate = 0.05;
  spec.latency.rtt_ms = 40;
  LatencyModel latency(spec.latency);
  EventQueue queue;
  Network network(spec, latency, queue, kStart, 7);
  const auto deliveries = SendMany(network, queue, kStart, 10000);
  const auto& c = network.counters();
  CHECK(c.sent == 10000);
  CHECK(c.lost > 800);
  CHECK(c.lost < 1200);
  CHECK(c.duplicated > 350);
  CHECK(c.duplicated < 600);
  CHECK(deliveries.size() == 10000 - c.lost + c.duplicated);
  for (const Delivery& d : deliveries) CHECK(d.at == kStart + Millis(20));
}

TEST_CASE("reordering holds some datagrams back by up to reorder_delay_ms", "[unit]") {
  NetworkSpec spec;
  spec.reorder = 0.5;
  spec.reorder_delay_ms = 30;
  spec.latency.rtt_ms = 20;
  LatencyModel latency(spec.latency);
  EventQueue queue;
  Network network(spec, latency, queue, kStart, 8);
  size_t late = 0;
  for (const Delivery& d : SendMany(network, queue, kStart, 1000)) {
    CHECK(d.at >= kStart + Millis(10));
    CHECK(d.at <= kStart + Millis(40));
    late += d.at > kStart + Millis(10);
  }
  CHECK(late == network.counters().reordered);
  CHECK(late > 400);
}

TEST_CASE("a partition separates its sides from start_s until heal_s", "[unit]") {
  NetworkSpec spec;
  spec.latency.kind = LatencyKind::kRegions;
  spec.latency.regions = {{"us-east", 1}, {"eu-west", 1}};
  REQUIRE_FALSE(CompleteRegions(spec.latency));
  spec.partitions.push_back(PartitionSpec{10, 20, {"us-east"}, 0.5});
  LatencyModel latency(spec.latency);
  Rng rng(3);
  latency.Place(100, rng);
  EventQueue queue;
  Network network(spec, latency, queue, kStart, 9);
  uint32_t east = 0, west = 0;
  while (latency.region(east) != 0) ++east;
  while (latency.region(west) != 1) ++west;
  CHECK(SendMany(network, queue, kStart + Seconds(5), 1, east, west).size() == 1);
  CHECK(SendMany(network, queue, kStart + Seconds(10), 1, east, west).empty());
  CHECK(SendMany(network, queue, kStart + Seconds(15), 1, west, east).empty());
  CHECK(network.counters().partitioned == 2);
  CHECK(SendMany(network, queue, kStart + Seconds(20), 1, east, west).size() == 1);
  uint32_t other_east = east + 1;
  while (latency.region(other_east) != 0) ++other_east;
  CHECK(SendMany(network, queue, kStart + Seconds(15), 1, east, other_east).size() == 1);
}

TEST_CASE("datagrams to addresses no host has are counted as unroutable", "[unit]") {
  NetworkSpec spec;
  LatencyModel latency(spec.latency);
  EventQueue queue;
  Network network(spec, latency, queue, kStart, 1);
  const std::vector<uint8_t> bytes = {1};
  network.Send(kStart, 0, *Endpoint::Parse("8.8.8.8:53"), bytes);
  CHECK(network.counters().unroutable == 1);
  CHECK(queue.empty());
}

}  // namespace
}  // namespace skillnode::sim
