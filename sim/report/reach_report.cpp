// ReachJson (reach_report.h).
#include "sim/report/reach_report.h"

#include <cstdint>

namespace skillnode::sim::report {
namespace {

double Share(uint64_t part, uint64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

nlohmann::json ReachJson(const ReachCensus& r, const NodeTotals& totals) {
  return {
      {"nodes_public", r.nodes_public},
      {"nodes_behind_nat", r.nodes_behind_nat},
      {"clients_public", r.clients_public},
      {"clients_behind_nat", r.clients_behind_nat},
      {"undecided_public", r.undecided_public},
      {"undecided_behind_nat", r.undecided_behind_nat},
      {"contacts", r.contacts},
      {"contacts_behind_nat", r.contacts_behind_nat},
      {"contacts_behind_nat_share", Share(r.contacts_behind_nat, r.contacts)},
      {"public_table_contacts", r.public_table_contacts},
      {"public_table_contacts_behind_nat", r.public_table_contacts_behind_nat},
      {"public_table_contacts_behind_nat_share",
       Share(r.public_table_contacts_behind_nat, r.public_table_contacts)},
      {"client_messages", totals.client_messages},
      {"clients_removed", totals.clients_removed},
      {"client_mode_changes", totals.client_mode_changes},
  };
}

}  // namespace skillnode::sim::report
