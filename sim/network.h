// Network: the simulated IP network between hosts.
//
// A host's Transport::Send lands here. The network decides the datagram's fate — lost,
// dropped by a partition, delayed by the latency model, held back (reordering), duplicated —
// and schedules its delivery as an event. Datagrams wait in a pool of reusable buffers until
// delivered, so steady traffic allocates nothing. All randomness comes from the network's own
// Rng stream, so a scenario and seed give the same fates. Not thread-safe.
#ifndef SKILLNODE_SIM_NETWORK_H_
#define SKILLNODE_SIM_NETWORK_H_

#include <cstdint>
#include <span>
#include <vector>

#include "sim/event_queue.h"
#include "sim/latency.h"
#include "sim/scenario.h"
#include "transport/endpoint.h"
#include "transport/rng.h"

namespace skillnode::sim {

struct NetworkCounters {
  uint64_t sent = 0;         // datagrams hosts handed to the network
  uint64_t delivered = 0;    // handed to a live host
  uint64_t lost = 0;         // random loss
  uint64_t partitioned = 0;  // dropped because a partition separated the two hosts
  uint64_t duplicated = 0;   // extra copies made
  uint64_t reordered = 0;    // held back by the reordering model
  uint64_t unroutable = 0;   // sent to an address no simulated host has
  uint64_t to_offline = 0;   // arrived at a host that was offline
  uint64_t bytes_delivered = 0;
};

class Network {
 public:
  struct Packet {
    uint32_t from = 0;
    std::vector<uint8_t> bytes;
  };

  // `epoch` is the simulated time partitions' start_s and heal_s count from.
  Network(const NetworkSpec& spec, const LatencyModel& latency, EventQueue& queue, TimePoint epoch,
          uint64_t seed);

  // One datagram from host `from` to `to`, sent at `now`.
  void Send(TimePoint now, uint32_t from, const Endpoint& to, std::span<const uint8_t> bytes);

  // A scheduled packet (an EventKind::kDeliver's arg), valid until Release.
  const Packet& packet(uint64_t id) const { return packets_[id]; }
  void Release(uint64_t id) { free_.push_back(static_cast<uint32_t>(id)); }

  // True when a partition active at `now` puts the two hosts on different sides.
  bool Separated(TimePoint now, uint32_t a, uint32_t b) const;

  NetworkCounters& counters() { return counters_; }
  const NetworkCounters& counters() const { return counters_; }

 private:
  bool OnSideA(size_t partition, uint32_t slot) const;
  void Schedule(TimePoint at, uint32_t from, uint32_t to, std::span<const uint8_t> bytes);

  NetworkSpec spec_;
  const LatencyModel& latency_;
  EventQueue& queue_;
  TimePoint epoch_;
  uint64_t side_salt_;
  Rng rng_;
  std::vector<std::vector<bool>> side_regions_;  // per partition: region -> side A
  std::vector<Packet> packets_;
  std::vector<uint32_t> free_;
  NetworkCounters counters_;
};

}  // namespace skillnode::sim

#endif  // SKILLNODE_SIM_NETWORK_H_
