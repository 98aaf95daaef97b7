// The keyword index's reader and replication in seeded many-node runs (SkillDht::GetTerm,
// terms::TermGetter, ReplicaHandoff): pointers STOREd on a term's holders read back heaviest
// first by another node, a full shard 0 read on into shard 1, `wanted`, a tombstone, hand-off to
// a newcomer closest to a term key, replica repair after a holder is evicted, and pointers held
// only beyond the r closest.
#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kademlia/store/skill_dht.h"
#include "support/dht_network.h"
#include "support/fake_network.h"
#include "support/records.h"
#include "support/term_pointers.h"

namespace skillnode::kademlia::store::terms {
namespace {

using testing::BuildDhtNetwork;
using testing::FakeNetwork;
using testing::Publisher;

SignedTermPointer Pointer(FakeNetwork& net, const std::string& term, const std::string& skill,
                          uint32_t weight, uint64_t sequence = 1, bool tombstone = false) {
  TermPointer p = testing::SampleTermPointer(skill, weight, sequence, term);
  if (tombstone) p = testing::TombstoneOf(std::move(p), sequence);
  p.timestamp_ms = SimulatedWallClockMs(net.now());
  return *SignTermPointer(p, Publisher());
}

// Node `from` STOREs `pointers` under `key` on the r (3) closest nodes its lookup finds.
void StoreOnHolders(FakeNetwork& net, size_t from, const Key& key,
                    const std::vector<SignedTermPointer>& pointers) {
  auto found = std::make_shared<std::optional<LookupResult>>();
  REQUIRE(net.node(from).FindNode(net.now(), key, [found](const LookupResult& r) { *found = r; }));
  net.RunFor(transport::Seconds(5));
  REQUIRE(found->has_value());
  const LookupResult& holders = **found;
  REQUIRE(holders.closest.size() >= 3);
  for (size_t i = 0; i < pointers.size(); ++i) {
    for (size_t h = 0; h < 3; ++h) {
      REQUIRE(net.node(from).Request(
          net.now(), holders.closest[h].endpoint, holders.closest[h].id,
          wire::StoreBody{key, holders.tokens[h],
                          wire::WireRecord{pointers[i].encoded, pointers[i].signature}, 1800},
          nullptr));
    }
    if (i % 32 == 31) net.RunFor(transport::Seconds(1));  // inside the holders' rate limits
  }
  net.RunFor(transport::Seconds(2));
}

// Hosts (not silent) holding pointers under `key`.
std::vector<size_t> PointerHolders(FakeNetwork& net, const Key& key) {
  std::vector<size_t> holders;
  for (size_t i = 0; i < net.size(); ++i) {
    if (!net.silent(i) && net.dht(i).terms().Count(key) > 0) holders.push_back(i);
  }
  return holders;
}

// Node `reader`'s read of `term`, given 60 s to finish.
TermGetResult Read(FakeNetwork& net, size_t reader, const std::string& term,
                   TermGetOptions options = {}) {
  auto result = std::make_shared<std::optional<TermGetResult>>();
  REQUIRE(net.dht(reader).GetTerm(
      net.now(), term, options,
      [result](transport::TimePoint, TermGetResult r) { *result = std::move(r); }));
  net.RunFor(transport::Seconds(60));
  REQUIRE(result->has_value());
  return **result;
}

// A node that holds nothing under `key` (not node 0, which stored).
size_t Reader(FakeNetwork& net, const Key& key) {
  size_t reader = 1;
  while (net.dht(reader).terms().Count(key) > 0) ++reader;
  return reader;
}

TEST_CASE("pointers stored on a term's holders are read by another node, heaviest first", "[sim]") {
  FakeNetwork net(/*seed=*/47);
  BuildDhtNetwork(net, 30, DhtConfig{});
  std::vector<SignedTermPointer> pointers;
  for (uint32_t i = 0; i < 12; ++i) {
    pointers.push_back(Pointer(net, "calendar", "skill-" + std::to_string(i), 100 + i * 50));
  }
  const Key key = TermKey("calendar");
  StoreOnHolders(net, 0, key, pointers);
  REQUIRE(PointerHolders(net, key).size() == 3);
  const TermGetResult result = Read(net, Reader(net, key), "calendar");
  CHECK(result.status == TermGetStatus::kFound);
  REQUIRE(result.pointers.size() == 12);
  for (size_t i = 1; i < result.pointers.size(); ++i) {
    CHECK(result.pointers[i - 1].pointer.weight_centi > result.pointers[i].pointer.weight_centi);
  }
  CHECK(result.shard0_count == 12);
  CHECK(result.shards_read == 1);
  CHECK(result.complete);
  CHECK(result.lookups == 1);
  CHECK(Read(net, Reader(net, key), "meeting").status == TermGetStatus::kNone);
}

TEST_CASE("a full shard 0 is read on into shard 1, which ends the read; wanted stops it sooner",
          "[sim]") {
  FakeNetwork net(/*seed=*/48);
  BuildDhtNetwork(net, 30, DhtConfig{});
  std::vector<SignedTermPointer> shard0, shard1;
  for (uint32_t i = 0; i < kTermPointersPerKeyMax; ++i) {
    shard0.push_back(Pointer(net, "data", "skill-" + std::to_string(i), 1000 + i));
  }
  for (uint32_t i = 0; i < 5; ++i) {
    shard1.push_back(Pointer(net, "data", "late-" + std::to_string(i), 100 + i));
  }
  StoreOnHolders(net, 0, TermKey("data", 0), shard0);
  StoreOnHolders(net, 0, TermKey("data", 1), shard1);
  const size_t reader = Reader(net, TermKey("data", 0));

  const TermGetResult full = Read(net, reader, "data");
  CHECK(full.pointers.size() == kTermPointersPerKeyMax + 5);
  CHECK(full.shard0_count == kTermPointersPerKeyMax);
  CHECK(full.shards_read == 2);
  CHECK(full.complete);
  CHECK(full.pointers.front().pointer.weight_centi == 1000 + kTermPointersPerKeyMax - 1);
  CHECK(full.pointers.back().pointer.skill_id == "late-0");
  // One holder's pages, not r holders': a page holds three or four pointers.
  CHECK(full.pages >= kTermPointersPerKeyMax / 4 - 3);
  CHECK(full.pages <= kTermPointersPerKeyMax / 2);
  CHECK(full.rejected == 0);

  const TermGetResult some =
      Read(net, reader, "data", TermGetOptions{.wanted = 20, .with_terms = {}});
  CHECK(some.pointers.size() >= 20);
  CHECK(some.pointers.size() < kTermPointersPerKeyMax);
  CHECK(some.shards_read == 1);
  CHECK_FALSE(some.complete);
  CHECK(some.pointers.front().pointer.weight_centi == 1000 + kTermPointersPerKeyMax - 1);
  CHECK(some.messages < full.messages);
}

TEST_CASE("a tombstone pointer stored over a live one hides it from readers", "[sim]") {
  FakeNetwork net(/*seed=*/49);
  BuildDhtNetwork(net, 30, DhtConfig{});
  const Key key = TermKey("invoice");
  StoreOnHolders(
      net, 0, key,
      {Pointer(net, "invoice", "skill-a", 500), Pointer(net, "invoice", "skill-b", 300)});
  StoreOnHolders(net, 0, key, {Pointer(net, "invoice", "skill-a", 0, 2, true)});
  const TermGetResult result = Read(net, Reader(net, key), "invoice");
  REQUIRE(result.pointers.size() == 1);
  CHECK(result.pointers[0].pointer.skill_id == "skill-b");
  CHECK(result.shard0_count == 2);
}

TEST_CASE("a newcomer closest to a term key is handed its pointers as it joins", "[sim]") {
  FakeNetwork net(/*seed=*/50);
  BuildDhtNetwork(net, 30, DhtConfig{});
  KademliaConfig config;
  config.routing.bucket_size = 8;
  net.AddDhtNode(config, DhtConfig{});
  const size_t newcomer = 30;
  // A term whose key the newcomer is the closest node of all to.
  std::string term;
  for (int i = 0; term.empty(); ++i) {
    const std::string candidate = "term" + std::to_string(i);
    const Key key = TermKey(candidate);
    bool closest = true;
    for (size_t n = 0; n < newcomer && closest; ++n) {
      closest = CloserTo(key, net.node(newcomer).id(), net.node(n).id());
    }
    if (closest) term = candidate;
  }
  const Key key = TermKey(term);
  StoreOnHolders(net, 0, key,
                 {Pointer(net, term, "skill-a", 500), Pointer(net, term, "skill-b", 300)});
  REQUIRE(net.dht(newcomer).terms().Count(key) == 0);
  const transport::Endpoint seed = net.endpoint(0);
  net.node(newcomer).Join(net.now(), std::span(&seed, 1), nullptr);
  net.RunFor(transport::Seconds(30));
  CHECK(net.dht(newcomer).terms().Count(key) == 2);
  uint64_t handed = 0;
  for (size_t i = 0; i < net.size(); ++i) handed += net.dht(i).stats().term_handoff_pointers;
  CHECK(handed >= 2);
}

TEST_CASE(
    "when a holder of a term key is evicted, the others give its pointers to the node in "
    "its place",
    "[sim]") {
  FakeNetwork net(/*seed=*/51);
  BuildDhtNetwork(net, 40, DhtConfig{});
  const Key key = TermKey("weather");
  // Stored from the node farthest from the key, itself none of its closest (a lookup does not
  // return the node that runs it, so a storer among the closest would leave a gap its
  // neighbours do not repair).
  size_t storer = 0;
  for (size_t i = 1; i < net.size(); ++i) {
    if (CloserTo(key, net.node(storer).id(), net.node(i).id())) storer = i;
  }
  StoreOnHolders(
      net, storer, key,
      {Pointer(net, "weather", "skill-a", 500), Pointer(net, "weather", "skill-b", 300)});
  const std::vector<size_t> before = PointerHolders(net, key);
  REQUIRE(before.size() == 3);
  const size_t gone = before.back();
  net.SetSilent(gone, true);
  testing::EvictFromHolders(net, before, gone);
  net.RunFor(transport::Seconds(5));
  const std::vector<size_t> after = PointerHolders(net, key);
  CHECK(after.size() == before.size());
  CHECK(std::find(after.begin(), after.end(), gone) == after.end());
  for (size_t holder : after) CHECK(net.dht(holder).terms().Count(key) == 2);
}

TEST_CASE("pointers held only beyond a term key's r closest are read page by page, then repaired",
          "[sim]") {
  // Churn pushes a holder past the r-th place when newcomers land before it: its pointers are
  // read in full (not only its first page), and the read stores them on the r closest.
  FakeNetwork net(/*seed=*/53);
  BuildDhtNetwork(net, 40, DhtConfig{});
  const Key key = TermKey("harbor");
  auto found = std::make_shared<std::optional<LookupResult>>();
  REQUIRE(net.node(0).FindNode(net.now(), key, [found](const LookupResult& r) { *found = r; }));
  net.RunFor(transport::Seconds(5));
  REQUIRE(found->has_value());
  const LookupResult& closest = **found;
  REQUIRE(closest.closest.size() >= 6);
  // The fifth closest the storer knows holds ten pointers, three or four to a page.
  const size_t fifth = 4;
  for (int i = 0; i < 10; ++i) {
    const SignedTermPointer p = Pointer(net, "harbor", "skill-" + std::to_string(i), 100 + i);
    REQUIRE(net.node(0).Request(
        net.now(), closest.closest[fifth].endpoint, closest.closest[fifth].id,
        wire::StoreBody{key, closest.tokens[fifth], wire::WireRecord{p.encoded, p.signature}, 1800},
        nullptr));
  }
  net.RunFor(transport::Seconds(2));
  const std::vector<size_t> holders = PointerHolders(net, key);
  REQUIRE(holders.size() == 1);
  REQUIRE(net.dht(holders.front()).terms().Count(key) == 10);
  size_t reader = 1;
  while (reader == holders.front() ||
         std::any_of(closest.closest.begin(), closest.closest.begin() + 6,
                     [&](const Contact& c) { return c.id == net.node(reader).id(); })) {
    ++reader;
  }
  const TermGetResult result = Read(net, reader, "harbor");
  CHECK(result.status == TermGetStatus::kFound);
  CHECK(result.pointers.size() == 10);
  CHECK(result.pages > 0);
  // The read stored what it found on the r closest that answered without it.
  CHECK(net.dht(reader).stats().term_read_repairs > 0);
  CHECK(PointerHolders(net, key).size() > 1);
}

}  // namespace
}  // namespace skillnode::kademlia::store::terms
