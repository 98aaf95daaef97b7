// ReachJson (sim/report/reach_report.h): the census and the client counters as summary.json's
// "reach", with the shares of contacts behind NATs.
#include "sim/report/reach_report.h"

#include <catch2/catch.hpp>

namespace skillnode::sim::report {
namespace {

TEST_CASE("reach says the census, the client counters and the shares of NATed contacts", "[unit]") {
  ReachCensus census;
  census.nodes_public = 40;
  census.nodes_behind_nat = 60;
  census.clients_behind_nat = 58;
  census.undecided_behind_nat = 2;
  census.contacts = 1000;
  census.contacts_behind_nat = 50;
  census.public_table_contacts = 400;
  census.public_table_contacts_behind_nat = 4;
  NodeTotals totals;
  totals.clients_removed = 7;
  totals.client_mode_changes = 61;
  const nlohmann::json reach = ReachJson(census, totals);
  CHECK(reach["nodes_behind_nat"] == 60);
  CHECK(reach["clients_behind_nat"] == 58);
  CHECK(reach["undecided_behind_nat"] == 2);
  CHECK(reach["contacts_behind_nat_share"].get<double>() == Approx(0.05));
  CHECK(reach["public_table_contacts_behind_nat_share"].get<double>() == Approx(0.01));
  CHECK(reach["clients_removed"] == 7);
  CHECK(reach["client_mode_changes"] == 61);
  // Nothing to divide by: 0, not NaN.
  const nlohmann::json empty = ReachJson(ReachCensus{}, NodeTotals{});
  CHECK(empty["contacts_behind_nat_share"].get<double>() == 0.0);
  CHECK(empty["public_table_contacts_behind_nat_share"].get<double>() == 0.0);
}

}  // namespace
}  // namespace skillnode::sim::report
