// ReachCensus: who is behind a NAT at the end of a run with network.nat, who is in client mode,
// and whom the live nodes' routing tables hold (sim/network/nat.h, docs/protocol.md "Client
// mode"): the share of contacts nobody can reach unasked, in every table and in the public
// nodes' tables (a NATed node's own table is read by nobody else). Reported under "reach" in
// summary.json. Plain data.
#ifndef SKILLNODE_SIM_REPORT_REACH_CENSUS_H_
#define SKILLNODE_SIM_REPORT_REACH_CENSUS_H_

#include <cstdint>

namespace skillnode::sim::report {

struct ReachCensus {
  uint64_t nodes_public = 0;        // live honest nodes reachable by anyone
  uint64_t nodes_behind_nat = 0;    // live honest nodes behind a NAT
  uint64_t clients_public = 0;      // ... of the first, in client mode (a wrong verdict)
  uint64_t clients_behind_nat = 0;  // ... of the second, in client mode (as they should be)
  // With reach_probes: the nodes whose verdict is still unknown (joined a moment ago, or their
  // probes found too few helpers yet), public and behind NATs.
  uint64_t undecided_public = 0;
  uint64_t undecided_behind_nat = 0;
  uint64_t contacts = 0;  // routing-table contacts (buckets) of the live nodes
  uint64_t contacts_behind_nat = 0;
  uint64_t public_table_contacts = 0;  // the same, in the public nodes' tables alone
  uint64_t public_table_contacts_behind_nat = 0;
};

}  // namespace skillnode::sim::report

#endif  // SKILLNODE_SIM_REPORT_REACH_CENSUS_H_
