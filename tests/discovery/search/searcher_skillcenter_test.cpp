// The search chain's SkillCenter stage, with a fake catalog: asked only when the stages before
// found nothing; its answer says source skillcenter and is cached; a failure or a timeout is
// DISC_005 / DISC_001 in the answer and in the stage report, and leaves nothing cached, so the
// next search asks again; an unsigned catalog record never beats a signed one that is as new.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "discovery/search/searcher.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using testing::FakeNetwork;
using Outcome = SkillCenterAnswer::Outcome;

class FakeCatalog final : public SkillCenterStage {
 public:
  void SearchCatalog(transport::TimePoint now, const SkillQuery&,
                     std::function<void(transport::TimePoint, SkillCenterAnswer)> done) override {
    ++calls;
    if (hold) {
      pending = std::move(done);
      return;
    }
    done(now, answer);
  }
  std::optional<transport::Duration> CacheTtl() const override { return ttl; }

  SkillCenterAnswer answer;
  bool hold = false;
  std::function<void(transport::TimePoint, SkillCenterAnswer)> pending;
  std::optional<transport::Duration> ttl = transport::Seconds(60);
  int calls = 0;
};

kademlia::store::SkillRecord CatalogSkill(const std::string& skill, const std::string& capability) {
  kademlia::store::SkillRecord record = testing::SampleRecord("agent-remote", skill);
  record.capabilities = {capability};
  record.publisher = {};  // unsigned
  return record;
}

struct Fixture {
  Fixture() : net(13) {
    net.AddDhtNode(kademlia::KademliaConfig{}, kademlia::store::DhtConfig{});
    registry.emplace(net.dht(0), publisher, RegistryConfig{},
                     [this] { return kademlia::store::SimulatedWallClockMs(net.now()); });
    searcher.emplace(net.dht(0), *registry, SearchConfig{}, CacheConfig{});
    searcher->SetSkillCenterStage(&catalog);
  }
  std::optional<SearchResult> Search(const std::string& capability, bool use_cache = true,
                                     bool use_skillcenter = true) {
    SkillQuery query;
    query.capabilities = {capability};
    std::optional<SearchResult> result;
    SearchOptions options;
    options.use_cache = use_cache;
    options.use_skillcenter = use_skillcenter;
    searcher->Search(net.now(), query, options, [&](SearchResult r) { result = std::move(r); });
    net.RunFor(transport::Millis(50));
    return result;
  }
  const StageReport* Stage(const SearchResult& result, const std::string& name) {
    for (const StageReport& stage : result.stages) {
      if (stage.stage == name) return &stage;
    }
    return nullptr;
  }

  FakeNetwork net;
  kademlia::Identity publisher = testing::Publisher("search-node");
  FakeCatalog catalog;
  std::optional<Registry> registry;
  std::optional<Searcher> searcher;
};

TEST_CASE("skillcenter: asked when nothing else found; answers with its source, then cached",
          "[unit]") {
  Fixture f;
  f.catalog.answer = {Outcome::kFound, {CatalogSkill("skill-remote", "translate")}, ""};
  auto first = f.Search("translate");
  REQUIRE(first);
  CHECK_FALSE(first->error);
  REQUIRE(first->skills.size() == 1);
  CHECK(first->skills[0].source == Source::kSkillCenter);
  CHECK(f.catalog.calls == 1);
  REQUIRE(f.Stage(*first, "skillcenter") != nullptr);
  CHECK(f.Stage(*first, "skillcenter")->outcome == "found");

  auto second = f.Search("translate");
  REQUIRE(second);
  REQUIRE(second->skills.size() == 1);
  CHECK(second->skills[0].source == Source::kCache);
  CHECK(f.catalog.calls == 1);  // from the cache
}

TEST_CASE("skillcenter: not asked when a stage before found the skill", "[unit]") {
  Fixture f;
  kademlia::store::SkillRecord fields = testing::SampleRecord("agent-001", "skill-local");
  fields.capabilities = {"translate"};
  REQUIRE(f.registry->Register(f.net.now(), fields).status == RegisterStatus::kSuccess);
  auto result = f.Search("translate", false);
  REQUIRE(result);
  REQUIRE(result->skills.size() == 1);
  CHECK(result->skills[0].source == Source::kLocal);
  CHECK(f.catalog.calls == 0);
}

TEST_CASE("skillcenter: a failure is DISC_005 in the answer and the stage, and is not cached",
          "[unit]") {
  Fixture f;
  f.catalog.answer = {Outcome::kFailed, {}, "the SkillCenter at http://x answered HTTP 503"};
  auto first = f.Search("translate");
  REQUIRE(first);
  REQUIRE(first->error);
  CHECK(DiscCode(*first->error) == "DISC_005");
  CHECK(first->message.find("HTTP 503") != std::string::npos);
  const StageReport* stage = f.Stage(*first, "skillcenter");
  REQUIRE(stage != nullptr);
  CHECK(stage->outcome == "failed");
  CHECK(stage->code == "DISC_005");
  CHECK(f.Stage(*first, "stale") != nullptr);

  f.catalog.answer = {Outcome::kSkipped, {}, "circuit open"};
  auto second = f.Search("translate");
  REQUIRE(second);
  CHECK(f.catalog.calls == 2);  // asked again: no empty answer was cached
  REQUIRE(second->error);
  CHECK(DiscCode(*second->error) == "DISC_005");
  CHECK(f.Stage(*second, "skillcenter")->outcome == "skipped");
}

TEST_CASE("skillcenter: a timeout is DISC_001; a cached answer is served when it fails", "[unit]") {
  Fixture f;
  f.catalog.answer = {Outcome::kFound, {CatalogSkill("skill-remote", "translate")}, ""};
  REQUIRE(f.Search("translate"));
  // Fresh search: the catalog times out, the stale stage finds the cached answer.
  f.catalog.answer = {Outcome::kTimeout, {}, "no complete answer within 300 ms"};
  auto stale = f.Search("translate", /*use_cache=*/false);
  REQUIRE(stale);
  CHECK_FALSE(stale->error);
  REQUIRE(stale->skills.size() == 1);
  CHECK(stale->skills[0].source == Source::kCache);
  CHECK(f.Stage(*stale, "skillcenter")->code == "DISC_001");

  f.searcher->ClearCache();
  auto none = f.Search("translate");
  REQUIRE(none);
  REQUIRE(none->error);
  CHECK(DiscCode(*none->error) == "DISC_001");
}

TEST_CASE("skillcenter: the answer waits for a catalog that is slow, and may skip it", "[unit]") {
  Fixture f;
  f.catalog.hold = true;
  std::optional<SearchResult> result;
  SkillQuery query;
  query.capabilities = {"translate"};
  f.searcher->Search(f.net.now(), query, SearchOptions{},
                     [&](SearchResult r) { result = std::move(r); });
  f.net.RunFor(transport::Millis(50));
  CHECK_FALSE(result);
  REQUIRE(f.catalog.pending);
  f.catalog.pending(f.net.now(), {Outcome::kFound, {CatalogSkill("s", "translate")}, ""});
  REQUIRE(result);
  CHECK(result->skills.size() == 1);

  auto skipped = f.Search("other", true, /*use_skillcenter=*/false);
  REQUIRE(skipped);
  CHECK(f.catalog.calls == 1);
  CHECK(f.Stage(*skipped, "skillcenter") == nullptr);
}

TEST_CASE("skillcenter: an unsigned record never beats a signed one that is as new", "[unit]") {
  Fixture f;
  // A cached catalog answer, then the same skill registered here (signed, newer).
  kademlia::store::SkillRecord remote = CatalogSkill("skill-same", "translate");
  remote.agent_id = "agent-001";
  remote.endpoint = "catalog.example:1";
  f.catalog.answer = {Outcome::kFound, {remote}, ""};
  REQUIRE(f.Search("translate"));
  kademlia::store::SkillRecord fields = testing::SampleRecord("agent-001", "skill-same");
  fields.capabilities = {"translate"};
  REQUIRE(f.registry->Register(f.net.now(), fields).status == RegisterStatus::kSuccess);
  auto result = f.Search("translate");
  REQUIRE(result);
  REQUIRE(result->skills.size() == 1);
  CHECK(result->skills[0].source == Source::kLocal);
  CHECK(result->skills[0].record().endpoint == fields.endpoint);
}

}  // namespace
}  // namespace skillnode::discovery::search
