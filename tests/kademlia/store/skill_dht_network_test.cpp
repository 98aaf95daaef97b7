// SkillDht in seeded many-node runs: records published by one node found by all, replica repair
// after an eviction, read repair, tombstones, where a get found each record, and lookup_closest.
// Listeners are in skill_dht_listen_test.cpp; one node driven by hand is in skill_dht_test.cpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "kademlia/store/skill_dht.h"
#include "support/dht_network.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::BuildDhtNetwork;
using testing::FakeNetwork;
using testing::GetOnce;
using testing::Holders;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

// Each host gets every record key from `keys`; returns how many (host, key) gets found all
// the identities in `expected`.
size_t GetEverywhere(FakeNetwork& net, const Key& key, const std::set<std::string>& expected,
                     size_t* asked) {
  const std::vector<std::optional<GetResult>> results = testing::GetFromEveryLiveNode(net, key);
  size_t complete = 0;
  *asked = 0;
  for (size_t i = 0; i < net.size(); ++i) {
    if (net.silent(i)) continue;
    ++*asked;
    REQUIRE(results[i].has_value());
    std::set<std::string> found;
    for (const auto& r : results[i]->records) {
      if (!r->record.tombstone) found.insert(r->record.agent_id);
    }
    complete += found == expected;
  }
  return complete;
}

TEST_CASE("records published by one node are found by every other, and survive 30% leaving",
          "[sim]") {
  FakeNetwork net(/*seed=*/21);
  DhtConfig dht_config;
  dht_config.republish_interval = transport::Seconds(10 * 60);
  BuildDhtNetwork(net, 100, dht_config);
  const Identity publisher = Publisher();
  std::set<std::string> agents;
  for (int i = 0; i < 10; ++i) {
    SkillRecord r = SampleRecord("agent-" + std::to_string(i));
    net.dht(static_cast<size_t>(i) * 7).Publish(net.now(), Signed(r, publisher), nullptr);
    agents.insert(r.agent_id);
  }
  net.RunFor(transport::Seconds(30));
  size_t asked = 0;
  CHECK(GetEverywhere(net, CapabilityKey("user-auth"), agents, &asked) == asked);

  // 30% leave at once (never a publisher), then one republish round runs.
  transport::Rng rng(22);
  size_t gone = 0;
  while (gone < 30) {
    const auto victim = static_cast<size_t>(rng.Below(net.size()));
    if (victim % 7 == 0 || net.silent(victim)) continue;
    net.SetSilent(victim, true);
    ++gone;
  }
  net.RunFor(transport::Seconds(11 * 60));
  CHECK(GetEverywhere(net, SceneKey("auth"), agents, &asked) == asked);
  CHECK(asked == 70);
}

TEST_CASE("when a holder is evicted, the others give its copy to the node in its place", "[sim]") {
  FakeNetwork net(/*seed=*/31);
  BuildDhtNetwork(net, 40, DhtConfig{});  // r = 3, republish every 20 minutes
  net.dht(0).Publish(net.now(), Signed(SampleRecord(), Publisher()), nullptr);
  net.RunFor(transport::Seconds(30));
  const Key key = CapabilityKey("user-auth");
  const std::vector<size_t> before = Holders(net, key);
  REQUIRE(before.size() >= 3);
  // The holder farthest from the key goes silent; no republish is due for 19 minutes.
  const size_t gone = before.back() == 0 ? before.front() : before.back();
  net.SetSilent(gone, true);
  REQUIRE(Holders(net, key).size() == before.size() - 1);
  // Each other holder's requests to it time out stale_failures_max (3) times: it is evicted.
  testing::EvictFromHolders(net, before, gone);
  net.RunFor(transport::Seconds(5));
  for (size_t holder : before) {
    if (holder != gone)
      CHECK(net.node(holder).routing_table().Find(net.node(gone).id()) == std::nullopt);
  }
  uint64_t repaired = 0;
  for (size_t i = 0; i < net.size(); ++i) repaired += net.dht(i).stats().repair_keys;
  CHECK(repaired >= 1);
  // Back to as many live copies as before, long before the publisher's next republish.
  const std::vector<size_t> after = Holders(net, key);
  CHECK(after.size() == before.size());
  CHECK(std::find(after.begin(), after.end(), gone) == after.end());
}

TEST_CASE("a get gives a record to a close node that lacks it, for no longer than it has left",
          "[sim]") {
  FakeNetwork net(/*seed=*/32);
  BuildDhtNetwork(net, 40, DhtConfig{});  // r = 3
  const Key key = CapabilityKey("user-auth");
  // The node closest to the key (not the publisher) is away while the record is published.
  const auto published =
      testing::PublishWithoutClosest(net, key, Signed(SampleRecord(), Publisher()));
  const size_t closest = published.closest;
  const std::vector<size_t>& before = published.holders;
  REQUIRE(before.size() >= 3);
  REQUIRE(std::find(before.begin(), before.end(), closest) == before.end());
  transport::TimePoint latest_expiry = transport::kTimeZero;
  for (size_t holder : before) {
    latest_expiry = std::max(latest_expiry, net.dht(holder).store().Get(key)[0]->expires_at);
  }
  net.RunFor(transport::Seconds(60));
  // A get from a node that holds nothing reaches the closest node, which answers in full
  // without the record: the get stores it there.
  const size_t asker = testing::FirstNonHolder(published);
  std::optional<GetResult> result = GetOnce(net, asker, key);
  REQUIRE(result.has_value());
  REQUIRE(result->records.size() == 1);
  CHECK(net.dht(asker).stats().read_repairs >= 1);
  const auto repaired = net.dht(closest).store().Get(key);
  REQUIRE(repaired.size() == 1);
  // Not a fresh TTL: the copy expires when the others do (to the second).
  CHECK(repaired[0]->expires_at <= latest_expiry + transport::Seconds(1));
  CHECK(repaired[0]->expires_at >= latest_expiry - transport::Seconds(1));
  // Every close node now holds it: another get repairs nothing.
  const uint64_t repairs = net.dht(asker).stats().read_repairs;
  result = GetOnce(net, asker, key);
  REQUIRE(result.has_value());
  CHECK(net.dht(asker).stats().read_repairs == repairs);
}

TEST_CASE("a get asked for copies names the nodes holding each record's newest version", "[sim]") {
  FakeNetwork net(/*seed=*/34);
  BuildDhtNetwork(net, 40, DhtConfig{});  // r = 3
  const Identity publisher = Publisher();
  const Key key = CapabilityKey("user-auth");
  SkillRecord r = SampleRecord();
  net.dht(0).Publish(net.now(), Signed(r, publisher), nullptr);
  net.RunFor(transport::Seconds(30));
  const std::vector<size_t> first = Holders(net, key);
  REQUIRE(first.size() >= 3);
  // One holder is away while version 2 goes out: it still holds version 1 when it is back.
  const size_t stale = first.back() == 0 ? first.front() : first.back();
  net.SetSilent(stale, true);
  r.sequence = 2;
  net.dht(0).Publish(net.now(), Signed(r, publisher), nullptr);
  net.RunFor(transport::Seconds(30));
  net.SetSilent(stale, false);
  REQUIRE(net.dht(stale).store().Get(key)[0]->value->record.sequence == 1);
  std::set<NodeId> current;
  for (size_t holder : Holders(net, key)) {
    if (holder != stale) current.insert(net.node(holder).id());
  }
  REQUIRE(current.size() >= 3);

  const auto get_copies = [&net, &key](size_t asker) {
    std::optional<GetResult> result;
    GetOptions options;
    options.copies = true;
    REQUIRE(net.dht(asker).Get(net.now(), key, options,
                               [&result](const GetResult& got) { result = got; }));
    net.RunFor(transport::Seconds(10));
    REQUIRE(result.has_value());
    REQUIRE(result->records.size() == 1);
    REQUIRE(result->copies.size() == 1);
    CHECK(result->records[0]->record.sequence == 2);
    return result->copies[0];
  };
  // From a node that holds nothing: every holder of version 2 it asked, not the stale one.
  size_t asker = 1;
  while (!net.dht(asker).store().Get(key).empty()) ++asker;
  const RecordCopies found = get_copies(asker);
  CHECK_FALSE(found.held_here);
  const std::set<NodeId> holders(found.holders.begin(), found.holders.end());
  CHECK(holders.size() == found.holders.size());
  CHECK_FALSE(holders.contains(net.node(stale).id()));
  for (const NodeId& holder : holders) CHECK(current.contains(holder));
  CHECK(holders.size() >= 3);
  // The longest time a holder said the record has left: stored about 40 s ago, TTL an hour.
  REQUIRE(found.seconds_left.has_value());
  CHECK(*found.seconds_left <= r.ttl_seconds);
  CHECK(*found.seconds_left >= r.ttl_seconds - 60);
  // From a holder: its own copy counts as held here, and it is not among the nodes it asked.
  const size_t holder =
      *std::find_if(first.begin(), first.end(), [&](size_t i) { return i != stale && i != 0; });
  const RecordCopies own = get_copies(holder);
  CHECK(own.held_here);
  CHECK(std::find(own.holders.begin(), own.holders.end(), net.node(holder).id()) ==
        own.holders.end());
  // Without the option a get reports no copies.
  std::optional<GetResult> plain;
  REQUIRE(net.dht(asker).Get(net.now(), key, GetOptions{},
                             [&plain](const GetResult& got) { plain = got; }));
  net.RunFor(transport::Seconds(10));
  REQUIRE(plain.has_value());
  CHECK(plain->copies.empty());
}

TEST_CASE("a tombstone removes a record everywhere before it expires", "[sim]") {
  FakeNetwork net(/*seed=*/23);
  BuildDhtNetwork(net, 40, DhtConfig{});
  const Identity publisher = Publisher();
  SkillRecord live = SampleRecord();
  net.dht(3).Publish(net.now(), Signed(live, publisher), nullptr);
  net.RunFor(transport::Seconds(20));
  SkillRecord gone = live;
  gone.sequence = 2;
  gone.tombstone = true;
  gone.reason = UnregisterReason::kShutdown;
  std::optional<PublishResult> published;
  net.dht(3).Publish(net.now(), Signed(gone, publisher),
                     [&](const PublishResult& r) { published = r; });
  net.RunFor(transport::Seconds(20));
  REQUIRE(published.has_value());
  CHECK(published->stored > 0);
  size_t asked = 0;
  CHECK(GetEverywhere(net, SkillKey("skill-org-feishu"), {}, &asked) == asked);
}

TEST_CASE("a get ends once its lookup_closest closest nodes have answered", "[sim]") {
  // The same network and get, waiting for the 8 closest and for all k = 20.
  auto run = [](size_t lookup_closest) {
    FakeNetwork net(/*seed=*/37);
    DhtConfig dht_config;
    dht_config.lookup_closest = lookup_closest;
    net.AddDhtNode(KademliaConfig{}, dht_config);  // k = 20
    const transport::Endpoint seed = net.endpoint(0);
    for (size_t i = 1; i < 80; ++i) {
      net.AddDhtNode(KademliaConfig{}, dht_config);
      net.node(i).Join(net.now(), std::span(&seed, 1), nullptr);
      if (i % 10 == 0) net.RunFor(transport::Seconds(1));
    }
    net.RunFor(transport::Seconds(60));
    net.dht(5).Publish(net.now(), Signed(SampleRecord(), Publisher()), nullptr);
    net.RunFor(transport::Seconds(10));
    std::optional<GetResult> got;
    REQUIRE(net.dht(60).Get(net.now(), CapabilityKey("user-auth"), GetOptions{},
                            [&](const GetResult& result) { got = result; }));
    net.RunFor(transport::Seconds(5));
    REQUIRE(got.has_value());
    return *got;
  };
  const GetResult eight = run(8);
  const GetResult all = run(20);
  CHECK(eight.records.size() == 1);
  CHECK(all.records.size() == 1);
  CHECK(eight.closest.size() == 8);
  CHECK(all.closest.size() == 20);
  // The 8 are the closest of the 20.
  CHECK(std::equal(eight.closest.begin(), eight.closest.end(), all.closest.begin(),
                   [](const Contact& a, const Contact& b) { return a.id == b.id; }));
  INFO("FIND_VALUE requests: " << eight.stats.messages << " for 8, " << all.stats.messages
                               << " for 20");
  CHECK(eight.stats.messages + 8 <= all.stats.messages);
}

}  // namespace
}  // namespace skillnode::kademlia::store
