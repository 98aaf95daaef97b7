// Round-trip times per contact and proximity neighbour selection: the routing table learns
// each contact's RTT from the answers to our requests, far buckets prefer near contacts, and
// a lookup waits for a measured contact only as long as its own RTT warrants.
#include <catch2/catch.hpp>
#include <vector>

#include "kademlia/lookup/lookup.h"
#include "kademlia/routing/routing_table.h"
#include "support/routing_table_util.h"

namespace skillnode::kademlia::routing {
namespace {

using namespace routing_test;  // NOLINT: test helpers

TEST_CASE("a contact's RTT is smoothed as RFC 6298 does, and sets how long to wait for it",
          "[unit]") {
  Contact c;
  CHECK_FALSE(c.rtt_known());
  CHECK(c.ExpectedReplyWithin() == transport::Duration{});
  c.AddRttSample(transport::Duration{});  // no measurement: nothing changes
  CHECK_FALSE(c.rtt_known());
  c.AddRttSample(transport::Millis(100));
  CHECK(c.rtt == transport::Millis(100));
  CHECK(c.rtt_deviation == transport::Millis(50));
  CHECK(c.ExpectedReplyWithin() == transport::Millis(300));
  c.AddRttSample(transport::Millis(180));
  // deviation = 3/4 * 50 + 1/4 * 80 = 57.5 ms; rtt = 7/8 * 100 + 1/8 * 180 = 110 ms
  CHECK(c.rtt == transport::Millis(110));
  CHECK(c.rtt_deviation == transport::Duration(57'500));
  // Steady answers shrink the deviation: the wait approaches the RTT itself.
  for (int i = 0; i < 50; ++i) c.AddRttSample(transport::Millis(110));
  CHECK(c.ExpectedReplyWithin() < transport::Millis(112));
  CHECK(c.ExpectedReplyWithin() >= transport::Millis(110));
}

TEST_CASE("the routing table keeps the RTT of answers, and forgets it when the address changes",
          "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  table.Heard(Far(0), kStart);  // its own request: no RTT
  CHECK_FALSE(table.Find(Far(0).id)->rtt_known());
  table.Heard(Far(0), kStart + transport::Seconds(1), transport::Millis(80));
  CHECK(table.Find(Far(0).id)->rtt == transport::Millis(80));
  table.Heard(Far(0), kStart + transport::Seconds(2));  // a request from it changes nothing
  CHECK(table.Find(Far(0).id)->rtt == transport::Millis(80));
  table.Heard(Far(0, "127.0.0.2"), kStart + transport::Seconds(3));
  CHECK_FALSE(table.Find(Far(0).id)->rtt_known());
}

// FillNear, then far contacts 0..3 answering in 100, 200, 300 and 400 ms: the far bucket is
// full, cannot split, and has k nearer contacts.
void FillFarMeasured(RoutingTable& table) {
  FillNear(table, kStart);
  for (int i = 0; i < 4; ++i) {
    REQUIRE(
        table.Heard(Far(i), kStart + transport::Seconds(i + 1), transport::Millis(100 * (i + 1)))
            .outcome == InsertOutcome::kAdded);
  }
}

TEST_CASE("a much nearer newcomer takes the place of a far bucket's slowest contact", "[unit]") {
  RoutingTable table(Self(), SmallConfig());  // proximity_ratio 0.5
  FillFarMeasured(table);
  // 250 ms is more than half of 400 ms: it waits in the cache.
  CHECK(table.Heard(Far(10), kStart + transport::Seconds(10), transport::Millis(250)).outcome ==
        InsertOutcome::kReplacementCached);
  // 150 ms is: it displaces Far(3), which is alive and goes to the cache.
  const InsertResult result =
      table.Heard(Far(11), kStart + transport::Seconds(11), transport::Millis(150));
  CHECK(result.outcome == InsertOutcome::kAdded);
  CHECK_FALSE(result.ping);
  CHECK(table.size() == 8);
  CHECK(table.stats().displaced == 1);
  const std::vector<NodeId> ids = Ids(table.Export());
  CHECK(std::vector<NodeId>(ids.begin(), ids.begin() + 4) ==
        std::vector<NodeId>{Far(0).id, Far(1).id, Far(2).id, Far(11).id});
  CHECK(std::vector<NodeId>(ids.begin() + 8, ids.end()) ==
        std::vector<NodeId>{Far(10).id, Far(3).id});
  // Far(2) at 300 ms is the slowest now: 140 ms displaces it, 160 ms would not have.
  CHECK(table.Heard(Far(12), kStart + transport::Seconds(12), transport::Millis(160)).outcome ==
        InsertOutcome::kReplacementCached);
  CHECK(table.Heard(Far(13), kStart + transport::Seconds(13), transport::Millis(140)).outcome ==
        InsertOutcome::kAdded);
  CHECK(table.Find(Far(2).id) != std::nullopt);  // in the cache
  CHECK(table.stats().displaced == 2);
}

TEST_CASE("contacts never measured, or failing, are not displaced for a nearer one", "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  FillFar(table, kStart);  // none of them answered a request of ours
  CHECK(table.Heard(Far(10), kStart + transport::Seconds(10), transport::Millis(1)).outcome ==
        InsertOutcome::kReplacementCached);
  // Far(1) is measured at 400 ms but then times out: it is not the one to displace either.
  table.Heard(Far(1), kStart + transport::Seconds(11), transport::Millis(400));
  table.Failed(Far(1).id);
  CHECK(table.Heard(Far(11), kStart + transport::Seconds(12), transport::Millis(1)).outcome ==
        InsertOutcome::kReplacementCached);
  CHECK(table.stats().displaced == 0);
}

TEST_CASE("proximity_ratio 0 keeps plain Kademlia's oldest-first buckets", "[unit]") {
  RoutingConfig config = SmallConfig();
  config.proximity_ratio = 0;
  RoutingTable table(Self(), config);
  FillFarMeasured(table);
  CHECK(table.Heard(Far(10), kStart + transport::Seconds(10), transport::Millis(1)).outcome ==
        InsertOutcome::kReplacementCached);
  CHECK(table.stats().displaced == 0);
}

TEST_CASE("our k closest contacts are never displaced for nearer ones", "[unit]") {
  const Key self = Self();
  RoutingTable table(self, SmallConfig());
  // Four contacts at distance 10..., measured slow, then one at 01...: the table splits once
  // and the far bucket holds three of our four closest contacts.
  for (const char* seed : {"f0", "f1", "f2", "f3"}) {
    const Contact c = MakeContact(AtDistance(self, "10", seed));
    REQUIRE(table.Heard(c, kStart, transport::Millis(400)).outcome == InsertOutcome::kAdded);
  }
  REQUIRE(table.Heard(MakeContact(AtDistance(self, "01", "n")), kStart).outcome ==
          InsertOutcome::kAdded);
  REQUIRE(table.bucket_count() == 2);
  // A fast newcomer at distance 11... is farther than all of them: the bucket cannot split
  // for it, and it cannot displace any of them.
  const Contact fast = MakeContact(AtDistance(self, "11", "fast"));
  CHECK(table.Heard(fast, kStart + transport::Seconds(1), transport::Millis(1)).outcome ==
        InsertOutcome::kReplacementCached);
  CHECK(table.stats().displaced == 0);
}

TEST_CASE("a lookup waits for each contact as long as its own RTT warrants", "[unit]") {
  const Key target = Key::Sha256("target");
  std::vector<Contact> start{MakeContact(Key::Sha256("c0"), "10.0.0.1"),
                             MakeContact(Key::Sha256("c1"), "10.0.0.2")};
  start[0].AddRttSample(transport::Millis(40));  // measured; the other is not
  Lookup lookup(target, Self(), LookupParams{2, 2, 1, 50}, start, kStart);
  const Lookup::SlowAfter slow_after = [](const Contact& c) {
    return c.rtt_known() ? c.ExpectedReplyWithin() : transport::Millis(500);
  };
  REQUIRE(lookup.NextQueries(kStart, slow_after).size() == 2);
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(120));
  CHECK(lookup.ExpireSlow(kStart + transport::Millis(120)));
  CHECK(lookup.NextSlowDeadline() == kStart + transport::Millis(500));
  CHECK_FALSE(lookup.ExpireSlow(kStart + transport::Millis(499)));
}

}  // namespace
}  // namespace skillnode::kademlia::routing
