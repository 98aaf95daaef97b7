#include "kademlia/routing/routing_table.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/routing_table_util.h"

namespace skillnode::kademlia::routing {
namespace {

using namespace routing_test;  // NOLINT: test helpers

TEST_CASE("a new table has one bucket and refuses our own id", "[unit]") {
  RoutingTable table(Self(), RoutingConfig{});
  CHECK(table.bucket_count() == 1);
  CHECK(table.size() == 0);
  CHECK(table.Heard(MakeContact(Self()), kStart).outcome == InsertOutcome::kRejectedSelf);
  CHECK(table.size() == 0);
  CHECK(table.Find(Self()) == std::nullopt);
  const Contact self_contact = MakeContact(Self());
  CHECK(table.Import({&self_contact, 1}, kStart) == 0);
}

TEST_CASE("the full bucket holding our own id splits to make room", "[unit]") {
  const Key self = Self();
  RoutingTable table(self, SmallConfig());
  for (int i = 0; i < 4; ++i) REQUIRE(table.Heard(Far(i), kStart).outcome == InsertOutcome::kAdded);
  CHECK(table.bucket_count() == 1);
  const Contact near = MakeContact(AtDistance(self, "01", "n"));
  CHECK(table.Heard(near, kStart).outcome == InsertOutcome::kAdded);
  CHECK(table.bucket_count() == 2);
  CHECK(table.size() == 5);
  transport::Rng rng(1);
  CHECK(DistanceStartsWith(self, table.RandomKeyInBucket(0, rng), "1"));
  CHECK(DistanceStartsWith(self, table.RandomKeyInBucket(1, rng), "0"));
}

TEST_CASE("a full bucket far from our own id does not split when k contacts are closer", "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  FillFar(table, kStart);
  const size_t buckets = table.bucket_count();
  const InsertResult result = table.Heard(Far(10), kStart + transport::Seconds(10));
  CHECK(result.outcome == InsertOutcome::kReplacementCached);
  CHECK(table.bucket_count() == buckets);
  CHECK(table.size() == 8);
  CHECK(table.stats().replacements == 1);
}

TEST_CASE("a full far bucket splits when the newcomer is among our k closest (paper 4.2)",
          "[unit]") {
  const Key self = Self();
  RoutingTable table(self, SmallConfig());
  for (int i = 0; i < 4; ++i) {
    table.Heard(MakeContact(AtDistance(self, "11", "f" + std::to_string(i))), kStart);
  }
  table.Heard(MakeContact(AtDistance(self, "01", "n")), kStart);  // splits the own bucket
  REQUIRE(table.bucket_count() == 2);
  // Bucket "1" is full and far, but only one contact is closer to us than this newcomer.
  const InsertResult result = table.Heard(MakeContact(AtDistance(self, "10", "x")), kStart);
  CHECK(result.outcome == InsertOutcome::kAdded);
  CHECK_FALSE(result.ping);
  CHECK(table.bucket_count() == 3);
  transport::Rng rng(2);
  CHECK(DistanceStartsWith(self, table.RandomKeyInBucket(0, rng), "11"));
  CHECK(DistanceStartsWith(self, table.RandomKeyInBucket(1, rng), "10"));
  CHECK(DistanceStartsWith(self, table.RandomKeyInBucket(2, rng), "0"));
  // With k contacts closer to us, a newcomer in the full bucket "11" is cached instead.
  for (int i = 0; i < 2; ++i) {
    table.Heard(MakeContact(AtDistance(self, "00", "m" + std::to_string(i))), kStart);
  }
  const Key late = AtDistance(self, "11", "late");
  CHECK(table.Heard(MakeContact(late), kStart).outcome == InsertOutcome::kReplacementCached);
  CHECK(table.bucket_count() == 3);
}

TEST_CASE("our k closest contacts stay exact while thousands of random ids arrive", "[unit]") {
  const size_t k = GENERATE(as<size_t>{}, 20, 8);
  RoutingConfig config;
  config.bucket_size = k;
  const Key self = Key::Sha256("exact-self-" + std::to_string(k));
  RoutingTable table(self, config);
  std::vector<NodeId> inserted;
  for (int i = 0; i < 3000; ++i) {
    const Key id = Key::Sha256("node-" + std::to_string(i));
    inserted.push_back(id);
    // Loopback is exempt from the diversity limit, so only the tree decides who stays.
    REQUIRE(table.Heard(MakeContact(id, "127.0.0.1", static_cast<uint16_t>(1000 + i)), kStart)
                .outcome != InsertOutcome::kRejectedDiversity);
    if (i % 250 == 249) {
      REQUIRE(Ids(table.Closest(self, k)) == BruteForceClosest(inserted, self, k));
    }
  }
  // Far buckets did not split without reason: a plain tree of 3000 ids needs about
  // log2(3000 / k) + 1 buckets and the relaxation adds only a few near ones.
  CHECK(table.bucket_count() < 16);
  CHECK(table.size() < inserted.size());
}

TEST_CASE("Closest stays exact in a table with buckets deeper than 64 bits", "[unit]") {
  // Contacts that share 60 to 79 leading bits with us split our bucket past depth 64, where
  // bucket order can no longer be read off the first 64 bits of a distance.
  const Key self = Self();
  RoutingTable table(self, SmallConfig());
  for (int zeros = 60; zeros < 80; ++zeros) {
    for (int i = 0; i < 2; ++i) {
      const std::string bits = std::string(static_cast<size_t>(zeros), '0') + "1";
      const Key id =
          AtDistance(self, bits, "deep-" + std::to_string(zeros) + "-" + std::to_string(i));
      table.Heard(MakeContact(id, "127.0.0.1", static_cast<uint16_t>(2000 + 2 * zeros + i)),
                  kStart);
    }
  }
  for (int i = 0; i < 20; ++i) table.Heard(Far(i, "127.0.0.1"), kStart);
  REQUIRE(table.bucket_count() > 65);
  std::vector<Key> targets = {self, AtDistance(self, std::string(70, '0'), "t70"),
                              AtDistance(self, std::string(63, '0') + "1", "t63")};
  for (int i = 0; i < 10; ++i) targets.push_back(Key::Sha256("target-" + std::to_string(i)));
  for (const Key& target : targets) {
    for (size_t count : {size_t{1}, size_t{4}, size_t{9}}) {
      REQUIRE(Ids(table.Closest(target, count)) ==
              BruteForceClosest(BucketIds(table), target, count));
    }
  }
}

TEST_CASE("contacts in a bucket are kept least-recently-seen first", "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  FillFar(table, kStart);
  CHECK(table.Heard(Far(1), kStart + transport::Seconds(20)).outcome == InsertOutcome::kUpdated);
  std::vector<NodeId> far_order = Ids(table.Export());
  far_order.resize(4);
  CHECK(far_order == std::vector<NodeId>{Far(0).id, Far(2).id, Far(3).id, Far(1).id});
  const InsertResult result = table.Heard(Far(10), kStart + transport::Seconds(21));
  REQUIRE(result.ping);
  CHECK(result.ping->id == Far(0).id);
}

TEST_CASE("hearing a known contact refreshes its endpoint, key, time and failures", "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  FillFar(table, kStart);
  table.Failed(Far(0).id);
  REQUIRE(table.Find(Far(0).id)->failures == 1);
  Contact moved = Far(0, "198.51.100.7");
  moved.endpoint = transport::Endpoint(moved.endpoint.address(), 7000);
  moved.public_key[0] = 0xab;
  moved.last_seen = transport::kTimeZero;  // ignored: the table stamps `now`
  moved.failures = 5;                      // ignored too
  CHECK(table.Heard(moved, kStart + transport::Seconds(30)).outcome == InsertOutcome::kUpdated);
  const std::optional<Contact> found = table.Find(Far(0).id);
  REQUIRE(found);
  CHECK(found->endpoint.ToString() == "198.51.100.7:7000");
  CHECK(found->public_key[0] == 0xab);
  CHECK(found->last_seen == kStart + transport::Seconds(30));
  CHECK(found->failures == 0);
  // A message without a key (all zero) does not forget the key we know.
  CHECK(table.Heard(Far(0, "198.51.100.7"), kStart + transport::Seconds(31)).outcome ==
        InsertOutcome::kUpdated);
  CHECK(table.Find(Far(0).id)->public_key[0] == 0xab);
  CHECK(table.size() == 8);
}

TEST_CASE("a full bucket keeps the newest newcomers in a bounded replacement cache", "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  FillFar(table, kStart);
  for (int i = 10; i < 15; ++i) {
    CHECK(table.Heard(Far(i), kStart + transport::Seconds(i)).outcome ==
          InsertOutcome::kReplacementCached);
  }
  CHECK(table.stats().replacements == 3);
  CHECK(table.size() == 8);
  std::vector<NodeId> ids = Ids(table.Export());
  CHECK(std::vector<NodeId>(ids.begin() + 8, ids.end()) ==
        std::vector<NodeId>{Far(12).id, Far(13).id, Far(14).id});
  // Hearing a cached contact again makes it the newest one in the cache.
  CHECK(table.Heard(Far(12), kStart + transport::Seconds(20)).outcome ==
        InsertOutcome::kReplacementCached);
  ids = Ids(table.Export());
  CHECK(std::vector<NodeId>(ids.begin() + 8, ids.end()) ==
        std::vector<NodeId>{Far(13).id, Far(14).id, Far(12).id});
  CHECK(table.Find(Far(13).id) != std::nullopt);
  CHECK(table.Find(Far(10).id) == std::nullopt);
}

TEST_CASE("a full bucket asks to ping its least-recently-seen contact, one ping at a time",
          "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  FillFar(table, kStart);
  transport::TimePoint now = kStart + transport::Seconds(10);
  auto newcomer = [&](int i) { return table.Heard(Far(100 + i), now += transport::Seconds(1)); };
  const InsertResult first = newcomer(0);
  REQUIRE(first.ping);
  CHECK(first.ping->id == Far(0).id);
  CHECK_FALSE(newcomer(1).ping);  // the answer about Far(0) is still awaited
  // Far(0) answers: it moves to the most-recently-seen end and Far(1) is the oldest now.
  CHECK(table.Heard(Far(0), now += transport::Seconds(1)).outcome == InsertOutcome::kUpdated);
  const InsertResult third = newcomer(2);
  REQUIRE(third.ping);
  CHECK(third.ping->id == Far(1).id);
  // Far(1) times out once: it is still the oldest and is asked for again.
  CHECK_FALSE(table.Failed(Far(1).id));
  const InsertResult fourth = newcomer(3);
  REQUIRE(fourth.ping);
  CHECK(fourth.ping->id == Far(1).id);
  CHECK_FALSE(newcomer(4).ping);
  // The caller never reported; much later the bucket asks again rather than stall.
  now += transport::Seconds(600);
  const InsertResult later = newcomer(5);
  REQUIRE(later.ping);
  CHECK(later.ping->id == Far(1).id);
}

TEST_CASE("a full bucket pings its oldest contact only once it has been silent or failed",
          "[unit]") {
  RoutingConfig config = SmallConfig();
  config.ping_oldest_after = transport::Seconds(15 * 60);
  RoutingTable table(Self(), config);
  FillFar(table, kStart);
  // Heard a minute ago: alive, so the newcomer only waits in the replacement cache.
  const InsertResult fresh = table.Heard(Far(100), kStart + transport::Seconds(60));
  CHECK(fresh.outcome == InsertOutcome::kReplacementCached);
  CHECK_FALSE(fresh.ping);
  // One timeout makes it questionable at once.
  CHECK_FALSE(table.Failed(Far(0).id));
  const InsertResult failed = table.Heard(Far(101), kStart + transport::Seconds(61));
  REQUIRE(failed.ping);
  CHECK(failed.ping->id == Far(0).id);
  // It answers; now Far(1) is the oldest, last heard at kStart + 2 s. Silent for just under
  // the window: no ping; for the whole window: a ping.
  CHECK(table.Heard(Far(0), kStart + transport::Seconds(62)).outcome == InsertOutcome::kUpdated);
  const transport::TimePoint far1_heard = kStart + transport::Seconds(2);
  CHECK_FALSE(table.Heard(Far(102), far1_heard + transport::Seconds(15 * 60 - 1)).ping);
  const InsertResult silent = table.Heard(Far(103), far1_heard + transport::Seconds(15 * 60));
  REQUIRE(silent.ping);
  CHECK(silent.ping->id == Far(1).id);
}

TEST_CASE("the table wants a requester only where it could change a bucket", "[unit]") {
  RoutingConfig config = SmallConfig();
  config.ping_oldest_after = transport::Seconds(15 * 60);
  RoutingTable table(Self(), config);
  CHECK_FALSE(table.Wants(Self(), kStart));
  CHECK(table.Wants(Far(0).id, kStart));  // room in the only bucket
  FillFar(table, kStart);
  const transport::TimePoint soon = kStart + transport::Seconds(60);
  CHECK(table.Wants(Far(1).id, soon));  // already in a bucket
  // Full far bucket, k closer contacts, fresh oldest: a newcomer could only be cached.
  CHECK_FALSE(table.Wants(Far(100).id, soon));
  CHECK(table.Heard(Far(100), soon).outcome == InsertOutcome::kReplacementCached);
  // A near newcomer would split its bucket.
  CHECK(table.Wants(AtDistance(Self(), "00001", "near"), soon));
  // The far bucket's oldest contact fails once: a newcomer would now trigger its ping.
  CHECK_FALSE(table.Failed(Far(0).id));
  CHECK(table.Wants(Far(101).id, soon));
  // Or it has been silent for the whole window.
  CHECK(table.Heard(Far(0), soon).outcome == InsertOutcome::kUpdated);
  CHECK_FALSE(table.Wants(Far(101).id, soon));
  CHECK(table.Wants(Far(101).id, kStart + transport::Seconds(2) + transport::Seconds(15 * 60)));
}

TEST_CASE("stale_failures_max timeouts evict a contact and promote the newest replacement",
          "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  FillFar(table, kStart);
  table.Heard(Far(10), kStart + transport::Seconds(10));
  table.Heard(Far(11), kStart + transport::Seconds(11));
  table.Heard(Far(3), kStart + transport::Seconds(12));  // now seen after Far(11) was
  CHECK_FALSE(table.Failed(Far(0).id));
  CHECK_FALSE(table.Failed(Far(0).id));
  CHECK(table.Find(Far(0).id)->failures == 2);
  CHECK(table.Failed(Far(0).id));
  CHECK(table.Find(Far(0).id) == std::nullopt);
  CHECK(table.size() == 8);
  const std::vector<NodeId> ids = Ids(table.Export());
  // Far(11) takes its place in least-recently-seen order, before the fresher Far(3).
  CHECK(std::vector<NodeId>(ids.begin(), ids.begin() + 4) ==
        std::vector<NodeId>{Far(1).id, Far(2).id, Far(11).id, Far(3).id});
  RoutingTableStats stats = table.stats();
  CHECK(stats.evicted == 1);
  CHECK(stats.promoted == 1);
  CHECK(stats.replacements == 1);
  // A failing replacement is dropped at once; an unknown id is ignored.
  CHECK(table.Failed(Far(10).id));
  CHECK(table.stats().replacements == 0);
  CHECK_FALSE(table.Failed(Key::Sha256("stranger")));
  // With an empty cache an eviction leaves the bucket short.
  for (int i = 0; i < 3; ++i) table.Failed(Far(1).id);
  CHECK(table.size() == 7);
  stats = table.stats();
  CHECK(stats.evicted == 3);
  CHECK(stats.promoted == 1);
}

TEST_CASE("a reply resets the failure count so sporadic timeouts never evict", "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  FillFar(table, kStart);
  for (int round = 0; round < 5; ++round) {
    CHECK_FALSE(table.Failed(Far(2).id));
    CHECK_FALSE(table.Failed(Far(2).id));
    table.Heard(Far(2), kStart + transport::Seconds(100 + round));
    CHECK(table.Find(Far(2).id)->failures == 0);
  }
  CHECK(table.stats().evicted == 0);
}

TEST_CASE("a removed contact is replaced from the cache", "[unit]") {
  RoutingTable table(Self(), SmallConfig());
  FillFar(table, kStart);
  table.Heard(Far(10), kStart + transport::Seconds(10));
  CHECK(table.Remove(Far(3).id));
  CHECK_FALSE(table.Remove(Far(3).id));
  CHECK(table.size() == 8);
  CHECK(table.stats().replacements == 0);
  CHECK(table.stats().evicted == 0);
}

TEST_CASE("a split moves cached replacements into the half that has room", "[unit]") {
  const Key self = Self();
  RoutingTable table(self, SmallConfig());
  FillNear(table, kStart);
  auto at = [&](std::string_view bits, const std::string& seed) {
    return table.Heard(MakeContact(AtDistance(self, bits, seed)), kStart).outcome;
  };
  for (int i = 0; i < 4; ++i)
    REQUIRE(at("11", "full-" + std::to_string(i)) == InsertOutcome::kAdded);
  for (int i = 0; i < 3; ++i) {
    REQUIRE(at("10", "cached-" + std::to_string(i)) == InsertOutcome::kReplacementCached);
  }
  // Without the near contacts, a newcomer in "10" is among our k closest: bucket "1" splits.
  for (int i = 0; i < 4; ++i) {
    REQUIRE(table.Remove(AtDistance(self, "0001", "near-" + std::to_string(i))));
  }
  CHECK(at("10", "newcomer") == InsertOutcome::kAdded);
  CHECK(table.bucket_count() == 3);
  CHECK(table.size() == 8);
  const RoutingTableStats stats = table.stats();
  CHECK(stats.replacements == 0);
  CHECK(stats.promoted == 3);
}

}  // namespace
}  // namespace skillnode::kademlia::routing
