// DhtStage on its own, with the cache, watched keys and vocabulary a Searcher would lend it
// (dht_stage_fixture.h): a key lookup's answer merged, reported, cached and its key listened on
// (an empty one not cached when a SkillCenter stage follows); a lone node's store scan and
// lookup, both at once; a word search's hits through fake word sources; the busy refusal past
// searches_in_flight_max; the timeout at dht_timeout through OnTimer, a late answer then
// ignored; and a network that answers nothing reported as unreachable, not as "nothing".
#include "discovery/search/dht_stage.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "discovery/registry/registry.h"
#include "discovery/search/dht_stage_fixture.h"
#include "discovery/search/word_fakes.h"
#include "support/dht_network.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using kademlia::store::SkillRecord;
using skillnode::testing::BuildDhtNetwork;
using skillnode::testing::FakeNetwork;
using Dht = SearchProgress::Dht;

// A 12-node network where node 0 registered skill-a (capabilities org-data-read, user-auth).
struct Network {
  Network() : net(29) {
    BuildDhtNetwork(net, 12, kademlia::store::DhtConfig{});
    registry.emplace(net.dht(0), publisher, RegistryConfig{},
                     [this] { return kademlia::store::SimulatedWallClockMs(net.now()); });
    REQUIRE(registry->Register(net.now(), skillnode::testing::SampleRecord("agent-1", "skill-a"))
                .status == RegisterStatus::kSuccess);
    net.RunFor(transport::Seconds(30));
  }
  FakeNetwork net;
  kademlia::Identity publisher = skillnode::testing::Publisher("dht-stage");  // the registry's
  std::optional<Registry> registry;
};

TEST_CASE("a key lookup's answer is merged, reported, cached and its key listened on", "[sim]") {
  Network network;
  DhtStageFixture s(network.net, 7);
  const SkillQuery query = ByCapability("user-auth");
  const kademlia::Key key = kademlia::store::CapabilityKey("user-auth");
  const std::shared_ptr<PendingSearch> probe = SearchFor(query, s.net.now());
  CHECK(s.stage.ModeOf(*probe, key) == DhtStage::Mode::kLookup);
  CHECK(s.stage.ModeOf(*probe, std::nullopt) == DhtStage::Mode::kScan);

  const transport::TimePoint started = s.net.now();
  const std::shared_ptr<PendingSearch> pending = s.Start(query, key);
  CHECK(s.ended.empty());  // the lookup is out on the network
  CHECK(s.stage.in_flight() == 1);
  CHECK(s.stage.NextDeadline() == started + DhtStageConfig::kTimeoutDefault);
  CHECK(pending->progress.dht() == Dht::kRunning);
  s.Run(transport::Seconds(5));

  REQUIRE(s.ended.size() == 1);
  CHECK(s.ended[0].pending == pending);
  CHECK(pending->progress.dht() == Dht::kAnswered);
  CHECK(pending->dht_key == key);
  const StageReport& report = DhtStageFixture::Report(*pending);
  CHECK(report.outcome == "found");
  CHECK(report.records == 1);
  CHECK(DhtStageFixture::Answer(*pending) == Strings{"skill-a"});
  CHECK(s.Cached(*pending) == Strings{"skill-a"});
  CHECK(s.watched.watched_keys() == 1);
  CHECK(s.vocabulary.Noted(pending->merge.Rank(query, 1).skills.at(0).record()));
  CHECK(s.stage.in_flight() == 0);
  CHECK(s.stage.NextDeadline() == transport::kTimeNever);
  CHECK(s.stage.stats().gets == 1);
  CHECK(s.stage.stats().failures + s.stage.stats().timeouts == 0);
}

TEST_CASE("an empty lookup answer is cached unless a SkillCenter stage follows for it", "[sim]") {
  Network network;
  DhtStageFixture s(network.net, 5);
  s.stage.SetSkillCenterFollows(true);
  const SkillQuery query = ByCapability("translate");
  const kademlia::Key key = kademlia::store::CapabilityKey("translate");
  const std::shared_ptr<PendingSearch> followed = s.Start(query, key);
  s.Run(transport::Seconds(5));
  REQUIRE(s.ended.size() == 1);
  CHECK(followed->progress.dht() == Dht::kAnswered);
  CHECK(DhtStageFixture::Report(*followed).outcome == "none");
  CHECK_FALSE(s.Cached(*followed).has_value());
  // A search whose options skip the SkillCenter stage caches its "nothing".
  const std::shared_ptr<PendingSearch> skipping = SearchFor(query, s.net.now());
  skipping->options.use_skillcenter = false;
  s.stage.Start(s.net.now(), skipping, key);
  s.Run(transport::Seconds(5));
  REQUIRE(s.ended.size() == 2);
  CHECK(DhtStageFixture::Report(*skipping).outcome == "none");
  CHECK(s.Cached(*skipping) == Strings{});
}

TEST_CASE("a lone node scans its store, and its lookup answers at once, not as unreachable",
          "[unit]") {
  FakeNetwork net(31);
  net.AddDhtNode(kademlia::KademliaConfig{}, kademlia::store::DhtConfig{});
  const kademlia::Identity publisher = skillnode::testing::Publisher("lone");
  Registry registry(net.dht(0), publisher, RegistryConfig{},
                    [&net] { return kademlia::store::SimulatedWallClockMs(net.now()); });
  REQUIRE(registry.Register(net.now(), Named("agent-1", "cal", "Feishu Calendar")).status ==
          RegisterStatus::kSuccess);
  REQUIRE(registry.Register(net.now(), Named("agent-1", "pdf", "Summarize PDF")).status ==
          RegisterStatus::kSuccess);
  net.RunFor(transport::Seconds(1));
  REQUIRE_FALSE(net.dht(0).store().Keys().empty());
  DhtStageFixture s(net, 0);

  SECTION("a query with text and no word sources scans the store, matching the text") {
    const SkillQuery query = ByText("calendar");
    const std::shared_ptr<PendingSearch> probe = SearchFor(query, net.now());
    CHECK(s.stage.ModeOf(*probe, kademlia::store::CapabilityKey("user-auth")) ==
          DhtStage::Mode::kScan);
    const std::shared_ptr<PendingSearch> pending = s.Start(query, std::nullopt);
    REQUIRE(s.ended.size() == 1);  // before Start returned
    CHECK(pending->progress.dht() == Dht::kAnswered);
    CHECK(DhtStageFixture::Report(*pending).records == 1);
    CHECK(DhtStageFixture::Answer(*pending) == Strings{"cal"});
    CHECK(s.Cached(*pending) == Strings{"cal"});  // cached by its query, as a word answer is
    CHECK(s.stage.stats().gets == 0);
    CHECK(s.stage.in_flight() == 0);

    const std::shared_ptr<PendingSearch> none = s.Start(ByText("payroll"), std::nullopt);
    REQUIRE(s.ended.size() == 2);
    CHECK(DhtStageFixture::Report(*none).records == 0);
    CHECK(DhtStageFixture::Answer(*none).empty());
  }
  SECTION("a query with no key scans the store with its other filters") {
    SkillQuery query;
    query.agent_id = "agent-1";
    const std::shared_ptr<PendingSearch> pending = s.Start(query, std::nullopt);
    REQUIRE(s.ended.size() == 1);
    CHECK(DhtStageFixture::Report(*pending).records == 2);
    CHECK(DhtStageFixture::Answer(*pending).size() == 2);
    // Each skill once, though the store holds it under several keys.
    Strings cached = s.Cached(*pending).value_or(Strings{});
    std::sort(cached.begin(), cached.end());
    CHECK(cached == Strings{"cal", "pdf"});
    s.stage.DropStaleScans();  // nothing changed: kept
    CHECK(s.Cached(*pending).has_value());
    // A change of the store drops it: a cached scan is as current as a new one.
    REQUIRE(registry.Register(net.now(), Named("agent-1", "ocr", "Read text")).status ==
            RegisterStatus::kSuccess);
    net.RunFor(transport::Seconds(1));
    s.stage.DropStaleScans();
    CHECK_FALSE(s.Cached(*pending).has_value());
  }
  SECTION("a lookup with no contact to ask answers from the node's own store, at once") {
    const std::shared_ptr<PendingSearch> pending = s.Lookup("user-auth");
    REQUIRE(s.ended.size() == 1);
    CHECK(pending->progress.dht() == Dht::kAnswered);
    CHECK(DhtStageFixture::Report(*pending).outcome == "found");
    Strings found = DhtStageFixture::Answer(*pending);
    std::sort(found.begin(), found.end());
    CHECK(found == Strings{"cal", "pdf"});
    CHECK(s.stage.in_flight() == 0);  // never in flight: it answered before the get returned
    CHECK(s.stage.NextDeadline() == transport::kTimeNever);
    CHECK(s.stage.stats().gets == 1);
  }
}

// One node for the stage's references; the word sources are fakes.
struct Words {
  Words() : net(37) {
    net.AddDhtNode(kademlia::KademliaConfig{}, kademlia::store::DhtConfig{});
    remote.publisher = skillnode::testing::Publisher("other").public_key();
    terms.Index(remote);
    records.Put(remote);
  }
  FakeNetwork net;
  SkillRecord remote = Named("agent-2", "remote-cal", "Outlook Calendar");
  FakeTermSource terms;
  FakeRecordSource records;
};

TEST_CASE("a word search's hits are merged, reported and cached by the text", "[unit]") {
  Words w;
  DhtStageFixture s(w.net, 0);
  const SkillQuery query = ByText("outlook calendar");
  CHECK(s.stage.ModeOf(*SearchFor(query, w.net.now()), std::nullopt) == DhtStage::Mode::kScan);
  s.stage.SetWordSources(&w.terms, &w.records);
  CHECK(s.stage.ModeOf(*SearchFor(query, w.net.now()), std::nullopt) == DhtStage::Mode::kWords);

  const std::shared_ptr<PendingSearch> pending = s.Start(query, std::nullopt);
  REQUIRE(s.ended.size() == 1);  // the fakes answer at once
  CHECK(pending->progress.dht() == Dht::kAnswered);
  const StageReport& report = DhtStageFixture::Report(*pending);
  CHECK(report.outcome == "found");
  CHECK(report.records == 1);
  CHECK(DhtStageFixture::Answer(*pending) == Strings{"remote-cal"});
  CHECK(s.Cached(*pending) == Strings{"remote-cal"});
  CHECK(s.watched.watched_keys() == 0);  // a word answer has no key to listen on
  CHECK(s.vocabulary.vocabulary().Contains("outlook"));
  CHECK(s.stage.stats().word_searches == 1);
  CHECK(s.stage.stats().gets == 0);
  CHECK(s.stage.in_flight() == 0);

  SECTION("nothing found is cached unless a SkillCenter stage follows") {
    const std::shared_ptr<PendingSearch> none = s.Start(ByText("payroll"), std::nullopt);
    REQUIRE(s.ended.size() == 2);
    CHECK(DhtStageFixture::Report(*none).outcome == "none");
    CHECK(s.Cached(*none) == Strings{});
    s.stage.SetSkillCenterFollows(true);
    const std::shared_ptr<PendingSearch> followed = s.Start(ByText("invoices"), std::nullopt);
    REQUIRE(s.ended.size() == 3);
    CHECK(DhtStageFixture::Report(*followed).outcome == "none");
    CHECK_FALSE(s.Cached(*followed).has_value());
  }
  SECTION("an index no holder answers for is a failure, and is not cached") {
    w.terms.FailAll();
    const std::shared_ptr<PendingSearch> failed = s.Start(ByText("calendar"), std::nullopt);
    REQUIRE(s.ended.size() == 2);
    CHECK(failed->progress.dht() == Dht::kUnreachable);
    CHECK(DhtStageFixture::Report(*failed).outcome == "failed");
    CHECK_FALSE(s.Cached(*failed).has_value());
    CHECK(s.stage.stats().failures == 1);
  }
}

TEST_CASE("past searches_in_flight_max a stage is refused as busy, at once", "[unit]") {
  Words w;
  w.records.Hold(true);  // the word search waits for its record get
  DhtStageConfig config;
  config.searches_in_flight_max = 1;
  DhtStageFixture s(w.net, 0, config);
  s.stage.SetWordSources(&w.terms, &w.records);
  const std::shared_ptr<PendingSearch> running = s.Start(ByText("outlook"), std::nullopt);
  CHECK(s.ended.empty());
  CHECK(s.stage.in_flight() == 1);
  REQUIRE(w.records.held() == 1);

  // A word search and a key lookup alike: the limit counts both.
  const std::shared_ptr<PendingSearch> words = s.Start(ByText("calendar"), std::nullopt);
  const std::shared_ptr<PendingSearch> lookup = s.Lookup("user-auth");
  REQUIRE(s.ended.size() == 2);
  for (const auto& refused : {words, lookup}) {
    CHECK(refused->progress.dht() == Dht::kBusy);
    CHECK(DhtStageFixture::Report(*refused).outcome == "skipped");
    CHECK_FALSE(s.Cached(*refused).has_value());
  }
  CHECK(s.ended[0].pending == words);
  CHECK(s.ended[1].pending == lookup);
  CHECK(s.stage.stats().busy == 2);
  CHECK(s.stage.stats().word_searches == 1);
  CHECK(s.stage.stats().gets == 0);
  CHECK(s.stage.in_flight() == 1);

  // Once the running one ends there is room again.
  w.records.Release(w.net.now());
  REQUIRE(s.ended.size() == 3);
  CHECK(s.ended[2].pending == running);
  CHECK(running->progress.dht() == Dht::kAnswered);
  CHECK(s.stage.in_flight() == 0);
  s.Start(ByText("calendar"), std::nullopt);
  CHECK(s.stage.in_flight() == 1);
  CHECK(s.stage.stats().busy == 2);
}

TEST_CASE("a word search not answered within dht_timeout ends as timed out at OnTimer", "[unit]") {
  Words w;
  w.records.Hold(true);
  DhtStageConfig config;
  config.dht_timeout = transport::Millis(500);
  DhtStageFixture s(w.net, 0, config);
  s.stage.SetWordSources(&w.terms, &w.records);
  const transport::TimePoint started = w.net.now();
  const std::shared_ptr<PendingSearch> pending = s.Start(ByText("outlook"), std::nullopt);
  CHECK(s.stage.NextDeadline() == started + transport::Millis(500));
  s.stage.OnTimer(started + transport::Millis(499));
  CHECK(s.ended.empty());
  CHECK(pending->progress.dht() == Dht::kRunning);

  s.stage.OnTimer(started + transport::Millis(500));
  REQUIRE(s.ended.size() == 1);
  CHECK(s.ended[0].at == started + transport::Millis(500));
  CHECK(pending->progress.dht() == Dht::kTimedOut);
  CHECK(DhtStageFixture::Report(*pending).outcome == "timeout");
  CHECK(s.stage.stats().timeouts == 1);
  CHECK(s.stage.in_flight() == 0);
  CHECK(s.stage.NextDeadline() == transport::kTimeNever);

  // The answer that comes after is dropped: the stage ended once.
  w.records.Release(started + transport::Millis(600));
  CHECK(s.ended.size() == 1);
  CHECK(pending->progress.dht() == Dht::kTimedOut);
  CHECK(pending->stages.size() == 1);
  CHECK_FALSE(s.Cached(*pending).has_value());
}

TEST_CASE("a key lookup not answered within dht_timeout ends as timed out, its answer dropped",
          "[sim]") {
  FakeNetwork net(41);
  BuildDhtNetwork(net, 6, kademlia::store::DhtConfig{});
  DhtStageConfig config;
  config.dht_timeout = transport::Millis(5);  // less than one round trip (10 ms each way)
  DhtStageFixture s(net, 0, config);
  const std::shared_ptr<PendingSearch> pending = s.Lookup("user-auth");
  REQUIRE(s.stage.in_flight() == 1);
  s.Run(transport::Seconds(10));
  REQUIRE(s.ended.size() == 1);
  CHECK(pending->progress.dht() == Dht::kTimedOut);
  CHECK(DhtStageFixture::Report(*pending).outcome == "timeout");
  CHECK(s.stage.stats().timeouts == 1);
  CHECK(s.watched.watched_keys() == 0);  // the late answer neither listened nor cached
  CHECK_FALSE(s.Cached(*pending).has_value());
}

TEST_CASE("a lookup no node answers is reported unreachable, and nothing is cached", "[sim]") {
  FakeNetwork net(43);
  BuildDhtNetwork(net, 6, kademlia::store::DhtConfig{});
  for (size_t i = 1; i < net.size(); ++i) net.SetSilent(i, true);
  DhtStageConfig config;
  config.dht_timeout = transport::Seconds(60);  // the lookup ends on its own first
  DhtStageFixture s(net, 0, config);
  const std::shared_ptr<PendingSearch> pending = s.Lookup("user-auth");
  s.Run(transport::Seconds(30));
  REQUIRE(s.ended.size() == 1);
  CHECK(pending->progress.dht() == Dht::kUnreachable);
  CHECK(DhtStageFixture::Report(*pending).outcome == "failed");
  CHECK(s.stage.stats().failures == 1);
  CHECK(s.watched.watched_keys() == 0);
  CHECK(s.cache.size() == 0);
}

}  // namespace
}  // namespace skillnode::discovery::search
