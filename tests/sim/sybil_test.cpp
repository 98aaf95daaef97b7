// S/Kademlia's threat model: ids computed in advance (sybil) and honest ids at adversary
// addresses (impersonate). The pool's ids are real key hashes whose signatures verify; the
// id-to-key binding rejects every impersonation; disjoint paths keep reaching the closest
// honest node.
#include "sim/adversaries/sybil.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "sim/hosts/ideal_signatures.h"
#include "sim/network/addressing.h"
#include "sim_util.h"

namespace skillnode::sim {
namespace {

using kademlia::Key;

constexpr uint32_t kAliasFirst = 5000;

kademlia::Seed SecretFor(const std::string& name) { return Key::Sha256(name).bytes(); }

kademlia::wire::Message FindNode(const kademlia::Identity& from, const Key& target, uint64_t txid) {
  kademlia::wire::Message m;
  m.header.txid = txid;
  m.header.sender_id = from.node_id();
  m.header.sender_key = from.public_key();
  m.header.proof_wanted = true;
  m.body = kademlia::wire::FindNodeBody{target};
  return m;
}

TEST_CASE("a sybil pool's ids are the hashes of keys whose signatures verify", "[unit]") {
  const adversaries::SybilPool pool(4096, SecretFor("pool"), kAliasFirst);
  REQUIRE(pool.size() == 4096);
  hosts::IdealSignatures signatures;
  const std::vector<uint8_t> message = {1, 2, 3};
  const kademlia::Signature signature = pool.Sign(17, message);
  CHECK_FALSE(signatures.Verify(pool.key(17), message, signature));  // not yet accepted
  signatures.AcceptDerivedKeys(SecretFor("pool"));
  CHECK(signatures.Verify(pool.key(17), message, signature));
  CHECK_FALSE(signatures.Verify(pool.key(18), message, signature));  // another id's key
  const adversaries::SybilPool other(1024, SecretFor("other pool"), kAliasFirst);
  CHECK_FALSE(signatures.Verify(other.key(17), message, other.Sign(17, message)));
  for (const workloads::OracleEntry& e : pool.ids().entries()) {
    if (e.slot % 512 == 0) CHECK(e.id == kademlia::NodeIdOf(pool.key(e.slot)));
  }
}

TEST_CASE("a sybil answers with fresh pool ids closer than itself, at their own addresses",
          "[unit]") {
  const adversaries::SybilPool pool(1 << 14, SecretFor("pool"), kAliasFirst);
  const kademlia::Identity honest = kademlia::Identity::FromSeed(SecretFor("honest"));
  const Key target = Key::Sha256("target");
  // The pool id ranked 40th closest answers.
  const workloads::OracleEntry self = pool.ids().Closest(target, 40).back();
  const kademlia::PublicKey key = pool.key(self.slot);
  const adversaries::Claim claim{
      self.id, key, [&](std::span<const uint8_t> bytes) { return pool.Sign(self.slot, bytes); }};
  std::set<Key> handed_out;
  for (uint64_t txid = 1; txid <= 8; ++txid) {
    const auto reply = adversaries::SybilAnswer(claim, FindNode(honest, target, txid),
                                                network::EndpointOfSlot(1), pool, 8, 0);
    REQUIRE(reply);
    CHECK(reply->header.sender_id == self.id);
    CHECK(kademlia::NodeIdOf(reply->header.sender_key) == self.id);
    REQUIRE(reply->header.proof);
    const auto* nodes = std::get_if<kademlia::wire::NodesBody>(&reply->body);
    REQUIRE(nodes);
    REQUIRE(nodes->nodes.size() == 8);
    for (const kademlia::wire::WireContact& c : nodes->nodes) {
      CHECK(kademlia::CloserTo(target, c.id, self.id));
      const uint32_t index = network::SlotOfEndpoint(c.endpoint).value() - kAliasFirst;
      CHECK(kademlia::NodeIdOf(pool.key(index)) == c.id);
      handed_out.insert(c.id);
    }
    // The same request gets the same answer.
    CHECK(adversaries::SybilAnswer(claim, FindNode(honest, target, txid),
                                   network::EndpointOfSlot(1), pool, 8, 0)
              ->header.sender_id == self.id);
  }
  CHECK(handed_out.size() > 16);   // draws differ from reply to reply
  CHECK(handed_out.size() <= 32);  // ... among the closest 4k closer than itself
  // The closest pool id has nothing closer to name.
  const workloads::OracleEntry closest = pool.ids().Closest(target, 1).front();
  const adversaries::Claim first{
      closest.id, pool.key(closest.slot),
      [&](std::span<const uint8_t> b) { return pool.Sign(closest.slot, b); }};
  const auto none = adversaries::SybilAnswer(first, FindNode(honest, target, 9),
                                             network::EndpointOfSlot(1), pool, 8, 0);
  CHECK(std::get<kademlia::wire::NodesBody>(none->body).nodes.empty());
}

TEST_CASE("an impersonator names the closest honest nodes at addresses of its own", "[unit]") {
  std::vector<workloads::OracleEntry> entries;
  for (uint32_t slot = 0; slot < 300; ++slot) {
    std::string name = "node-";
    name += std::to_string(slot);
    entries.push_back(workloads::OracleEntry{Key::Sha256(name), slot});
  }
  workloads::Oracle live;
  live.Assign(entries);
  const uint32_t honest_slots = 200;  // slots 200.. are adversaries
  const kademlia::Identity me = kademlia::Identity::FromSeed(SecretFor("impostor"));
  const kademlia::Identity asker = kademlia::Identity::FromSeed(SecretFor("asker"));
  const adversaries::Claim claim{me.node_id(), me.public_key(),
                                 [&](std::span<const uint8_t> bytes) {
                                   return kademlia::Ed25519Signatures().Sign(me, bytes);
                                 }};
  const Key target = Key::Sha256("target");
  const auto reply = adversaries::ImpersonationAnswer(claim, FindNode(asker, target, 3),
                                                      network::EndpointOfSlot(1), live,
                                                      honest_slots, kAliasFirst, 8, 0);
  REQUIRE(reply);
  const auto& nodes = std::get<kademlia::wire::NodesBody>(reply->body).nodes;
  const auto truth =
      live.Closest(target, 8, [](const workloads::OracleEntry& e) { return e.slot < 200; });
  REQUIRE(nodes.size() == 8);
  for (size_t i = 0; i < nodes.size(); ++i) {
    CHECK(nodes[i].id == truth[i].id);
    CHECK(network::SlotOfEndpoint(nodes[i].endpoint) == kAliasFirst + truth[i].slot);
  }
}

// N = 1,000 static, 20 % adversaries, S/Kademlia's k = 2d: one path (k = 2) against four
// (k = 8).
std::string ThreatScenario(const std::string& model, int paths) {
  std::string yaml = "seed: 5\nnodes: 1000\nkademlia: {alpha: 1, k: ";
  yaml += std::to_string(2 * paths);
  yaml += ", disjoint_paths: ";
  yaml += std::to_string(paths);
  yaml += "}\nnetwork: {build: oracle, latency: {model: constant, rtt_ms: 50}}\n";
  yaml += "adversaries: {model: ";
  yaml += model;
  yaml += ", fraction: 0.2, sybil_ids: 65536}\nworkload: {lookups: 300, lookup_rate_per_s: 100}\n";
  return yaml;
}

TEST_CASE("against sybils, disjoint paths reach the closest honest node; results show the ids",
          "[sim]") {
  const report::RunSummary one = testing::RunOne(ThreatScenario("sybil", 1)).summary;
  const report::RunSummary four = testing::RunOne(ThreatScenario("sybil", 4)).summary;
  INFO("reached: d=1 " << one.lookups.reached_rate << ", d=4 " << four.lookups.reached_rate);
  CHECK(one.adversary.eclipse_replies > 0);
  CHECK(one.lookups.reached_rate < 0.8);
  CHECK(four.lookups.reached_rate >= 0.9);
  // Fabricated ids closer than any honest node fill the merged k closest whenever one path
  // meets an adversary: the result holds the closest honest node far less often.
  CHECK(four.lookups.success_rate < four.lookups.reached_rate - 0.3);
  // Pool ids that answered a lookup are verified peers like any other: the census of the
  // honest tables finds them there.
  REQUIRE(four.adversary_tables);
  const adversaries::TableCensus& tables = *four.adversary_tables;
  INFO("adversarial contacts " << tables.adversarial << " of " << tables.contacts << ", nearest "
                               << tables.nearest_adversarial << " of " << tables.nearest);
  CHECK(tables.adversarial > 0);
  CHECK(tables.adversarial < tables.contacts);
  CHECK(tables.nearest > 0);
  CHECK(tables.nearest <= tables.contacts);
  CHECK(tables.nearest_adversarial <= tables.nearest);
}

TEST_CASE("every impersonation is rejected by the binding, and lookups still reach the node",
          "[sim]") {
  const report::RunSummary four = testing::RunOne(ThreatScenario("impersonate", 4)).summary;
  const uint64_t impersonations = four.adversary.impersonations;
  INFO("impersonations " << impersonations << ", reached " << four.lookups.reached_rate);
  CHECK(impersonations > 100);
  const auto mismatches =
      four.node_totals.dropped[static_cast<size_t>(kademlia::DropReason::kIdMismatch)];
  CHECK(mismatches == impersonations);
  CHECK(four.node_totals.rpcs_rejected == impersonations);
  // Asked again at the address an honest node named, the closest honest node answers.
  CHECK(four.lookups.reached_rate >= 0.95);
  CHECK(four.lookups.success_rate >= 0.95);
}

}  // namespace
}  // namespace skillnode::sim
