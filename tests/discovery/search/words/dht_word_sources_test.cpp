// The word search's sources on the DHT: a term read through SkillDht::GetTerm and records got
// through SkillDht::Get, on a network where one node registered a skill and another asks; a
// Searcher on the asking node finds the skill by its words through them; a node that reaches
// nobody says so (failed), not "nothing".
#include "discovery/search/words/dht_word_sources.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "discovery/registry/registry.h"
#include "discovery/search/searcher.h"
#include "support/dht_network.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using skillnode::testing::BuildDhtNetwork;
using skillnode::testing::FakeNetwork;

struct Network {
  Network() : net(23) {
    BuildDhtNetwork(net, 20, kademlia::store::DhtConfig{});
    RegistryConfig config;
    config.health = HealthPolicy{transport::Seconds(60), transport::Seconds(600), 3};
    // The daemon's registry signs with its node's identity: its records get pointers.
    publisher.emplace(net.dht(0), net.node(0).identity(), config,
                      [this] { return kademlia::store::SimulatedWallClockMs(net.now()); });
    kademlia::store::SkillRecord fields = skillnode::testing::SampleRecord("agent-1", "booking");
    fields.descriptor = kademlia::store::SkillDescriptor{};
    fields.descriptor->name = "Feishu calendar booking";
    fields.descriptor->description = "Books meeting rooms in Feishu calendars.";
    REQUIRE(publisher->Register(net.now(), fields).status == RegisterStatus::kSuccess);
    net.RunFor(transport::Seconds(30));
  }
  FakeNetwork net;
  std::optional<Registry> publisher;
};

TEST_CASE("a term read on another node finds the pointer, and the record it leads to", "[sim]") {
  Network network;
  FakeNetwork& net = network.net;
  DhtTermSource terms(net.dht(7));
  std::optional<TermReading> reading;
  terms.ReadTerm(net.now(), "feishu", 10, {},
                 [&](transport::TimePoint, TermReading r) { reading = std::move(r); });
  net.RunFor(transport::Seconds(10));
  REQUIRE(reading.has_value());
  CHECK_FALSE(reading->failed);
  CHECK(reading->complete);
  CHECK(reading->count >= 1);
  REQUIRE(reading->pointers.size() == 1);
  const kademlia::store::TermPointer& pointer = reading->pointers.front();
  CHECK(pointer.skill_id == "booking");
  CHECK(pointer.name == "Feishu calendar booking");

  DhtRecordSource records(net.dht(7));
  std::optional<std::vector<kademlia::store::SignedRecordPtr>> got;
  bool failed = true;
  records.GetRecords(
      net.now(), pointer.record_key,
      [&](transport::TimePoint, std::vector<kademlia::store::SignedRecordPtr> r, bool f) {
        got = std::move(r);
        failed = f;
      });
  net.RunFor(transport::Seconds(10));
  REQUIRE(got.has_value());
  CHECK_FALSE(failed);
  REQUIRE(got->size() == 1);
  CHECK((*got)[0]->record.skill_id == "booking");
}

TEST_CASE("a Searcher with the DHT's word sources finds a skill of another node by its words",
          "[sim]") {
  Network network;
  FakeNetwork& net = network.net;
  Registry own(net.dht(9), net.node(9).identity(), RegistryConfig{},
               [&net] { return kademlia::store::SimulatedWallClockMs(net.now()); });
  Searcher searcher(net.dht(9), own, SearchConfig{}, CacheConfig{});
  DhtTermSource terms(net.dht(9));
  DhtRecordSource records(net.dht(9));
  searcher.SetWordSources(&terms, &records);
  for (const std::string text : {"booking feishu calendars", "feishu calendar boo"}) {
    SkillQuery query;
    query.text = text;
    std::optional<SearchResult> result;
    searcher.Search(net.now(), query, SearchOptions{.use_cache = false},
                    [&](const SearchResult& r) { result = r; });
    net.RunFor(transport::Seconds(10));
    REQUIRE(result.has_value());
    INFO(text);
    REQUIRE(result->skills.size() == 1);
    CHECK(result->skills[0].record().skill_id == "booking");
  }
  SkillQuery none;
  none.text = "xylophone";
  std::optional<SearchResult> nothing;
  searcher.Search(net.now(), none, SearchOptions{.use_cache = false},
                  [&](const SearchResult& r) { nothing = r; });
  net.RunFor(transport::Seconds(10));
  REQUIRE(nothing.has_value());
  CHECK(nothing->skills.empty());
}

TEST_CASE("a node that reaches nobody reads a term as failed, not as nothing", "[sim]") {
  FakeNetwork net(5);
  BuildDhtNetwork(net, 6, kademlia::store::DhtConfig{});
  for (size_t i = 1; i < net.size(); ++i) net.SetSilent(i, true);
  DhtTermSource terms(net.dht(0));
  std::optional<TermReading> reading;
  terms.ReadTerm(net.now(), "feishu", 10, {},
                 [&](transport::TimePoint, TermReading r) { reading = std::move(r); });
  net.RunFor(transport::Seconds(30));
  REQUIRE(reading.has_value());
  CHECK(reading->failed);
  CHECK(reading->pointers.empty());
}

TEST_CASE("a node alone, with no contact to ask, reads a term as nothing, not failed", "[sim]") {
  FakeNetwork net(6);
  BuildDhtNetwork(net, 1, kademlia::store::DhtConfig{});
  DhtTermSource terms(net.dht(0));
  std::optional<TermReading> reading;
  terms.ReadTerm(net.now(), "xylophone", 10, {},
                 [&](transport::TimePoint, TermReading r) { reading = std::move(r); });
  net.RunFor(transport::Seconds(5));
  REQUIRE(reading.has_value());
  CHECK_FALSE(reading->failed);
  CHECK(reading->pointers.empty());
}

}  // namespace
}  // namespace skillnode::discovery::search
