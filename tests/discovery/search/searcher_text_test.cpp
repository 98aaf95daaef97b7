// The Searcher with a query's free text: local registrations matched by their words and ranked
// by BM25 with health, the DHT stage run as a WordSearch through the word sources when set, the
// vocabulary fed with the skills registered here (all once, then as reported) and the typos it
// corrects, and word answers cached until a skill in them changes here or their TTL passes.
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

TEST_CASE("a skill registered here teaches the vocabulary at once, and typos find it", "[unit]") {
  Fixture f;
  f.registry->AddObserver([&f](const RegistryEvent& event) {
    f.searcher->InvalidateRecord(event.record);  // as the node's skill service does
  });
  f.Register(Named("cal", "Feishu Calendar"));
  f.Register(Named("tr", "Translate Japanese text"));
  f.Register(Named("sum", "Summarize PDF files"));
  CHECK(f.searcher->vocabulary().vocabulary().Contains("calendar"));
  CHECK(f.searcher->vocabulary().words().Contains("summarize"));
  CHECK(Fixture::Skills(f.Search("feishu calender")) == Strings{"cal"});
  CHECK(Fixture::Skills(f.Search("calender feishu")) == Strings{"cal"});
  CHECK(Fixture::Skills(f.Search("transalte japanese")) == Strings{"tr"});
  CHECK(Fixture::Skills(f.Search("pdf summari")) == Strings{"sum"});
}

TEST_CASE("the registrations are walked for the vocabulary once; later ones come as reported",
          "[unit]") {
  Fixture f;
  f.Register(Named("cal", "Feishu Calendar"));
  f.Search("calendar");
  CHECK(f.searcher->vocabulary().vocabulary().Contains("feishu"));
  // Registered after the walk and not reported: a search does not walk the registry again.
  const SkillRecord later = Named("tr", "Translate Japanese text");
  f.Register(later);
  f.Search("calendar");
  CHECK_FALSE(f.searcher->vocabulary().words().Contains("japanese"));
  // Reported, as the node's skill service does for every registry event: noted.
  f.searcher->InvalidateRecord(later);
  CHECK(f.searcher->vocabulary().words().Contains("japanese"));
}

TEST_CASE("a repeated word search is answered from the cache until a skill in it changes here",
          "[unit]") {
  Fixture f;
  FakeTermSource terms;
  FakeRecordSource records;
  SkillRecord remote = Named("remote-cal", "Outlook Calendar");
  remote.agent_id = "agent-2";
  remote.publisher = skillnode::testing::Publisher("other").public_key();
  terms.Index(remote);
  records.Put(remote);
  f.searcher->SetWordSources(&terms, &records);
  CHECK(Fixture::Skills(f.Search("outlook calendar")) == Strings{"remote-cal"});
  CHECK(f.searcher->stats().word_searches == 1);
  // The same text again: the cache answers, then the answer kept beside it.
  SearchResult again = f.Search("outlook calendar");
  CHECK(Fixture::Skills(again) == Strings{"remote-cal"});
  CHECK(again.skills[0].source == Source::kCache);
  CHECK(Fixture::Skills(f.Search("outlook calendar")) == Strings{"remote-cal"});
  CHECK(f.searcher->stats().word_searches == 1);
  CHECK(f.searcher->stats().answers_reused == 1);
  // A change of a skill it holds (reported here) drops it: the index is read again.
  const uint64_t invalidations = f.searcher->stats().invalidations;
  f.searcher->InvalidateRecord(remote);
  CHECK(f.searcher->stats().invalidations == invalidations + 1);
  CHECK(Fixture::Skills(f.Search("outlook calendar")) == Strings{"remote-cal"});
  CHECK(f.searcher->stats().word_searches == 2);
}

TEST_CASE("a new skill matching a cached word answer appears within the cache's TTL", "[unit]") {
  Fixture f;
  FakeTermSource terms;
  FakeRecordSource records;
  f.searcher->SetWordSources(&terms, &records);
  CHECK(f.Search("outlook").skills.empty());
  SkillRecord remote = Named("remote-cal", "Outlook Calendar");
  remote.agent_id = "agent-2";
  remote.publisher = skillnode::testing::Publisher("other").public_key();
  terms.Index(remote);
  records.Put(remote);
  CHECK(f.Search("outlook").skills.empty());  // the cached answer, still fresh
  CHECK(f.searcher->stats().word_searches == 1);
  // Past the point where the cache refreshes an answer in the background, well within the TTL.
  const CacheConfig cache;
  f.net.RunFor(cache.ttl - cache.refresh_before_expiry);
  f.Search("outlook");  // answered from the cache, refreshed behind it
  CHECK(f.searcher->stats().word_searches == 2);
  CHECK(Fixture::Skills(f.Search("outlook")) == Strings{"remote-cal"});
}

}  // namespace
}  // namespace skillnode::discovery::search
