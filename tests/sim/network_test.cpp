// The simulated network: latency models, loss, duplication, reordering and partitions.
#include "sim/network/network.h"

#include <catch2/catch.hpp>
#include <vector>

#include "sim/network/addressing.h"
#include "sim/network/latency.h"

namespace skillnode::sim {
namespace {

constexpr transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(1);

struct Delivery {
  transport::TimePoint at;
  uint32_t to;
};

// Sends `count` datagrams from slot 0 to slot 1 at `now` and returns what was scheduled.
std::vector<Delivery> SendMany(network::Network& network, engine::EventQueue& queue,
                               transport::TimePoint now, int count, uint32_t from = 0,
                               uint32_t to = 1) {
  const std::vector<uint8_t> bytes = {1, 2, 3};
  for (int i = 0; i < count; ++i) network.Send(now, from, network::EndpointOfSlot(to), bytes);
  std::vector<Delivery> out;
  while (!queue.empty()) {
    const engine::Event e = queue.Pop();
    out.push_back({e.at, e.slot});
    CHECK(network.packet(e.arg).bytes == bytes);
    network.Release(e.arg);
  }
  return out;
}

TEST_CASE("addresses map to slots and back", "[unit]") {
  for (uint32_t slot : {0u, 1u, 255u, 65535u, 1000000u, network::kSlotsMax - 1}) {
    CHECK(network::SlotOfEndpoint(network::EndpointOfSlot(slot)) == slot);
  }
  CHECK_FALSE(network::SlotOfEndpoint(
      transport::Endpoint(*transport::Address::Parse("10.0.0.0"), network::kSimPort)));
  CHECK_FALSE(
      network::SlotOfEndpoint(transport::Endpoint(*transport::Address::Parse("10.0.0.1"), 1234)));
  CHECK_FALSE(network::SlotOfEndpoint(
      transport::Endpoint(*transport::Address::Parse("192.168.0.1"), network::kSimPort)));
}

TEST_CASE("a datagram takes half the RTT of its hosts' regions", "[unit]") {
  scenario::LatencySpec spec;
  spec.kind = scenario::LatencyKind::kRegions;
  REQUIRE_FALSE(network::CompleteRegions(spec));
  REQUIRE(spec.regions.size() == 6);
  network::LatencyModel latency(spec);
  transport::Rng rng(1);
  latency.Place(200, rng);
  for (uint32_t a = 0; a < 20; ++a) {
    for (uint32_t b = 0; b < 20; ++b) {
      const double rtt = spec.rtt_matrix_ms[latency.region(a)][latency.region(b)];
      CHECK(transport::ToMillis(latency.OneWay(a, b, rng)) == Approx(rtt / 2));
    }
  }
  CHECK(spec.rtt_matrix_ms[0][2] == 81);  // us-east <-> eu-west
  CHECK(latency.MeanRttMs() > 100);
  CHECK(latency.MeanRttMs() < 200);
}

TEST_CASE("loss drops the configured share and duplication adds copies", "[unit]") {
  scenario::NetworkSpec spec;
  spec.loss = 0.1;
  spec.duplicate = 0.05;
  spec.latency.rtt_ms = 40;
  network::LatencyModel latency(spec.latency);
  engine::EventQueue queue;
  network::Network network(spec, latency, queue, kStart, 7);
  const auto deliveries = SendMany(network, queue, kStart, 10000);
  const network::NetworkCounters c = network.counters();
  CHECK(c.sent == 10000);
  CHECK(c.lost > 800);
  CHECK(c.lost < 1200);
  CHECK(c.duplicated > 350);
  CHECK(c.duplicated < 600);
  CHECK(deliveries.size() == 10000 - c.lost + c.duplicated);
  for (const Delivery& d : deliveries) CHECK(d.at == kStart + transport::Millis(20));
}

TEST_CASE("reordering holds some datagrams back by up to reorder_delay_ms", "[unit]") {
  scenario::NetworkSpec spec;
  spec.reorder = 0.5;
  spec.reorder_delay_ms = 30;
  spec.latency.rtt_ms = 20;
  network::LatencyModel latency(spec.latency);
  engine::EventQueue queue;
  network::Network network(spec, latency, queue, kStart, 8);
  size_t late = 0;
  for (const Delivery& d : SendMany(network, queue, kStart, 1000)) {
    CHECK(d.at >= kStart + transport::Millis(10));
    CHECK(d.at <= kStart + transport::Millis(40));
    late += d.at > kStart + transport::Millis(10);
  }
  CHECK(late == network.counters().reordered);
  CHECK(late > 400);
}

TEST_CASE("a partition separates its sides from start_s until heal_s", "[unit]") {
  scenario::NetworkSpec spec;
  spec.latency.kind = scenario::LatencyKind::kRegions;
  spec.latency.regions = {{"us-east", 1}, {"eu-west", 1}};
  REQUIRE_FALSE(network::CompleteRegions(spec.latency));
  spec.partitions.push_back(scenario::PartitionSpec{10, 20, {"us-east"}, 0.5});
  network::LatencyModel latency(spec.latency);
  transport::Rng rng(3);
  latency.Place(100, rng);
  engine::EventQueue queue;
  network::Network network(spec, latency, queue, kStart, 9);
  uint32_t east = 0, west = 0;
  while (latency.region(east) != 0) ++east;
  while (latency.region(west) != 1) ++west;
  CHECK(SendMany(network, queue, kStart + transport::Seconds(5), 1, east, west).size() == 1);
  CHECK(SendMany(network, queue, kStart + transport::Seconds(10), 1, east, west).empty());
  CHECK(SendMany(network, queue, kStart + transport::Seconds(15), 1, west, east).empty());
  CHECK(network.counters().partitioned == 2);
  CHECK(SendMany(network, queue, kStart + transport::Seconds(20), 1, east, west).size() == 1);
  uint32_t other_east = east + 1;
  while (latency.region(other_east) != 0) ++other_east;
  CHECK(SendMany(network, queue, kStart + transport::Seconds(15), 1, east, other_east).size() == 1);
}

TEST_CASE("datagrams to addresses no host has are counted as unroutable", "[unit]") {
  scenario::NetworkSpec spec;
  network::LatencyModel latency(spec.latency);
  engine::EventQueue queue;
  network::Network network(spec, latency, queue, kStart, 1);
  const std::vector<uint8_t> bytes = {1};
  network.Send(kStart, 0, *transport::Endpoint::Parse("8.8.8.8:53"), bytes);
  CHECK(network.counters().unroutable == 1);
  CHECK(queue.empty());
}

TEST_CASE("each lane sends from its own stream and pool, and counts on its own side", "[unit]") {
  scenario::NetworkSpec spec;
  spec.latency.rtt_ms = 40;
  spec.loss = 0.5;
  network::LatencyModel latency(spec.latency);
  // Which of 64 datagrams from `from` are lost: the fates of one lane's stream.
  auto fates = [&](uint32_t from, bool interleave) {
    engine::EventQueue queue;
    network::Network network(spec, latency, queue, kStart, 9);
    const std::vector<uint8_t> bytes = {7};
    std::vector<bool> lost;
    for (int i = 0; i < 64; ++i) {
      // Sends from the other lane in between must not change this lane's fates.
      if (interleave) network.Send(kStart, from ^ 1, network::EndpointOfSlot(5), bytes);
      const uint64_t before = network.counters().lost;
      network.Send(kStart, from, network::EndpointOfSlot(5), bytes);
      lost.push_back(network.counters().lost > before);
    }
    return lost;
  };
  CHECK(fates(0, false) == fates(0, true));
  CHECK(fates(1, false) == fates(1, true));
  CHECK(fates(0, false) != fates(1, false));

  engine::EventQueue queue;
  network::Network network(spec, latency, queue, kStart, 9);
  const std::vector<uint8_t> bytes = {1, 2};
  {
    const engine::EventQueue::LaneScope scope(queue, 1);
    for (int i = 0; i < 10; ++i) network.Send(kStart, 1, network::EndpointOfSlot(4), bytes);
    CHECK(network.running_counters().sent == 10);
  }
  CHECK(network.running_counters().sent == 0);  // the control side's
  network.Send(kStart, 2, network::EndpointOfSlot(4), bytes);
  CHECK(network.counters().sent == 11);
  CHECK(network.counters().lost + queue.size() == 11);
}

TEST_CASE("a datagram another lane delivered goes back to its pool after the batch", "[unit]") {
  scenario::NetworkSpec spec;
  spec.latency.rtt_ms = 40;
  network::LatencyModel latency(spec.latency);
  engine::EventQueue queue;
  network::Network network(spec, latency, queue, kStart, 10);
  const std::vector<uint8_t> bytes = {1, 2, 3};
  network.Send(kStart, 0, network::EndpointOfSlot(1), bytes);  // lane 0's pool, for lane 1
  const uint64_t first = queue.Pop().arg;
  {
    // Lane 1 delivers it: lane 0 may be sending meanwhile, so the packet stays put.
    const engine::EventQueue::LaneScope scope(queue, 1);
    CHECK(network.packet(first).bytes == bytes);
    network.Release(first);
  }
  network.Send(kStart, 0, network::EndpointOfSlot(1), bytes);
  const uint64_t second = queue.Pop().arg;
  CHECK(second != first);
  CHECK(network.packet(first).bytes == bytes);  // not reused yet
  network.FlushReleases();
  network.Release(second);  // between batches: at once
  network.Send(kStart, 0, network::EndpointOfSlot(1), bytes);
  CHECK(queue.Pop().arg == second);  // the last freed is reused first
  network.Send(kStart, 0, network::EndpointOfSlot(1), bytes);
  CHECK(queue.Pop().arg == first);
  // A lane releasing a packet of its own pool frees it at once.
  network.Send(kStart, 1, network::EndpointOfSlot(0), bytes);
  const uint64_t own = queue.Pop().arg;
  {
    const engine::EventQueue::LaneScope scope(queue, 1);
    network.Release(own);
    network.Send(kStart, 1, network::EndpointOfSlot(0), bytes);
  }
  queue.MergeOutboxes();
  CHECK(queue.Pop().arg == own);
}

}  // namespace
}  // namespace skillnode::sim

namespace skillnode::sim {
namespace {

TEST_CASE("a datagram to an alias reaches its owner, and one sent as an alias comes from it",
          "[unit]") {
  scenario::LatencySpec spec;
  spec.kind = scenario::LatencyKind::kConstant;
  spec.rtt_ms = 20;
  network::LatencyModel latency(spec);
  transport::Rng rng(1);
  latency.Place(10, rng);
  engine::EventQueue queue;
  network::Network network(scenario::NetworkSpec{}, latency, queue, kStart, 3);
  // Addresses 10..109 belong to hosts 7, 8 and 9 in turn.
  network.SetAliases(network::Network::Aliases{10, 100, 7, 3});
  CHECK(network.HostOf(3) == 3);
  CHECK(network.HostOf(10) == 7);
  CHECK(network.HostOf(14) == 8);
  CHECK(network.HostOf(109) == 7);
  CHECK(network.HostOf(110) == 110);
  const std::vector<uint8_t> bytes = {9};
  network.Send(kStart, 0, network::EndpointOfSlot(14), bytes);
  network.SendAs(kStart, 8, 14, network::EndpointOfSlot(0), bytes);
  std::vector<network::Network::Packet> delivered;
  std::vector<uint32_t> to;
  while (!queue.empty()) {
    const engine::Event e = queue.Pop();
    to.push_back(e.slot);
    delivered.push_back(network.packet(e.arg));
    network.Release(e.arg);
  }
  REQUIRE(delivered.size() == 2);
  const size_t request = to[0] == 8 ? 0 : 1;
  const size_t answer = 1 - request;
  CHECK(to[request] == 8);  // the owner receives it, addressed to the alias
  CHECK(delivered[request].from == 0);
  CHECK(delivered[request].from_address == 0);
  CHECK(delivered[request].to_address == 14);
  CHECK(to[answer] == 0);  // and answers from the alias's address
  CHECK(delivered[answer].from == 8);
  CHECK(delivered[answer].from_address == 14);
  CHECK(delivered[answer].to_address == 0);
}

}  // namespace
}  // namespace skillnode::sim
