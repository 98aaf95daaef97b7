// The search chain's LAN stage, with a fake LAN: the LAN table answers at once; a discover
// round runs only when the table has nothing, and the answer waits for it only when no other
// stage found anything; a request can skip the stage.
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

class FakeLan final : public LanStage {
 public:
  std::vector<kademlia::store::SkillRecord> FindOnLan(const SkillQuery& query) const override {
    std::vector<kademlia::store::SkillRecord> out;
    for (const auto& record : table) {
      if (Matches(query, record)) out.push_back(record);
    }
    return out;
  }
  bool DiscoverOnLan(
      transport::TimePoint, const SkillQuery&,
      std::function<void(transport::TimePoint, std::vector<kademlia::store::SkillRecord>)> done)
      override {
    ++rounds;
    pending = std::move(done);
    return true;
  }
  // Tests change `table` directly: every search sees it as changed.
  uint64_t LanChanges() const override { return ++changes; }
  std::vector<kademlia::store::SkillRecord> table;
  mutable uint64_t changes = 0;
  std::function<void(transport::TimePoint, std::vector<kademlia::store::SkillRecord>)> pending;
  int rounds = 0;
};

struct Fixture {
  Fixture() : net(11) {
    net.AddDhtNode(kademlia::KademliaConfig{}, kademlia::store::DhtConfig{});
    registry.emplace(net.dht(0), publisher, RegistryConfig{},
                     [this] { return kademlia::store::SimulatedWallClockMs(net.now()); });
    searcher.emplace(net.dht(0), *registry, SearchConfig{}, CacheConfig{});
    searcher->SetLanStage(&lan);
  }
  std::optional<SearchResult> Search(const std::string& capability, bool use_lan = true) {
    SkillQuery query;
    query.capabilities = {capability};
    std::optional<SearchResult> result;
    SearchOptions options;
    options.use_cache = false;
    options.use_lan = use_lan;
    searcher->Search(net.now(), query, options, [&](SearchResult r) { result = std::move(r); });
    net.RunFor(transport::Millis(50));
    return result;
  }
  static kademlia::store::SkillRecord Heard(const std::string& skill,
                                            const std::string& capability) {
    kademlia::store::SkillRecord record = testing::SampleRecord("agent-lan", skill);
    record.capabilities = {capability};
    return record;
  }

  FakeNetwork net;
  kademlia::Identity publisher = testing::Publisher("search-node");
  FakeLan lan;
  std::optional<Registry> registry;
  std::optional<Searcher> searcher;
};

TEST_CASE("the LAN table answers at once, with source lan, and no round is sent", "[unit]") {
  Fixture f;
  f.lan.table.push_back(Fixture::Heard("skill-lan", "print"));
  auto result = f.Search("print");
  REQUIRE(result);
  REQUIRE(result->skills.size() == 1);
  CHECK(result->skills[0].source == Source::kLan);
  CHECK(f.lan.rounds == 0);
}

TEST_CASE("with nothing found anywhere, the answer waits for the LAN round", "[unit]") {
  Fixture f;
  std::optional<SearchResult> result;
  SkillQuery query;
  query.capabilities = {"scan"};
  SearchOptions options;
  options.use_cache = false;
  f.searcher->Search(f.net.now(), query, options, [&](SearchResult r) { result = std::move(r); });
  f.net.RunFor(transport::Millis(50));
  CHECK_FALSE(result.has_value());  // the DHT answered (nothing); the round is still out
  CHECK(f.lan.rounds == 1);
  REQUIRE(f.lan.pending);
  f.lan.pending(f.net.now(), {Fixture::Heard("skill-scan", "scan")});
  REQUIRE(result);
  REQUIRE(result->skills.size() == 1);
  CHECK(result->skills[0].source == Source::kLan);
  CHECK(result->stages.back().stage == "lan-discover");
}

TEST_CASE("a local answer does not wait for the LAN round", "[unit]") {
  Fixture f;
  kademlia::store::SkillRecord fields = testing::SampleRecord("agent-001", "skill-local");
  REQUIRE(f.registry->Register(f.net.now(), fields).status == RegisterStatus::kSuccess);
  auto result = f.Search(fields.capabilities[0]);
  REQUIRE(result);  // answered although the round was never completed
  CHECK(f.lan.rounds == 1);
  REQUIRE(result->skills.size() == 1);
  CHECK(result->skills[0].source == Source::kLocal);
}

TEST_CASE("a request may skip the LAN stage", "[unit]") {
  Fixture f;
  f.lan.table.push_back(Fixture::Heard("skill-lan", "print"));
  auto result = f.Search("print", /*use_lan=*/false);
  REQUIRE(result);
  CHECK(result->skills.empty());
  CHECK(f.lan.rounds == 0);
  for (const StageReport& stage : result->stages) CHECK(stage.stage.rfind("lan", 0) != 0);
}

}  // namespace
}  // namespace skillnode::discovery::search
