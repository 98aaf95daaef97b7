// Oracle-built routing tables: a converged static network without running its joins.
//
// Joining 100,000 nodes for real takes hours of CPU, mostly Ed25519 signature checks, so
// static scenarios may instead fill every node's routing table from the oracle with what a
// converged network's table would hold, as many published DHT simulations do: the node's
// true k closest nodes, then for every bucket range (ids sharing exactly b leading bits with
// the node, b = 0, 1, ...) k nodes drawn uniformly from that range, or all of them when fewer.
// Contacts go in through RoutingTable::Heard with their real public keys (the simulator knows
// every identity), so the table's own rules (splitting, the k-closest relaxation, diversity)
// decide what it keeps. Churn scenarios never use this: they run real joins.
#ifndef SKILLNODE_SIM_HOSTS_BUILDER_H_
#define SKILLNODE_SIM_HOSTS_BUILDER_H_

#include <functional>

#include "sim/hosts/population.h"
#include "transport/rng.h"

namespace skillnode::sim::hosts {

// Fills the table of every online host that runs a node, from population.live().
// `progress(done, total)` is called now and then for progress lines.
void FillRoutingTablesFromOracle(Population& population, transport::Rng& rng,
                                 transport::TimePoint now,
                                 const std::function<void(size_t, size_t)>& progress);

}  // namespace skillnode::sim::hosts

#endif  // SKILLNODE_SIM_HOSTS_BUILDER_H_
