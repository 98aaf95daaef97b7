#include "sim/network.h"

#include <cmath>

#include "sim/addressing.h"

namespace skillnode::sim {
namespace {

Duration SecondsOf(double s) { return Duration(static_cast<int64_t>(std::llround(s * 1e6))); }

}  // namespace

Network::Network(const NetworkSpec& spec, const LatencyModel& latency, EventQueue& queue,
                 TimePoint epoch, uint64_t seed)
    : spec_(spec), latency_(latency), queue_(queue), epoch_(epoch), side_salt_(seed), rng_(seed) {
  for (const PartitionSpec& p : spec_.partitions) {
    std::vector<bool> sides(latency_.spec().regions.size(), false);
    for (const std::string& name : p.regions) {
      const int index = RegionIndex(latency_.spec(), name);
      if (index >= 0) sides[static_cast<size_t>(index)] = true;
    }
    side_regions_.push_back(std::move(sides));
  }
}

bool Network::OnSideA(size_t partition, uint32_t slot) const {
  const PartitionSpec& p = spec_.partitions[partition];
  if (!p.regions.empty()) return side_regions_[partition][latency_.region(slot)];
  // A per-(partition, slot) coin that needs no stored state.
  uint64_t state = side_salt_ ^ (uint64_t{partition} << 40) ^ slot;
  const uint64_t draw = SplitMix64(&state);
  return static_cast<double>(draw >> 11) * 0x1.0p-53 < p.fraction;
}

bool Network::Separated(TimePoint now, uint32_t a, uint32_t b) const {
  for (size_t i = 0; i < spec_.partitions.size(); ++i) {
    const PartitionSpec& p = spec_.partitions[i];
    if (now < epoch_ + SecondsOf(p.start_s) || now >= epoch_ + SecondsOf(p.heal_s)) continue;
    if (OnSideA(i, a) != OnSideA(i, b)) return true;
  }
  return false;
}

void Network::Schedule(TimePoint at, uint32_t from, uint32_t to, std::span<const uint8_t> bytes) {
  uint32_t id = 0;
  if (free_.empty()) {
    id = static_cast<uint32_t>(packets_.size());
    packets_.emplace_back();
  } else {
    id = free_.back();
    free_.pop_back();
  }
  Packet& packet = packets_[id];
  packet.from = from;
  packet.bytes.assign(bytes.begin(), bytes.end());
  queue_.Push(at, EventKind::kDeliver, to, id);
}

void Network::Send(TimePoint now, uint32_t from, const Endpoint& to,
                   std::span<const uint8_t> bytes) {
  ++counters_.sent;
  const auto to_slot = SlotOfEndpoint(to);
  if (!to_slot) {
    ++counters_.unroutable;
    return;
  }
  if (Separated(now, from, *to_slot)) {
    ++counters_.partitioned;
    return;
  }
  if (spec_.loss > 0 && rng_.Chance(spec_.loss)) {
    ++counters_.lost;
    return;
  }
  Duration delay = latency_.OneWay(from, *to_slot, rng_);
  if (spec_.reorder > 0 && rng_.Chance(spec_.reorder)) {
    ++counters_.reordered;
    delay += SecondsOf(rng_.NextDouble() * spec_.reorder_delay_ms / 1000);
  }
  Schedule(now + delay, from, *to_slot, bytes);
  if (spec_.duplicate > 0 && rng_.Chance(spec_.duplicate)) {
    ++counters_.duplicated;
    Schedule(now + latency_.OneWay(from, *to_slot, rng_), from, *to_slot, bytes);
  }
}

}  // namespace skillnode::sim
