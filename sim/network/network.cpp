#include "sim/network/network.h"

#include <algorithm>
#include <cmath>

#include "sim/network/addressing.h"

namespace skillnode::sim::network {
namespace {

transport::Duration SecondsOf(double s) {
  return transport::Duration(static_cast<int64_t>(std::llround(s * 1e6)));
}

}  // namespace

NetworkCounters& NetworkCounters::operator+=(const NetworkCounters& o) {
  sent += o.sent;
  delivered += o.delivered;
  lost += o.lost;
  partitioned += o.partitioned;
  duplicated += o.duplicated;
  reordered += o.reordered;
  unroutable += o.unroutable;
  to_offline += o.to_offline;
  nat_dropped += o.nat_dropped;
  bytes_delivered += o.bytes_delivered;
  pool_full += o.pool_full;
  window_sent += o.window_sent;
  window_bytes += o.window_bytes;
  return *this;
}

Network::PacketPool::PacketPool() { chunks_.reserve(kPacketsInFlightMax / kChunk); }

Network::Packet* Network::PacketPool::Acquire(uint32_t* index) {
  if (!free_.empty()) {
    *index = free_.back();
    free_.pop_back();
    return &at(*index);
  }
  if (used_ == kPacketsInFlightMax) return nullptr;
  if (used_ % kChunk == 0) chunks_.push_back(std::make_unique<Packet[]>(kChunk));
  *index = used_++;
  return &at(*index);
}

Network::Network(const scenario::NetworkSpec& spec, const LatencyModel& latency,
                 engine::EventQueue& queue, transport::TimePoint epoch, uint64_t seed)
    : spec_(spec),
      latency_(latency),
      queue_(queue),
      epoch_(epoch),
      side_salt_(seed),
      nat_(spec.nat, seed ^ 0x6e61742d726f7574ULL) {
  // Lane 0 draws from the network seed itself, each further lane from a stream split off it.
  transport::Rng streams(seed);
  lanes_.reserve(engine::EventQueue::kLanes);
  lanes_.emplace_back(seed);
  while (lanes_.size() < engine::EventQueue::kLanes) lanes_.emplace_back(streams.Next64());
  for (const scenario::PartitionSpec& p : spec_.partitions) {
    std::vector<bool> sides(latency_.spec().regions.size(), false);
    for (const std::string& name : p.regions) {
      const int index = RegionIndex(latency_.spec(), name);
      if (index >= 0) sides[static_cast<size_t>(index)] = true;
    }
    side_regions_.push_back(std::move(sides));
  }
}

bool Network::OnSideA(size_t partition, uint32_t slot) const {
  const scenario::PartitionSpec& p = spec_.partitions[partition];
  if (!p.regions.empty()) return side_regions_[partition][latency_.region(slot)];
  // A per-(partition, slot) coin that needs no stored state.
  uint64_t state = side_salt_ ^ (uint64_t{partition} << 40) ^ slot;
  const uint64_t draw = transport::SplitMix64(&state);
  return static_cast<double>(draw >> 11) * 0x1.0p-53 < p.fraction;
}

bool Network::Separated(transport::TimePoint now, uint32_t a, uint32_t b) const {
  for (size_t i = 0; i < spec_.partitions.size(); ++i) {
    const scenario::PartitionSpec& p = spec_.partitions[i];
    if (now < epoch_ + SecondsOf(p.start_s) || now >= epoch_ + SecondsOf(p.heal_s)) continue;
    if (OnSideA(i, a) != OnSideA(i, b)) return true;
  }
  return false;
}

uint32_t Network::HostOf(uint32_t slot) const {
  if (slot < aliases_.first || slot - aliases_.first >= aliases_.count) return slot;
  return aliases_.owner_first + (slot - aliases_.first) % aliases_.owners;
}

void Network::Schedule(transport::TimePoint at, uint32_t from, uint32_t to,
                       std::span<const uint8_t> bytes, uint32_t from_address, uint32_t to_address) {
  const size_t lane = engine::EventQueue::LaneOf(from);
  uint32_t index = 0;
  Packet* packet = lanes_[lane].pool.Acquire(&index);
  if (packet == nullptr) {
    ++running_counters().pool_full;
    return;
  }
  packet->from = from;
  packet->from_address = from_address;
  packet->to_address = to_address;
  packet->bytes.assign(bytes.begin(), bytes.end());
  if (observer_) observer_(at, from, to, bytes);
  queue_.Push(at, engine::EventKind::kDeliver, to, (uint64_t{lane} << 32) | index);
}

const Network::Packet& Network::packet(uint64_t id) const {
  return lanes_[id >> 32].pool.at(static_cast<uint32_t>(id));
}

void Network::Release(uint64_t id) {
  const size_t owner = id >> 32;
  const auto lane = queue_.running_lane();
  // Another lane's pool is that lane's to change while the batch runs. A packet of this
  // lane's own goes back at once, still in cache for the next send.
  if (lane && *lane != owner) return lanes_[*lane].released.push_back(id);
  lanes_[owner].pool.Free(static_cast<uint32_t>(id));
}

void Network::FlushReleases() {
  for (Lane& lane : lanes_) {
    for (const uint64_t id : lane.released) lanes_[id >> 32].pool.Free(static_cast<uint32_t>(id));
    lane.released.clear();
  }
}

void Network::SetWindow(transport::TimePoint begin, transport::TimePoint end) {
  window_begin_ = begin;
  window_end_ = end;
}

transport::Duration Network::min_delay() const {
  return std::max(latency_.MinOneWay(), transport::Duration(1));
}

NetworkCounters& Network::running_counters() {
  return counters_[queue_.running_lane().value_or(engine::EventQueue::kLanes)];
}

NetworkCounters Network::counters() const {
  NetworkCounters sum;
  for (const NetworkCounters& side : counters_) sum += side;
  return sum;
}

void Network::SendAs(transport::TimePoint now, uint32_t from, uint32_t from_address,
                     const transport::Endpoint& to, std::span<const uint8_t> bytes) {
  NetworkCounters& counted = running_counters();
  transport::Rng& rng = lanes_[engine::EventQueue::LaneOf(from)].rng;
  ++counted.sent;
  if (now >= window_begin_ && now < window_end_) {
    ++counted.window_sent;
    counted.window_bytes += bytes.size();
  }
  const auto to_address = SlotOfEndpoint(to);
  if (!to_address) {
    ++counted.unroutable;
    return;
  }
  const uint32_t to_slot = HostOf(*to_address);
  // The sender's router opens its pinhole as the datagram leaves, whatever becomes of it.
  if (nat_.BehindNat(from)) nat_.OnSent(from, *to_address, now);
  if (Separated(now, from, to_slot)) {
    ++counted.partitioned;
    if (observer_) observer_(transport::kTimeNever, from, to_slot, bytes);
    return;
  }
  if (spec_.loss > 0 && rng.Chance(spec_.loss)) {
    ++counted.lost;
    if (observer_) observer_(transport::kTimeNever, from, to_slot, bytes);
    return;
  }
  transport::Duration delay = latency_.OneWay(from, to_slot, rng);
  if (spec_.reorder > 0 && rng.Chance(spec_.reorder)) {
    ++counted.reordered;
    delay += SecondsOf(rng.NextDouble() * spec_.reorder_delay_ms / 1000);
  }
  Schedule(now + delay, from, to_slot, bytes, from_address, *to_address);
  if (spec_.duplicate > 0 && rng.Chance(spec_.duplicate)) {
    ++counted.duplicated;
    Schedule(now + latency_.OneWay(from, to_slot, rng), from, to_slot, bytes, from_address,
             *to_address);
  }
}

bool Network::Admit(uint32_t to, uint64_t id, transport::TimePoint now) {
  const Packet& p = packet(id);
  if (nat_.Admits(to, p.from_address, now)) return true;
  ++running_counters().nat_dropped;
  Release(id);
  return false;
}

}  // namespace skillnode::sim::network
