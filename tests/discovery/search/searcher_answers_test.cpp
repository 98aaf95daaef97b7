// Reused answers and shared entries: a query asked again is answered with the earlier answer
// while nothing it was made from changed, and never once something did (a registration, an
// update, a health change, an unregistration, a cache drop); an entry's JSON text is the
// skill's JSON, byte for byte, for every source.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "discovery/search/searcher.h"
#include "discovery/skill_entry.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using testing::FakeNetwork;

// One node: its registry, and a searcher over it with the cache on.
struct Fixture {
  Fixture() : net(13) {
    net.AddDhtNode(kademlia::KademliaConfig{}, kademlia::store::DhtConfig{});
    RegistryConfig config;
    config.health = HealthPolicy{transport::Seconds(60), transport::Seconds(600), 3};
    registry.emplace(net.dht(0), publisher, config, [this] { return ++wall_ms; });
    searcher.emplace(net.dht(0), *registry, SearchConfig{}, CacheConfig{});
  }
  SearchResult Search(const std::string& capability) {
    SkillQuery query;
    query.capabilities = {capability};
    std::optional<SearchResult> result;
    searcher->Search(net.now(), query, SearchOptions{}, [&](const SearchResult& r) { result = r; });
    net.RunFor(transport::Millis(50));
    REQUIRE(result.has_value());
    return *result;
  }
  static std::vector<std::string> Skills(const SearchResult& result) {
    std::vector<std::string> out;
    for (const Found& found : result.skills) out.push_back(found.record().skill_id);
    return out;
  }
  void Register(const std::string& skill) {
    REQUIRE(registry->Register(net.now(), testing::SampleRecord("agent-1", skill)).status ==
            RegisterStatus::kSuccess);
  }

  FakeNetwork net;
  uint64_t wall_ms = kademlia::store::kSimulatedEpochMs;
  kademlia::Identity publisher = testing::Publisher("answers-node");
  std::optional<Registry> registry;
  std::optional<Searcher> searcher;
};

TEST_CASE("a repeated query is answered again only while nothing changed", "[unit]") {
  Fixture f;
  f.Register("skill-a");
  CHECK(Fixture::Skills(f.Search("user-auth")) == std::vector<std::string>{"skill-a"});
  // The second search is answered from the cache and its answer kept; the third reuses it.
  CHECK(Fixture::Skills(f.Search("user-auth")) == std::vector<std::string>{"skill-a"});
  CHECK(f.searcher->stats().answers_reused == 0);
  const SearchResult third = f.Search("user-auth");
  CHECK(f.searcher->stats().answers_reused == 1);
  CHECK(Fixture::Skills(third) == std::vector<std::string>{"skill-a"});

  SECTION("a registration is in the very next answer") {
    f.Register("skill-b");
    CHECK(Fixture::Skills(f.Search("user-auth")) == std::vector<std::string>{"skill-a", "skill-b"});
    CHECK(f.searcher->stats().answers_reused == 1);
  }
  SECTION("an unregistration is gone from the very next answer") {
    REQUIRE(f.registry->Unregister(f.net.now(), "agent-1", "skill-a",
                                   kademlia::store::UnregisterReason::kShutdown));
    const SearchResult next = f.Search("user-auth");
    CHECK(next.skills.empty());
    CHECK(f.searcher->stats().answers_reused == 1);
  }
  SECTION("a health change is in the very next answer") {
    REQUIRE(f.registry->Heartbeat(f.net.now(), "agent-1", "skill-a",
                                  kademlia::store::SkillStatus::kDegraded));
    const SearchResult next = f.Search("user-auth");
    REQUIRE(next.skills.size() == 1);
    CHECK(next.skills[0].record().status == kademlia::store::SkillStatus::kDegraded);
  }
  SECTION("an update is in the very next answer") {
    kademlia::store::SkillRecord changed = testing::SampleRecord("agent-1", "skill-a");
    changed.version = "2.0.0";
    REQUIRE(f.registry->Register(f.net.now(), changed).updated);
    const SearchResult next = f.Search("user-auth");
    REQUIRE(next.skills.size() == 1);
    CHECK(next.skills[0].record().version == "2.0.0");
  }
  SECTION("a cleared cache makes the answer anew") {
    f.searcher->ClearCache();
    f.Search("user-auth");
    CHECK(f.searcher->stats().answers_reused == 1);
  }
  SECTION("another query is not answered with this one's answer") {
    CHECK(f.Search("org-data-read").skills.size() == 1);
    CHECK(f.searcher->stats().answers_reused == 1);
  }
}

TEST_CASE("an answer is not reused once its cache entry is due for refresh", "[unit]") {
  Fixture f;
  f.Register("skill-a");
  f.Search("user-auth");
  f.Search("user-auth");
  f.Search("user-auth");
  REQUIRE(f.searcher->stats().answers_reused == 1);
  // The cache's TTL is 300 s and it refreshes in the last 60 s.
  f.net.RunFor(transport::Seconds(245));
  f.Search("user-auth");
  CHECK(f.searcher->stats().answers_reused == 1);
}

TEST_CASE("an entry's JSON text is SkillJson's, for every source", "[unit]") {
  kademlia::store::SkillRecord record = testing::SampleRecord("agent \"quoted\"", "skill-\xc3\xa9");
  record.descriptor = kademlia::store::SkillDescriptor{};
  record.descriptor->name = "Name with \\ and \n";
  record.descriptor->description = "d";
  record.descriptor->tags = {"t1", "t2"};
  record.descriptor->input_schema = R"({"type":"object","properties":{"q":{"type":"string"}}})";
  const SkillEntryPtr entry = SkillEntry::Make(record);
  for (const Source source :
       {Source::kLocal, Source::kLan, Source::kDht, Source::kSkillCenter, Source::kCache}) {
    std::string text;
    entry->AppendJson(text, source);
    CHECK(text == SkillJson(record, source).dump());
  }
  CHECK(entry->version().has_value());
  CHECK_FALSE(SkillEntry::Make(testing::SampleRecord())->record().tombstone);
}

}  // namespace
}  // namespace skillnode::discovery::search
