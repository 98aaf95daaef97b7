// Network: the simulated IP network between hosts.
//
// A host's Transport::Send lands here. The network decides the datagram's fate — lost,
// dropped by a partition, delayed by the latency model, held back (reordering), duplicated —
// and schedules its delivery as an event. Datagrams wait in a pool of reusable buffers until
// delivered, so steady traffic allocates nothing.
//
// Hosts behind NATs (network.nat) have their datagrams filtered by their routers (nat.h): a
// sender's pinhole opens as it sends, a receiver's router is asked as a datagram arrives.
//
// The event queue's lanes (event_queue.h) send side by side, so everything a send touches is
// kept per lane of the sender: its own Rng stream for the fates (so a scenario and seed give
// the same fates on any number of threads) and its own packet pool. A pool's storage never
// moves: the receiving lane reads a datagram while the sending lane adds others. A datagram
// another lane delivered goes back to its pool after the batch (FlushReleases). Counters are
// kept per side (each lane, and the control side) and summed by counters(). Send, packet and
// Release may be called from a running lane for that lane's hosts; the rest only between
// batches.
#ifndef SKILLNODE_SIM_NETWORK_NETWORK_H_
#define SKILLNODE_SIM_NETWORK_NETWORK_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "sim/engine/event_queue.h"
#include "sim/network/latency.h"
#include "sim/network/nat.h"
#include "sim/scenario/scenario.h"
#include "transport/endpoint.h"
#include "transport/rng.h"

namespace skillnode::sim::network {

struct NetworkCounters {
  uint64_t sent = 0;         // datagrams hosts handed to the network
  uint64_t delivered = 0;    // handed to a live host
  uint64_t lost = 0;         // random loss
  uint64_t partitioned = 0;  // dropped because a partition separated the two hosts
  uint64_t duplicated = 0;   // extra copies made
  uint64_t reordered = 0;    // held back by the reordering model
  uint64_t unroutable = 0;   // sent to an address no simulated host has
  uint64_t to_offline = 0;   // arrived at a host that was offline
  uint64_t nat_dropped = 0;  // stopped by the receiver's NAT: no pinhole for the sender (nat.h)
  uint64_t bytes_delivered = 0;
  uint64_t pool_full = 0;  // dropped: the sender's lane had kPacketsInFlightMax in flight
  // Handed to the network inside the measured window (SetWindow), whatever their fate: the
  // traffic a node's uplink carries, for bytes per node per second.
  uint64_t window_sent = 0;
  uint64_t window_bytes = 0;  // their UDP payload

  NetworkCounters& operator+=(const NetworkCounters& o);
};

class Network {
 public:
  struct Packet {
    uint32_t from = 0;          // the sending host's slot
    uint32_t from_address = 0;  // the slot whose address the datagram bears (an alias's)
    uint32_t to_address = 0;    // the slot it was sent to (an alias, or the receiver's own)
    std::vector<uint8_t> bytes;
  };
  // Addresses [first, first + count) belong to no host of their own: they are aliases of the
  // hosts [owner_first, owner_first + owners), alias i of owner_first + i % owners (an
  // adversary answering under many identities, each at an address of its own).
  struct Aliases {
    uint32_t first = 0;
    uint32_t count = 0;
    uint32_t owner_first = 0;
    uint32_t owners = 0;
  };
  // Told of every datagram sent to a simulated host, when it is sent: its arrival time (one
  // call per copy), or kTimeNever when it is lost or partitioned away; its sender and its
  // receiver. Runs in the sender's lane.
  using ArrivalObserver = std::function<void(transport::TimePoint arrival, uint32_t from,
                                             uint32_t to, std::span<const uint8_t>)>;

  // `epoch` is the simulated time partitions' start_s and heal_s count from.
  // Datagrams one lane may have in flight; a send beyond it is dropped and counted.
  static constexpr size_t kPacketsInFlightMax = size_t{1} << 24;

  Network(const scenario::NetworkSpec& spec, const LatencyModel& latency, engine::EventQueue& queue,
          transport::TimePoint epoch, uint64_t seed);

  // Sends in [begin, end) are counted in window_sent and window_bytes.
  void SetWindow(transport::TimePoint begin, transport::TimePoint end);
  void SetArrivalObserver(ArrivalObserver observer) { observer_ = std::move(observer); }

  void SetAliases(const Aliases& aliases) { aliases_ = aliases; }
  // The host that answers at address slot `slot`: its owner for an alias, else itself.
  uint32_t HostOf(uint32_t slot) const;

  // One datagram from host `from` to `to`, sent at `now`.
  void Send(transport::TimePoint now, uint32_t from, const transport::Endpoint& to,
            std::span<const uint8_t> bytes) {
    SendAs(now, from, from, to, bytes);
  }
  // The same, from one of the host's aliases: it arrives from `from_address`'s endpoint.
  void SendAs(transport::TimePoint now, uint32_t from, uint32_t from_address,
              const transport::Endpoint& to, std::span<const uint8_t> bytes);

  // Hosts [0, hosts) (the honest ones) may sit behind NATs, as the scenario's network.nat
  // says (nat.h). Once, before any datagram.
  void PlaceNats(uint32_t hosts) { nat_.Place(hosts); }
  const NatRouters& nats() const { return nat_; }
  // Whether the scheduled packet `id` gets through the NAT of its receiver `to` at `now`;
  // when not, it is counted (nat_dropped) and released. In the receiver's lane.
  bool Admit(uint32_t to, uint64_t id, transport::TimePoint now);

  // A scheduled packet (an EventKind::kDeliver's arg), valid until Release.
  const Packet& packet(uint64_t id) const;
  // Done with a delivered packet: back to its pool now, or after the batch when a lane runs.
  void Release(uint64_t id);
  // Between batches: the packets lanes released go back to their pools.
  void FlushReleases();
  // The shortest delay Send can give a datagram: how far past the earliest host event a
  // batch may run (at least one tick).
  transport::Duration min_delay() const;

  const LatencyModel& latency() const { return latency_; }

  // True when a partition active at `now` puts the two hosts on different sides.
  bool Separated(transport::TimePoint now, uint32_t a, uint32_t b) const;

  // The running side's counters (a running lane's, else the control side's), to count in.
  NetworkCounters& running_counters();
  // Every side's, summed.
  NetworkCounters counters() const;

 private:
  // One lane's datagrams in flight, in chunks that never move.
  class PacketPool {
   public:
    PacketPool();
    // Null when kPacketsInFlightMax are in flight.
    Packet* Acquire(uint32_t* index);
    Packet& at(uint32_t index) const { return chunks_[index / kChunk][index % kChunk]; }
    void Free(uint32_t index) { free_.push_back(index); }

   private:
    static constexpr size_t kChunk = 4096;
    std::vector<std::unique_ptr<Packet[]>> chunks_;  // capacity reserved: never reallocated
    std::vector<uint32_t> free_;
    uint32_t used_ = 0;
  };
  struct Lane {
    explicit Lane(uint64_t seed) : rng(seed) {}
    transport::Rng rng;
    PacketPool pool;
    std::vector<uint64_t> released;  // delivered in the running batch
  };

  bool OnSideA(size_t partition, uint32_t slot) const;
  void Schedule(transport::TimePoint at, uint32_t from, uint32_t to, std::span<const uint8_t> bytes,
                uint32_t from_address, uint32_t to_address);

  scenario::NetworkSpec spec_;
  const LatencyModel& latency_;
  engine::EventQueue& queue_;
  transport::TimePoint epoch_;
  uint64_t side_salt_;
  std::vector<std::vector<bool>> side_regions_;  // per partition: region -> side A
  std::vector<Lane> lanes_;
  std::array<NetworkCounters, engine::EventQueue::kLanes + 1> counters_{};
  transport::TimePoint window_begin_ = transport::kTimeNever;
  transport::TimePoint window_end_ = transport::kTimeNever;
  ArrivalObserver observer_;
  Aliases aliases_;
  NatRouters nat_;
};

}  // namespace skillnode::sim::network

#endif  // SKILLNODE_SIM_NETWORK_NETWORK_H_
