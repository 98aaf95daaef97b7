// WatchedKeys on a three-node simulated network: a change under a key whose answers are cached
// drops them (a repeat of a cached version does not), InvalidateRecord drops the answers under
// a record's keys, watchers see a key's changes, and watchers_max and watched_keys_max hold,
// a cache-only key making room for a watcher's.
#include "discovery/search/watched_keys.h"

#include <catch2/catch.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "discovery/registry/registry.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using kademlia::Key;
using testing::FakeNetwork;

constexpr transport::Duration kStep = transport::Millis(10);

// Node 0 publishes through a registry; node 2 holds the watched keys and the cache.
struct Fixture {
  explicit Fixture(size_t watched_keys_max = 4, size_t watchers_max = 4) : net(11) {
    kademlia::KademliaConfig config;
    config.routing.bucket_size = 8;
    net.AddDhtNode(config, kademlia::store::DhtConfig{});
    const transport::Endpoint seed = net.endpoint(0);
    for (size_t i = 1; i < 3; ++i) {
      net.AddDhtNode(config, kademlia::store::DhtConfig{});
      net.node(i).Join(net.now(), std::span(&seed, 1), nullptr);
    }
    net.RunFor(transport::Seconds(30));
    registry.emplace(net.dht(0), publisher, RegistryConfig{},
                     [this] { return kademlia::store::SimulatedWallClockMs(net.now()); });
    keys.emplace(net.dht(2), cache, watched_keys_max, watchers_max, invalidations);
  }
  void Advance(transport::Duration duration) {
    const transport::TimePoint until = net.now() + duration;
    while (net.now() < until) {
      net.RunFor(kStep);
      registry->OnTimer(net.now());
    }
  }
  kademlia::store::GetResult Get(const Key& key) {
    std::optional<kademlia::store::GetResult> result;
    REQUIRE(net.dht(2).Get(net.now(), key, kademlia::store::GetOptions{},
                           [&result](const kademlia::store::GetResult& r) { result = r; }));
    for (int i = 0; i < 500 && !result; ++i) Advance(kStep);
    REQUIRE(result.has_value());
    return *result;
  }
  // Caches an answer under `key` as the searcher does after a get: listened on, then noted.
  void CacheAnswer(const Key& key) {
    const kademlia::store::GetResult fresh = Get(key);
    REQUIRE(keys->ListenForCache(net.now(), key, fresh) != 0);
    std::vector<SkillEntryPtr> live;
    for (const auto& record : fresh.records) live.push_back(SkillEntry::Make(record->record));
    cache.Put(net.now(), key.ToHex() + "|query", live);
    keys->NoteCachedAnswers(key, live);
  }
  bool Cached(const Key& key) { return cache.Get(net.now(), key.ToHex() + "|query").has_value(); }

  FakeNetwork net;
  kademlia::Identity publisher = testing::Publisher("watched-keys-node");
  std::optional<Registry> registry;
  QueryCache cache{CacheConfig{}};
  uint64_t invalidations = 0;
  std::optional<WatchedKeys> keys;
};

TEST_CASE("watched keys drop a key's cached answers on news, not on a repeat", "[unit]") {
  Fixture f;
  REQUIRE(f.registry->Register(f.net.now(), testing::SampleRecord()).status ==
          RegisterStatus::kSuccess);
  f.Advance(transport::Millis(300));
  const Key key = kademlia::store::CapabilityKey("user-auth");
  f.CacheAnswer(key);
  f.Advance(transport::Millis(500));  // the subscription's first sync repeats the cached version
  CHECK(f.Cached(key));
  CHECK(f.invalidations == 0);
  REQUIRE(f.registry->Heartbeat(f.net.now(), "agent-001", "skill-org-feishu",
                                kademlia::store::SkillStatus::kDegraded));
  f.Advance(transport::Millis(500));
  CHECK_FALSE(f.Cached(key));
  CHECK(f.invalidations == 1);
}

TEST_CASE("watched keys drop the cached answers under a record's keys once", "[unit]") {
  Fixture f;
  const Key key = kademlia::store::CapabilityKey("user-auth");
  f.CacheAnswer(key);
  REQUIRE(f.Cached(key));
  f.keys->InvalidateRecord(testing::SampleRecord());
  CHECK_FALSE(f.Cached(key));
  CHECK(f.invalidations == 1);
  f.keys->InvalidateRecord(testing::SampleRecord());  // nothing cached any more
  CHECK(f.invalidations == 1);
  // A record under other keys touches nothing.
  f.CacheAnswer(key);
  kademlia::store::SkillRecord elsewhere = testing::SampleRecord("agent-9", "skill-9");
  elsewhere.capabilities = {"translate"};
  elsewhere.scenes = {"travel"};
  f.keys->InvalidateRecord(elsewhere);
  CHECK(f.Cached(key));
  CHECK(f.invalidations == 1);
}

TEST_CASE("a watcher of a key sees the skill under it added and changed", "[unit]") {
  Fixture f;
  std::vector<kademlia::store::ListenEvent::Kind> events;
  const uint64_t watch =
      f.keys->Watch(f.net.now(), kademlia::store::SceneKey("auth"),
                    [&](const kademlia::store::ListenEvent& e) { events.push_back(e.kind); });
  REQUIRE(watch != 0);
  f.Advance(transport::Millis(300));
  REQUIRE(f.registry->Register(f.net.now(), testing::SampleRecord()).status ==
          RegisterStatus::kSuccess);
  f.Advance(transport::Millis(300));
  REQUIRE(f.registry->Heartbeat(f.net.now(), "agent-001", "skill-org-feishu",
                                kademlia::store::SkillStatus::kDegraded));
  f.Advance(transport::Millis(300));
  REQUIRE(events.size() >= 2);
  CHECK(events.front() == kademlia::store::ListenEvent::Kind::kAdded);
  CHECK(events.back() == kademlia::store::ListenEvent::Kind::kChanged);
  f.keys->Unwatch(watch);
  CHECK(f.keys->watchers() == 0);
  CHECK(f.keys->watched_keys() == 0);  // no one else needed the key
}

TEST_CASE("watched keys refuse watchers past watchers_max and keys past watched_keys_max",
          "[unit]") {
  Fixture f(/*watched_keys_max=*/1, /*watchers_max=*/2);
  auto ignore = [](const kademlia::store::ListenEvent&) {};
  const Key first = kademlia::store::SceneKey("auth");
  const uint64_t a = f.keys->Watch(f.net.now(), first, ignore);
  REQUIRE(a != 0);
  // The only key has a watcher: no room for another key.
  CHECK(f.keys->Watch(f.net.now(), kademlia::store::SceneKey("travel"), ignore) == 0);
  const uint64_t b = f.keys->Watch(f.net.now(), first, ignore);  // the same key: no new one
  CHECK(b != 0);
  CHECK(f.keys->watched_keys() == 1);
  CHECK(f.keys->watchers() == 2);
  CHECK(f.keys->Watch(f.net.now(), first, ignore) == 0);  // watchers_max
  f.keys->Unwatch(a);
  CHECK(f.keys->watched_keys() == 1);
  f.keys->Unwatch(b);
  CHECK(f.keys->watchers() == 0);
  CHECK(f.keys->watched_keys() == 0);
}

TEST_CASE("a key only the cache needs makes room for a watcher's, its answers going too",
          "[unit]") {
  Fixture f(/*watched_keys_max=*/1);
  const Key cached = kademlia::store::CapabilityKey("user-auth");
  f.CacheAnswer(cached);
  REQUIRE(f.Cached(cached));
  const uint64_t watch = f.keys->Watch(f.net.now(), kademlia::store::SceneKey("travel"),
                                       [](const kademlia::store::ListenEvent&) {});
  CHECK(watch != 0);
  CHECK(f.keys->watched_keys() == 1);
  CHECK_FALSE(f.Cached(cached));
}

TEST_CASE("a key listened on for the cache stays when its last watcher goes", "[unit]") {
  Fixture f;
  const Key key = kademlia::store::CapabilityKey("user-auth");
  f.CacheAnswer(key);
  const uint64_t watch =
      f.keys->Watch(f.net.now(), key, [](const kademlia::store::ListenEvent&) {});
  REQUIRE(watch != 0);
  CHECK(f.keys->watched_keys() == 1);
  f.keys->Unwatch(watch);
  CHECK(f.keys->watched_keys() == 1);
  CHECK(f.Cached(key));
}

}  // namespace
}  // namespace skillnode::discovery::search
