// Reused answers and shared entries: a query asked again is answered with the earlier answer
// while nothing it was made from changed, and never once something did (a registration, an
// update, a health change, an unregistration, a cache drop); an entry's JSON text is the
// skill's JSON, byte for byte, for every source.
#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "discovery/search/searcher.h"
#include "discovery/search/word_fakes.h"
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

TEST_CASE("an answer is reused after other queries' answers are cached", "[unit]") {
  Fixture f;
  f.Register("skill-a");
  f.Search("user-auth");
  f.Search("user-auth");
  // Another query misses the cache, and its answer is cached: this one's entry is unchanged.
  f.Search("org-data-read");
  f.Search("org-data-read");
  CHECK(f.searcher->cache().size() == 2);
  CHECK(Fixture::Skills(f.Search("user-auth")) == std::vector<std::string>{"skill-a"});
  CHECK(f.searcher->stats().answers_reused == 1);
  CHECK(Fixture::Skills(f.Search("org-data-read")) == std::vector<std::string>{"skill-a"});
  CHECK(f.searcher->stats().answers_reused == 2);
}

// The skills a search of `text` answers, from the cache as configured.
std::vector<std::string> SearchText(Fixture& f, const std::string& text) {
  SkillQuery query;
  query.text = text;
  std::optional<SearchResult> result;
  f.searcher->Search(f.net.now(), query, SearchOptions{},
                     [&](const SearchResult& r) { result = r; });
  f.net.RunFor(transport::Millis(50));
  REQUIRE(result.has_value());
  return Fixture::Skills(*result);
}

void RegisterDescribed(Fixture& f, const std::string& skill, const std::string& description) {
  kademlia::store::SkillRecord r = testing::SampleRecord("agent-1", skill);
  r.descriptor = kademlia::store::SkillDescriptor{};
  r.descriptor->description = description;
  REQUIRE(f.registry->Register(f.net.now(), r).status == RegisterStatus::kSuccess);
}

TEST_CASE("a reused word answer shows a registration and loses an unregistration at once",
          "[unit]") {
  Fixture f;
  f.registry->AddObserver([&f](const RegistryEvent& event) {
    f.searcher->InvalidateRecord(event.record);  // as the node's skill service does
  });
  // A keyword index that holds nothing: the word answers cached are empty, the local stage
  // finds the skills registered here.
  FakeTermSource terms;
  FakeRecordSource records;
  f.searcher->SetWordSources(&terms, &records);
  RegisterDescribed(f, "skill-a", "Finds invoices in spreadsheets");
  RegisterDescribed(f, "skill-b", "Books meetings in calendars");
  CHECK(SearchText(f, "invoices spreadsheets") == std::vector<std::string>{"skill-a"});
  SearchText(f, "invoices spreadsheets");
  SearchText(f, "books meetings");  // another text's answer is cached
  CHECK(SearchText(f, "invoices spreadsheets") == std::vector<std::string>{"skill-a"});
  CHECK(f.searcher->stats().answers_reused == 1);

  RegisterDescribed(f, "skill-c", "Ranks invoices in spreadsheets");
  const std::vector<std::string> both = SearchText(f, "invoices spreadsheets");
  CHECK(both.size() == 2);
  CHECK(std::count(both.begin(), both.end(), "skill-c") == 1);
  REQUIRE(f.registry->Unregister(f.net.now(), "agent-1", "skill-a",
                                 kademlia::store::UnregisterReason::kShutdown));
  CHECK(SearchText(f, "invoices spreadsheets") == std::vector<std::string>{"skill-c"});
  // And once nothing changes, the answer is reused again, with the same skills.
  SearchText(f, "invoices spreadsheets");
  const uint64_t reused = f.searcher->stats().answers_reused;
  CHECK(SearchText(f, "invoices spreadsheets") == std::vector<std::string>{"skill-c"});
  CHECK(f.searcher->stats().answers_reused == reused + 1);
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
