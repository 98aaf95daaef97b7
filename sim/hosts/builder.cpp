#include "sim/hosts/builder.h"

#include <algorithm>

#include "sim/network/addressing.h"

namespace skillnode::sim::hosts {
namespace {

// Progress is reported after this many nodes.
constexpr size_t kProgressEvery = 1024;

kademlia::Contact ContactOf(const Population& population, const workloads::OracleEntry& e,
                            transport::TimePoint now) {
  kademlia::Contact c;
  c.id = e.id;
  c.endpoint = network::EndpointOfSlot(e.slot);
  c.public_key = population.slot(e.slot).host->public_key();
  c.last_seen = now;
  return c;
}

// Up to `count` distinct indices in [0, n), uniformly (Floyd's algorithm), ascending.
std::vector<size_t> Sample(size_t n, size_t count, transport::Rng& rng) {
  std::vector<size_t> chosen;
  if (n <= count) {
    for (size_t i = 0; i < n; ++i) chosen.push_back(i);
    return chosen;
  }
  for (size_t j = n - count; j < n; ++j) {
    const auto t = static_cast<size_t>(rng.Below(j + 1));
    const bool taken = std::find(chosen.begin(), chosen.end(), t) != chosen.end();
    chosen.push_back(taken ? j : t);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

void FillOne(Population& population, kademlia::Node& node, transport::Rng& rng,
             transport::TimePoint now) {
  const workloads::Oracle& live = population.live();
  const size_t k = node.config().routing.bucket_size;
  const kademlia::NodeId& self = node.id();
  kademlia::routing::RoutingTable& table = node.mutable_routing_table();
  for (const workloads::OracleEntry& e : live.Closest(self, k + 1)) {
    if (e.id != self) (void)table.Heard(ContactOf(population, e, now), now);
  }
  for (int depth = 0; depth < kademlia::Key::kBits; ++depth) {
    // Ids sharing exactly `depth` leading bits with ours: our first depth bits, then the
    // opposite of our bit at `depth`.
    const auto range = live.PrefixRange(self.WithBitFlipped(depth), depth + 1);
    for (size_t index : Sample(range.size(), k, rng)) {
      (void)table.Heard(ContactOf(population, range[index], now), now);
    }
    // Once only we remain on our side of this bit, no deeper range holds anyone.
    if (live.PrefixRange(self, depth + 1).size() <= 1) break;
  }
}

}  // namespace

void FillRoutingTablesFromOracle(Population& population, transport::Rng& rng,
                                 transport::TimePoint now,
                                 const std::function<void(size_t, size_t)>& progress) {
  const size_t total = population.size();
  for (uint32_t i = 0; i < total; ++i) {
    Host* host = population.slot(i).host.get();
    if (host != nullptr && host->node() != nullptr) FillOne(population, *host->node(), rng, now);
    if (progress && (i + 1) % kProgressEvery == 0) progress(i + 1, total);
  }
}

}  // namespace skillnode::sim::hosts
