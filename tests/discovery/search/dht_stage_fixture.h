// DhtStage's test fixture (dht_stage_test.cpp): a search as the Searcher hands it to its DHT
// stage (PendingSearch), and a DhtStage on one node of a FakeNetwork with the cache, watched keys
// and vocabulary a Searcher would lend it, recording the searches it hands back.
#ifndef SKILLNODE_TESTS_DISCOVERY_SEARCH_DHT_STAGE_FIXTURE_H_
#define SKILLNODE_TESTS_DISCOVERY_SEARCH_DHT_STAGE_FIXTURE_H_

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "discovery/query_cache.h"
#include "discovery/search/dht_stage.h"
#include "discovery/search/pending_search.h"
#include "discovery/search/watched_keys.h"
#include "discovery/search/words/vocabulary_feed.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery::search {

using Strings = std::vector<std::string>;

inline constexpr transport::Duration kStep = transport::Millis(10);
// Watched keys and watchers: more than any test here uses.
inline constexpr size_t kWatchedKeysMax = 16;
inline constexpr size_t kWatchersMax = 16;

inline kademlia::store::SkillRecord Named(const std::string& agent, const std::string& skill,
                                          const std::string& name) {
  kademlia::store::SkillRecord r = skillnode::testing::SampleRecord(agent, skill);
  r.descriptor = kademlia::store::SkillDescriptor{};
  r.descriptor->name = name;
  return r;
}

// A search as the Searcher hands it to its DHT stage: its query, cache key and text.
inline std::shared_ptr<PendingSearch> SearchFor(const SkillQuery& query, transport::TimePoint now) {
  auto pending = std::make_shared<PendingSearch>();
  pending->query = query;
  pending->started = now;
  pending->cache_key = CanonicalQueryKey(query);
  pending->text = TextQuery::For(query);
  return pending;
}

inline SkillQuery ByCapability(const std::string& capability) {
  SkillQuery query;
  query.capabilities = {capability};
  return query;
}
inline SkillQuery ByText(const std::string& text) {
  SkillQuery query;
  query.text = text;
  return query;
}

// The DHT stage of node `node` of `net`, with what the Searcher lends it, and the stages it
// handed back in order.
struct DhtStageFixture {
  explicit DhtStageFixture(skillnode::testing::FakeNetwork& network, size_t node,
                           const DhtStageConfig& config = {})
      : net(network),
        watched(net.dht(node), cache, kWatchedKeysMax, kWatchersMax, invalidations),
        stage(net.dht(node), cache, watched, vocabulary, config,
              [this](const std::shared_ptr<PendingSearch>& pending, transport::TimePoint at) {
                ended.push_back(Ended{pending, at});
              }) {}

  // Runs the network for `duration`, calling the stage's OnTimer as its owner would.
  void Run(transport::Duration duration) {
    const transport::TimePoint until = net.now() + duration;
    while (net.now() < until) {
      net.RunFor(kStep);
      if (stage.NextDeadline() <= net.now()) stage.OnTimer(net.now());
    }
  }
  std::shared_ptr<PendingSearch> Start(const SkillQuery& query,
                                       const std::optional<kademlia::Key>& key) {
    std::shared_ptr<PendingSearch> pending = SearchFor(query, net.now());
    pending->cache_key = stage.CacheKeyOf(query, key);  // as the Searcher keys it
    stage.Start(net.now(), pending, key);
    return pending;
  }
  // A search by `capability`, looked up under its capability key.
  std::shared_ptr<PendingSearch> Lookup(const std::string& capability) {
    return Start(ByCapability(capability), kademlia::store::CapabilityKey(capability));
  }
  // What the cache holds under `pending`'s key: the skill ids, or nullopt for no entry.
  std::optional<Strings> Cached(const PendingSearch& pending) {
    const auto hit = cache.Get(net.now(), pending.cache_key);
    if (!hit) return std::nullopt;
    Strings skills;
    for (const SkillEntryPtr& entry : hit->entry->records)
      skills.push_back(entry->record().skill_id);
    return skills;
  }
  static Strings Answer(const PendingSearch& pending) {
    Strings skills;
    for (const Found& found : pending.merge.Rank(pending.query, 10).skills) {
      CHECK(found.source == Source::kDht);
      skills.push_back(found.record().skill_id);
    }
    return skills;
  }
  static const StageReport& Report(const PendingSearch& pending) {
    REQUIRE(pending.stages.size() == 1);
    CHECK(pending.stages[0].stage == "dht");
    return pending.stages[0];
  }

  struct Ended {
    std::shared_ptr<PendingSearch> pending;
    transport::TimePoint at;
  };

  skillnode::testing::FakeNetwork& net;
  QueryCache cache{CacheConfig{}};
  uint64_t invalidations = 0;
  WatchedKeys watched;
  VocabularyFeed vocabulary;
  std::vector<Ended> ended;
  DhtStage stage;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_TESTS_DISCOVERY_SEARCH_DHT_STAGE_FIXTURE_H_
