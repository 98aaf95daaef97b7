// The Registry's word postings (discovery/registry/word_postings.h) kept in step with its
// registrations: FindEntries with a text gives, in the same order, every registration a walk over
// all of them finds matching that text — after registering, updating a description and
// unregistering — and filters by the query's other fields as FindEntries does.
#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "discovery/registry/registry.h"
#include "discovery/text/analyzer.h"
#include "discovery/text/text_match.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery {
namespace {

using testing::FakeNetwork;

struct Net {
  Net() : net(13) {
    kademlia::KademliaConfig config;
    config.routing.bucket_size = 8;
    net.AddDhtNode(config, kademlia::store::DhtConfig{});
    const transport::Endpoint seed = net.endpoint(0);
    for (size_t i = 1; i < 4; ++i) {
      net.AddDhtNode(config, kademlia::store::DhtConfig{});
      net.node(i).Join(net.now(), std::span(&seed, 1), nullptr);
    }
    net.RunFor(transport::Seconds(30));
    registry.emplace(net.dht(0), publisher, RegistryConfig{},
                     [this] { return kademlia::store::SimulatedWallClockMs(net.now()); });
  }
  void Register(const std::string& skill, const std::string& description,
                const std::string& capability = "org-data-read") {
    kademlia::store::SkillRecord r = testing::SampleRecord("agent", skill);
    r.capabilities = {capability};
    r.descriptor = kademlia::store::SkillDescriptor{};
    r.descriptor->description = description;
    REQUIRE(registry->Register(net.now(), r).status == RegisterStatus::kSuccess);
  }
  FakeNetwork net;
  kademlia::Identity publisher = testing::Publisher("words-node");
  std::optional<Registry> registry;
};

std::vector<std::string> SkillsOf(const std::vector<SkillEntryPtr>& entries) {
  std::vector<std::string> out;
  for (const SkillEntryPtr& e : entries) out.push_back(e->record().skill_id);
  return out;
}

// The skills FindEntries(query, text) gives, checked against a walk over every registration
// matched word by word: the same skills in the same order.
std::vector<std::string> Found(const Registry& registry, const std::string& text,
                               SkillQuery query = {}) {
  text::TextMatch match = text::TextMatch::Create(text).value();
  std::vector<SkillEntryPtr> walked;
  for (const SkillEntryPtr& e : registry.FindEntries(query)) {
    if (match.MatchesWords(e->Words(match.analyzer()))) walked.push_back(e);
  }
  std::vector<SkillEntryPtr> found;
  for (const SkillEntryPtr& e :
       registry.FindEntries(query, match.query(), match.analyzer().language())) {
    if (match.MatchesWords(e->Words(match.analyzer()))) found.push_back(e);
  }
  CHECK(SkillsOf(found) == SkillsOf(walked));
  return SkillsOf(found);
}

TEST_CASE("a registry finds by text what a walk over every registration finds, in its order",
          "[sim]") {
  Net n;
  n.Register("s-3", "Books meetings in calendars");
  n.Register("s-1", "Finds and ranks invoices in spreadsheets");
  n.Register("s-2", "Ranks invoices in ledgers");
  n.Register("s-0", "Books flights and hotels");
  CHECK(Found(*n.registry, "invoices") == std::vector<std::string>{"s-1", "s-2"});
  CHECK(Found(*n.registry, "ranks invoices spread") == std::vector<std::string>{"s-1"});
  CHECK(Found(*n.registry, "book") == std::vector<std::string>{"s-0", "s-3"});
  CHECK(Found(*n.registry, "zebras").empty());
  // Filters beside the text still apply.
  n.Register("s-4", "Ranks invoices in archives", "billing");
  SkillQuery billing;
  billing.types = {"enterprise-skill"};
  CHECK(Found(*n.registry, "invoices", billing) == std::vector<std::string>{"s-1", "s-2", "s-4"});
  billing.capabilities = {"billing"};
  CHECK(Found(*n.registry, "invoices", billing) == std::vector<std::string>{"s-4"});
}

TEST_CASE("a registry's word postings follow updates and unregistrations", "[sim]") {
  Net n;
  n.Register("s-1", "Finds invoices in spreadsheets");
  n.Register("s-2", "Finds invoices in ledgers");
  CHECK(Found(*n.registry, "ledgers") == std::vector<std::string>{"s-2"});
  // An update with another description: filed under its new words only.
  n.Register("s-2", "Finds receipts in ledgers");
  CHECK(Found(*n.registry, "invoices") == std::vector<std::string>{"s-1"});
  CHECK(Found(*n.registry, "receipts") == std::vector<std::string>{"s-2"});
  // A heartbeat's status change makes a new version of the same words.
  REQUIRE(
      n.registry->Heartbeat(n.net.now(), "agent", "s-2", kademlia::store::SkillStatus::kDegraded));
  CHECK(Found(*n.registry, "receipts") == std::vector<std::string>{"s-2"});
  REQUIRE(n.registry->Unregister(n.net.now(), "agent", "s-2",
                                 kademlia::store::UnregisterReason::kShutdown));
  CHECK(Found(*n.registry, "receipts").empty());
  CHECK(Found(*n.registry, "finds") == std::vector<std::string>{"s-1"});
}

}  // namespace
}  // namespace skillnode::discovery
