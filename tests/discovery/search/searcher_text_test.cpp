// The Searcher with a query's free text: local registrations matched by their words and ranked
// by BM25 with health, the DHT stage run as a WordSearch through the word sources when set, and
// the vocabulary fed with the skills registered here.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "discovery/search/searcher.h"
#include "discovery/search/word_fakes.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using kademlia::store::SkillRecord;
using Strings = std::vector<std::string>;

SkillRecord Named(const std::string& skill, const std::string& name) {
  SkillRecord r = skillnode::testing::SampleRecord("agent-1", skill);
  r.descriptor = kademlia::store::SkillDescriptor{};
  r.descriptor->name = name;
  return r;
}

struct Fixture {
  Fixture() : net(17) {
    net.AddDhtNode(kademlia::KademliaConfig{}, kademlia::store::DhtConfig{});
    registry.emplace(net.dht(0), publisher, RegistryConfig{}, [this] { return ++wall_ms; });
    searcher.emplace(net.dht(0), *registry, SearchConfig{}, CacheConfig{});
  }
  void Register(const SkillRecord& record) {
    REQUIRE(registry->Register(net.now(), record).status == RegisterStatus::kSuccess);
  }
  SearchResult Search(const std::string& text) {
    SkillQuery query;
    query.text = text;
    std::optional<SearchResult> result;
    searcher->Search(net.now(), query, SearchOptions{}, [&](const SearchResult& r) { result = r; });
    net.RunFor(transport::Millis(50));
    REQUIRE(result.has_value());
    return *result;
  }
  static Strings Skills(const SearchResult& result) {
    Strings out;
    for (const Found& found : result.skills) out.push_back(found.record().skill_id);
    return out;
  }

  skillnode::testing::FakeNetwork net;
  uint64_t wall_ms = kademlia::store::kSimulatedEpochMs;
  kademlia::Identity publisher = skillnode::testing::Publisher("text-node");
  std::optional<Registry> registry;
  std::optional<Searcher> searcher;
};

TEST_CASE("a text search finds local registrations by their words, ranked by BM25", "[unit]") {
  Fixture f;
  f.Register(Named("pdf-long", "Summarize PDF documents quickly"));
  f.Register(Named("pdf", "Summarize PDF"));
  f.Register(Named("cal", "Feishu Calendar"));
  CHECK(Fixture::Skills(f.Search("summarising pdfs")) == Strings{"pdf", "pdf-long"});
  CHECK(Fixture::Skills(f.Search("feishu cal")) == Strings{"cal"});
  const SearchResult none = f.Search("payroll");
  CHECK(none.skills.empty());
  CHECK(none.error.has_value());
  // A text with no words filters nothing.
  CHECK(f.Search("?!").skills.size() == 3);
}

TEST_CASE("a text search runs its DHT stage as a word search when word sources are set", "[unit]") {
  Fixture f;
  f.Register(Named("cal", "Feishu Calendar"));
  FakeTermSource terms;
  FakeRecordSource records;
  SkillRecord remote = Named("remote-cal", "Outlook Calendar");
  remote.agent_id = "agent-2";
  remote.publisher = skillnode::testing::Publisher("other").public_key();
  terms.Index(remote);
  records.Put(remote);
  f.searcher->SetWordSources(&terms, &records);
  const SearchResult result = f.Search("calendar");
  CHECK(Fixture::Skills(result) == Strings{"cal", "remote-cal"});  // the shorter name first
  CHECK(result.skills[1].source == Source::kDht);
  CHECK(f.searcher->stats().word_searches == 1);
  // The registered skills and the records fetched fed the vocabulary: a typo of a word seen
  // is corrected in the index (the local skill lacks "outlook": it is not in this answer).
  CHECK(f.searcher->vocabulary().vocabulary().Contains("feishu"));
  CHECK(Fixture::Skills(f.Search("outlok calendar")) == Strings{"remote-cal"});
}

}  // namespace
}  // namespace skillnode::discovery::search
