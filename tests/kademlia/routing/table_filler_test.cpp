// TableFiller (kademlia/routing/table_filler.h): a join waits for every seed's ping, looks up
// the node's own id, then one random key in every farther bucket, and calls `done` exactly once
// (at once when no seed answered, no ping went out or the lookup was refused); a refused lookup
// stops the farther ones; buckets due for refresh get a lookup each, none before they are due.
#include "kademlia/routing/table_filler.h"

#include <catch2/catch.hpp>
#include <optional>
#include <vector>

#include "support/routing_table_util.h"

namespace skillnode::kademlia::routing {
namespace {

using routing_test::FillFar;
using routing_test::FillNear;
using routing_test::kStart;

struct FillerFixture {
  RoutingTable table{routing_test::Self(), routing_test::SmallConfig()};
  transport::Rng rng{7};
  std::vector<transport::Endpoint> pinged;
  std::vector<rpc::RpcCallback> ping_done;
  bool pings_sent = true;
  std::vector<Key> looked_up;
  std::vector<LookupCallback> lookup_done;
  // Lookups accepted before the node refuses the rest (unset: every one).
  std::optional<size_t> lookups_accepted;
  std::vector<size_t> joined;  // what `done` was called with, once per call

  TableFiller filler{
      table, rng,
      TableFiller::Actions{
          .ping =
              [this](transport::TimePoint, const transport::Endpoint& to, rpc::RpcCallback done) {
                if (!pings_sent) return false;
                pinged.push_back(to);
                ping_done.push_back(std::move(done));
                return true;
              },
          .find_node =
              [this](transport::TimePoint, const Key& target, LookupCallback done) {
                if (lookups_accepted && looked_up.size() == *lookups_accepted) return false;
                looked_up.push_back(target);
                lookup_done.push_back(std::move(done));
                return true;
              }}};

  void Join(size_t seeds) {
    std::vector<transport::Endpoint> endpoints;
    for (size_t i = 0; i < seeds; ++i) {
      endpoints.emplace_back(*transport::Address::Parse("10.0.0.1"),
                             static_cast<uint16_t>(4000 + i));
    }
    filler.Join(kStart, endpoints, [this](size_t contacts) { joined.push_back(contacts); });
  }
  void FinishPing(size_t index, rpc::RpcStatus status) {
    rpc::RpcResult result;
    result.status = status;
    result.now = kStart + transport::Seconds(1);
    ping_done.at(index)(result);
  }
  void FinishLookup(size_t index) {
    LookupResult result;
    result.target = looked_up.at(index);
    result.finished = kStart + transport::Seconds(2);
    REQUIRE(lookup_done.at(index));
    lookup_done.at(index)(result);
  }
};

TEST_CASE("a join looks up its own id once every seed's ping finished, then each farther bucket",
          "[unit]") {
  FillerFixture f;
  f.Join(2);
  REQUIRE(f.pinged.size() == 2);
  FillFar(f.table, kStart);  // what the seeds' proven pongs would have added
  f.FinishPing(0, rpc::RpcStatus::kReplied);
  CHECK(f.looked_up.empty());  // one seed still pending
  f.FinishPing(1, rpc::RpcStatus::kTimedOut);
  REQUIRE(f.looked_up.size() == 1);
  CHECK(f.looked_up[0] == f.table.self());
  CHECK(f.joined.empty());  // not before the own-id lookup finished

  const size_t buckets = f.table.bucket_count();
  REQUIRE(buckets > 1);
  f.FinishLookup(0);
  // One random key per bucket but the last (ours): all different, none our own id.
  REQUIRE(f.looked_up.size() == 1 + (buckets - 1));
  for (size_t i = 1; i < f.looked_up.size(); ++i) {
    CHECK(f.looked_up[i] != f.table.self());
    CHECK_FALSE(f.lookup_done[i]);  // nobody waits for them
    for (size_t j = i + 1; j < f.looked_up.size(); ++j) CHECK(f.looked_up[i] != f.looked_up[j]);
  }
  CHECK(f.joined == std::vector<size_t>{f.table.size()});
}

TEST_CASE("a join that no seed answered ends at once with no contacts and no lookup", "[unit]") {
  FillerFixture f;
  f.Join(3);
  for (size_t i = 0; i < 3; ++i) f.FinishPing(i, rpc::RpcStatus::kTimedOut);
  CHECK(f.looked_up.empty());
  CHECK(f.joined == std::vector<size_t>{0});
}

TEST_CASE("a join with no ping sent goes on with the contacts the table already holds", "[unit]") {
  FillerFixture f;
  FillNear(f.table, kStart);  // e.g. contacts saved across a restart
  f.pings_sent = false;
  f.Join(2);
  CHECK(f.pinged.empty());
  REQUIRE(f.looked_up.size() == 1);
  CHECK(f.looked_up[0] == f.table.self());
  f.FinishLookup(0);
  CHECK(f.joined == std::vector<size_t>{4});

  FillerFixture none;
  none.Join(0);  // no seeds, empty table
  CHECK(none.joined == std::vector<size_t>{0});
}

TEST_CASE("a refused lookup ends the join at once, and a refused farther lookup stops the rest",
          "[unit]") {
  FillerFixture refused;
  FillFar(refused.table, kStart);
  refused.lookups_accepted = 0;  // the node is shut down, or at lookups_max
  refused.Join(0);
  CHECK(refused.looked_up.empty());
  CHECK(refused.joined == std::vector<size_t>{8});

  FillerFixture stopped;
  FillFar(stopped.table, kStart);
  REQUIRE(stopped.table.bucket_count() > 1);
  stopped.lookups_accepted = 1;  // the own id; the first farther bucket is refused
  stopped.Join(0);
  stopped.FinishLookup(0);
  CHECK(stopped.looked_up.size() == 1);
  CHECK(stopped.joined == std::vector<size_t>{8});
}

TEST_CASE("buckets due for refresh get one lookup each, none before they are due", "[unit]") {
  FillerFixture f;
  CHECK(f.filler.NextDeadline() == transport::kTimeNever);  // an empty table waits for a join
  FillFar(f.table, kStart);
  const transport::TimePoint due = f.filler.NextDeadline();
  REQUIRE(due == f.table.NextRefreshDue());
  REQUIRE(due != transport::kTimeNever);

  f.filler.OnTimer(due - transport::Seconds(1));
  CHECK(f.looked_up.empty());
  f.filler.OnTimer(due);
  CHECK_FALSE(f.looked_up.empty());  // the buckets due, one lookup each
  CHECK(f.looked_up.size() <= f.table.bucket_count());
  CHECK(f.filler.NextDeadline() > due);  // each marked refreshed

  f.looked_up.clear();
  f.filler.OnTimer(due + transport::Seconds(1));
  CHECK(f.looked_up.empty());
}

}  // namespace
}  // namespace skillnode::kademlia::routing
