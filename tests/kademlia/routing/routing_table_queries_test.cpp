#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kademlia/routing/routing_table.h"
#include "support/routing_table_util.h"

namespace skillnode::kademlia::routing {
namespace {

using namespace routing_test;  // NOLINT: test helpers

TEST_CASE("at most two contacts per public IPv4 /24 enter one bucket", "[unit]") {
  RoutingTable table(Self(), RoutingConfig{});
  auto heard = [&](int i, const std::string& ip) {
    return table.Heard(MakeContact(Key::Sha256("v4-" + std::to_string(i)), ip), kStart).outcome;
  };
  CHECK(heard(0, "203.0.113.1") == InsertOutcome::kAdded);
  CHECK(heard(1, "203.0.113.2") == InsertOutcome::kAdded);
  CHECK(heard(2, "203.0.113.200") == InsertOutcome::kRejectedDiversity);
  CHECK(heard(3, "203.0.114.1") == InsertOutcome::kAdded);
  CHECK(heard(4, "198.51.100.1") == InsertOutcome::kAdded);
  CHECK(table.size() == 4);
  CHECK(table.stats().rejected_diversity == 1);
  CHECK(table.Find(Key::Sha256("v4-2")) == std::nullopt);
}

TEST_CASE("at most two contacts per public IPv6 /64 enter one bucket", "[unit]") {
  RoutingTable table(Self(), RoutingConfig{});
  auto heard = [&](int i, const std::string& ip) {
    return table.Heard(MakeContact(Key::Sha256("v6-" + std::to_string(i)), ip), kStart).outcome;
  };
  CHECK(heard(0, "2001:db8::1") == InsertOutcome::kAdded);
  CHECK(heard(1, "2001:db8::ffff:2") == InsertOutcome::kAdded);
  CHECK(heard(2, "2001:db8::3") == InsertOutcome::kRejectedDiversity);
  CHECK(heard(3, "2001:db8:0:1::1") == InsertOutcome::kAdded);
  CHECK(heard(4, "203.0.113.1") == InsertOutcome::kAdded);
  CHECK(table.stats().rejected_diversity == 1);
}

TEST_CASE("loopback, link-local and private addresses are exempt from diversity by default",
          "[unit]") {
  RoutingTable table(Self(), RoutingConfig{});
  int i = 0;
  for (const std::string ip : {"127.0.0.1", "10.0.0.1", "192.168.1.1", "fe80::1", "fd00::1"}) {
    for (int port = 1; port <= 4; ++port) {
      const Contact c =
          MakeContact(Key::Sha256("local-" + std::to_string(i++)), ip, static_cast<uint16_t>(port));
      CHECK(table.Heard(c, kStart).outcome == InsertOutcome::kAdded);
    }
  }
  CHECK(table.size() == 20);
  CHECK(table.stats().rejected_diversity == 0);
}

TEST_CASE("local addresses count against the limit when diversity_exempt_local is off", "[unit]") {
  RoutingConfig config;
  config.diversity_exempt_local = false;
  RoutingTable table(Self(), config);
  int i = 0;
  for (const std::string ip : {"127.0.0.1", "10.0.0.1"}) {
    for (int port = 1; port <= 3; ++port) {
      const Contact c = MakeContact(Key::Sha256("strict-" + std::to_string(i++)), ip,
                                    static_cast<uint16_t>(port));
      CHECK(table.Heard(c, kStart).outcome ==
            (port <= 2 ? InsertOutcome::kAdded : InsertOutcome::kRejectedDiversity));
    }
  }
  CHECK(table.stats().rejected_diversity == 2);
}

TEST_CASE("the diversity limit is per bucket", "[unit]") {
  const Key self = Self();
  RoutingTable table(self, SmallConfig());
  auto at = [&](std::string_view bits, const std::string& seed, const std::string& ip) {
    return table.Heard(MakeContact(AtDistance(self, bits, seed), ip), kStart).outcome;
  };
  CHECK(at("1", "a", "203.0.113.1") == InsertOutcome::kAdded);
  CHECK(at("1", "b", "203.0.113.2") == InsertOutcome::kAdded);
  CHECK(at("1", "c", "127.0.0.1") == InsertOutcome::kAdded);
  CHECK(at("1", "d", "127.0.0.1") == InsertOutcome::kAdded);
  // The split puts this one alone in the near bucket, where its /24 is not yet present.
  CHECK(at("01", "e", "203.0.113.3") == InsertOutcome::kAdded);
  CHECK(table.bucket_count() == 2);
  CHECK(at("01", "f", "203.0.113.4") == InsertOutcome::kAdded);
  CHECK(at("01", "g", "203.0.113.5") == InsertOutcome::kRejectedDiversity);
}

TEST_CASE("the replacement cache obeys the same diversity limit", "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  FillFar(table, kStart);
  CHECK(table.Heard(Far(10, "203.0.113.1"), kStart).outcome == InsertOutcome::kReplacementCached);
  CHECK(table.Heard(Far(11, "203.0.113.2"), kStart).outcome == InsertOutcome::kReplacementCached);
  CHECK(table.Heard(Far(12, "203.0.113.3"), kStart).outcome == InsertOutcome::kRejectedDiversity);
  CHECK(table.Heard(Far(13, "198.51.100.1"), kStart).outcome == InsertOutcome::kReplacementCached);
  CHECK(table.stats().replacements == 3);
  CHECK(table.stats().rejected_diversity == 1);
}

TEST_CASE("a known contact cannot move into a prefix its bucket already has twice", "[unit]") {
  RoutingTable table(Self(), RoutingConfig{});
  const Contact a = MakeContact(Key::Sha256("a"), "203.0.113.1");
  const Contact b = MakeContact(Key::Sha256("b"), "203.0.113.2");
  const Contact c = MakeContact(Key::Sha256("c"), "198.51.100.7");
  for (const Contact& x : {a, b, c})
    REQUIRE(table.Heard(x, kStart).outcome == InsertOutcome::kAdded);
  CHECK(table.Heard(MakeContact(c.id, "203.0.113.9"), kStart).outcome ==
        InsertOutcome::kRejectedDiversity);
  CHECK(table.Find(c.id)->endpoint.address().ToString() == "198.51.100.7");
  // Moving within its own prefix, or to a free one, is fine; so is a known one staying put.
  CHECK(table.Heard(MakeContact(c.id, "198.51.100.8"), kStart).outcome == InsertOutcome::kUpdated);
  CHECK(table.Heard(MakeContact(a.id, "203.0.113.1", 7000), kStart).outcome ==
        InsertOutcome::kUpdated);
  CHECK(table.Heard(MakeContact(a.id, "203.0.113.50"), kStart).outcome == InsertOutcome::kUpdated);
  CHECK(table.stats().rejected_diversity == 1);
}

TEST_CASE("Closest matches a brute-force sort for random targets and counts", "[unit]") {
  RoutingTable table(Self(), RoutingConfig{});
  for (int i = 0; i < 600; ++i) {
    table.Heard(MakeContact(Key::Sha256("peer-" + std::to_string(i)), "10.0.0.1",
                            static_cast<uint16_t>(2000 + i)),
                kStart);
  }
  const std::vector<NodeId> ids = BucketIds(table);
  REQUIRE(ids.size() > 100);
  transport::Rng rng(7);
  for (int round = 0; round < 40; ++round) {
    Key target;
    rng.Fill(target.mutable_bytes());
    if (round == 0) target = Self();
    if (round == 1) target = ids[5];
    for (const size_t count : {0, 1, 3, 20, 100, 1000}) {
      REQUIRE(Ids(table.Closest(target, count)) == BruteForceClosest(ids, target, count));
    }
  }
}

TEST_CASE("Closest cuts failing contacts before healthy ones", "[unit]") {
  RoutingTable table(Self(), RoutingConfig{});
  std::vector<NodeId> ids;
  for (int i = 0; i < 10; ++i) {
    ids.push_back(Key::Sha256("c-" + std::to_string(i)));
    table.Heard(MakeContact(ids.back()), kStart);
  }
  const Key target = Key::Sha256("target");
  const std::vector<NodeId> by_distance = BruteForceClosest(ids, target, 10);
  table.Failed(by_distance[0]);
  table.Failed(by_distance[3]);
  // Everything fits: all of them, in distance order.
  CHECK(Ids(table.Closest(target, 10)) == by_distance);
  // Enough healthy contacts: the failing ones are left out.
  const std::vector<NodeId> three = Ids(table.Closest(target, 3));
  CHECK(three == std::vector<NodeId>{by_distance[1], by_distance[2], by_distance[4]});
  // Eight healthy ones and room for one failing one: the closer failing one, in its place.
  std::vector<NodeId> nine = by_distance;
  nine.erase(nine.begin() + 3);
  CHECK(Ids(table.Closest(target, 9)) == nine);
}

TEST_CASE("refresh targets fall in idle buckets, which are not due again for an interval",
          "[unit]") {
  const Key self = Self();
  const RoutingConfig config = SmallConfig();
  const transport::Duration interval = config.bucket_refresh_interval;
  {
    RoutingTable empty(self, config);
    CHECK(empty.NextRefreshDue() == transport::kTimeZero + interval);
  }
  RoutingTable table(self, config);
  FillNear(table, kStart);
  table.Heard(Far(0), kStart);  // splits; both halves were touched at kStart
  REQUIRE(table.bucket_count() == 2);
  CHECK(table.NextRefreshDue() == kStart + interval);
  transport::Rng rng(3);
  CHECK(table.RefreshTargets(kStart + interval - transport::Seconds(1), rng).empty());
  // A lookup through the far half keeps it fresh; only the near half is due.
  table.Touched(AtDistance(self, "1", "lookup"), kStart + transport::Seconds(300));
  std::vector<Key> targets = table.RefreshTargets(kStart + interval, rng);
  REQUIRE(targets.size() == 1);
  CHECK(DistanceStartsWith(self, targets[0], "0"));
  CHECK(table.RefreshTargets(kStart + interval, rng).empty());
  CHECK(table.NextRefreshDue() == kStart + transport::Seconds(300) + interval);
  targets = table.RefreshTargets(kStart + transport::Seconds(300) + interval, rng);
  REQUIRE(targets.size() == 1);
  CHECK(DistanceStartsWith(self, targets[0], "1"));
  CHECK(table.RefreshTargets(kStart + 2 * interval - transport::Seconds(1), rng).empty());
  CHECK(table.RefreshTargets(kStart + 2 * interval, rng).size() == 1);
}

TEST_CASE("random keys in a bucket are spread over exactly that bucket's range", "[unit]") {
  const Key self = Self();
  RoutingTable table(self, SmallConfig());
  // Farthest first, four contacts at each common-prefix length 0..6: only our bucket splits.
  for (int depth = 0; depth < 7; ++depth) {
    const std::string bits = std::string(static_cast<size_t>(depth), '0') + "1";
    for (int i = 0; i < 4; ++i) {
      table.Heard(MakeContact(AtDistance(self, bits, bits + "/" + std::to_string(i))), kStart);
    }
  }
  REQUIRE(table.bucket_count() == 7);
  transport::Rng rng(4);
  for (size_t index = 0; index < 7; ++index) {
    std::vector<Key> keys;
    for (int i = 0; i < 50; ++i) {
      keys.push_back(table.RandomKeyInBucket(index, rng));
      const int cpl = self.CommonPrefixLength(keys.back());
      if (index < 6) CHECK(cpl == static_cast<int>(index));
      if (index == 6) CHECK(cpl >= 6);
    }
    std::sort(keys.begin(), keys.end());
    CHECK(std::unique(keys.begin(), keys.end()) == keys.end());
  }
}

TEST_CASE("Export and Import round-trip every contact in a deterministic order", "[unit]") {
  const Key self = Self();
  RoutingConfig config;
  config.bucket_size = 8;
  RoutingTable table(self, config);
  for (int i = 0; i < 1500; ++i) {
    const std::string ip = "198.51." + std::to_string(i % 256) + "." + std::to_string(1 + i / 256);
    table.Heard(MakeContact(Key::Sha256("rt-" + std::to_string(i)), ip),
                kStart + transport::Seconds(i));
  }
  table.Failed(BucketIds(table)[0]);
  const std::vector<Contact> saved = table.Export();
  REQUIRE(table.stats().replacements > 0);
  REQUIRE(saved.size() == table.size() + table.stats().replacements);

  const transport::TimePoint later = kStart + transport::Seconds(7200);
  RoutingTable restored(self, config), again(self, config);
  CHECK(restored.Import(saved, later) == saved.size());
  again.Import(saved, later);
  std::map<NodeId, std::string> before, after;
  for (const Contact& c : saved) before[c.id] = c.endpoint.ToString();
  for (const Contact& c : restored.Export()) {
    after[c.id] = c.endpoint.ToString();
    CHECK(c.last_seen == later);
    CHECK(c.failures == 0);
  }
  CHECK(after == before);
  // Every contact that was in a bucket is in a bucket again (the tree may split differently).
  const std::vector<NodeId> restored_ids = BucketIds(restored);
  const std::set<NodeId> in_buckets(restored_ids.begin(), restored_ids.end());
  for (const NodeId& id : BucketIds(table)) CHECK(in_buckets.count(id) == 1);
  CHECK(Ids(restored.Export()) == Ids(again.Export()));
  CHECK(Ids(restored.Closest(self, 8)) == Ids(table.Closest(self, 8)));
}

TEST_CASE("stats count contacts, buckets, replacements and every drop", "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  FillFar(table, kStart);
  table.Heard(Far(10), kStart);
  table.Heard(Far(11), kStart);
  table.Heard(Far(12, "203.0.113.1"), kStart);
  table.Heard(Far(13, "203.0.113.2"), kStart);  // pushes Far(10) out of the cache
  table.Heard(Far(14, "203.0.113.3"), kStart);  // refused
  for (int i = 0; i < 3; ++i) table.Failed(Far(0).id);
  const RoutingTableStats stats = table.stats();
  CHECK(stats.contacts == 8);
  CHECK(stats.contacts == table.size());
  CHECK(stats.buckets == table.bucket_count());
  CHECK(stats.buckets == 2);
  CHECK(stats.replacements == 2);
  CHECK(stats.rejected_diversity == 1);
  CHECK(stats.evicted == 1);
  CHECK(stats.promoted == 1);
}

}  // namespace
}  // namespace skillnode::kademlia::routing
