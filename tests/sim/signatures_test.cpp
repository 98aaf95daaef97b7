// The simulator's ideal signatures answer as Ed25519 does for everything a simulated host can
// do, so a scenario measures the same with either (sim/hosts/ideal_signatures.h).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kademlia/store/record/skill_record.h"
#include "sim/hosts/ideal_signatures.h"
#include "sim_util.h"

namespace skillnode::sim {
namespace {

using testing::RunOne;

kademlia::Identity IdentityNumber(uint8_t n) {
  kademlia::Seed seed{};
  seed.fill(n);
  return kademlia::Identity::FromSeed(seed);
}

kademlia::store::SkillRecord Record() {
  kademlia::store::SkillRecord r;
  r.agent_id = "agent";
  r.skill_id = "skill";
  r.version = "1.0.0";
  r.skill_type = "tool-skill";
  r.endpoint = "10.0.0.1:7000";
  r.capabilities = {"translate"};
  r.sequence = 1;
  r.ttl_seconds = 600;
  return r;
}

TEST_CASE("an ideal signature verifies only for its signer's key and its message", "[unit]") {
  hosts::IdealSignatures scheme;
  const auto alice = IdentityNumber(1);
  const auto mallory = IdentityNumber(2);
  const auto stranger = IdentityNumber(3);  // never registered
  scheme.Register(alice);
  scheme.Register(mallory);
  scheme.Register(alice);  // again: harmless
  CHECK(scheme.identities() == 2);

  const std::vector<uint8_t> message = {1, 2, 3, 4};
  const auto signature = scheme.Sign(alice, message);
  CHECK(scheme.Verify(alice.public_key(), message, signature));
  CHECK_FALSE(scheme.Verify(alice.public_key(), std::vector<uint8_t>{1, 2, 3, 5}, signature));
  CHECK_FALSE(scheme.Verify(mallory.public_key(), message, signature));
  // Mallory signing in Alice's name does not verify under Alice's key.
  CHECK_FALSE(scheme.Verify(alice.public_key(), message, scheme.Sign(mallory, message)));
  // A key the simulator never issued verifies nothing, not even its own holder's signature.
  CHECK_FALSE(scheme.Verify(stranger.public_key(), message, scheme.Sign(stranger, message)));
  // And it is not Ed25519: an Ed25519 signature does not verify as an ideal one.
  CHECK_FALSE(scheme.Verify(alice.public_key(), message, alice.Sign(message)));
}

TEST_CASE("records signed with the ideal scheme verify with it and refuse tampering", "[unit]") {
  hosts::IdealSignatures scheme;
  const auto alice = IdentityNumber(1);
  const auto mallory = IdentityNumber(2);
  scheme.Register(alice);
  scheme.Register(mallory);
  auto signed_record = kademlia::store::SignRecord(Record(), alice, scheme);
  REQUIRE(signed_record);
  CHECK(kademlia::store::VerifyRecord(signed_record->encoded, signed_record->signature, scheme));
  CHECK_FALSE(kademlia::store::VerifyRecord(signed_record->encoded, signed_record->signature));

  // Mallory re-signs Alice's record (publisher field still Alice): refused.
  CHECK_FALSE(kademlia::store::VerifyRecord(signed_record->encoded,
                                            scheme.Sign(mallory, signed_record->encoded), scheme));
  // Alice's signature over a changed endpoint: refused.
  kademlia::store::SkillRecord changed = signed_record->record;
  changed.endpoint = "10.6.6.6:7000";
  CHECK_FALSE(kademlia::store::VerifyRecord(kademlia::store::EncodeRecord(changed),
                                            signed_record->signature, scheme));
}

// Records, a forging adversary, churn and loss: every kind of signature a run checks.
const std::string kForgeryUnderChurn = R"(
seed: 31
nodes: 40
kademlia: {k: 8, alpha: 3}
network:
  build: join
  join_interval_ms: 50
  latency: {model: regions}
  loss: 0.02
churn:
  session: {distribution: weibull, shape: 0.5, mean_s: 600}
  rejoin: lose
adversaries: {fraction: 0.2, model: forge_records}
workload: {lookup_interval_s: 30, warmup_s: 60, measure_s: 180, drain_s: 30}
records: {replication: 3, records_per_node: 1, republish_s: 60, gets_per_node_per_min: 2}
)";

TEST_CASE("crypto: ideal and crypto: ed25519 measure exactly the same run", "[sim]") {
  const report::PointResult ideal = RunOne("crypto: ideal\n" + kForgeryUnderChurn);
  const report::PointResult ed25519 = RunOne("crypto: ed25519\n" + kForgeryUnderChurn);
  const report::RunSummary& a = ideal.summary;
  const report::RunSummary& b = ed25519.summary;
  // The trace hash covers datagram bytes, signatures included, so it differs; what the
  // simulation did and measured does not.
  CHECK(a.trace_hash != b.trace_hash);
  CHECK(a.events == b.events);
  CHECK(a.network.delivered == b.network.delivered);
  CHECK(a.network.lost == b.network.lost);
  CHECK(a.lookups.lookups == b.lookups.lookups);
  CHECK(a.lookups.successes == b.lookups.successes);
  CHECK(a.records.gets_checked == b.records.gets_checked);
  CHECK(a.records.gets_found == b.records.gets_found);
  CHECK(a.records.records_rejected == b.records.records_rejected);
  CHECK(a.records.records_unknown == b.records.records_unknown);
  CHECK(a.adversary.records_forged == b.adversary.records_forged);
  REQUIRE(ideal.lookups.size() == ed25519.lookups.size());
  for (size_t i = 0; i < ideal.lookups.size(); ++i) {
    CHECK(ideal.lookups[i].latency_ms == ed25519.lookups[i].latency_ms);
  }
  // The run checked forgeries and refused them, and found records.
  CHECK(a.adversary.records_forged > 0);
  CHECK(a.records.records_rejected > 0);
  CHECK(a.records.records_unknown == 0);
  CHECK(a.records.gets_found > 0);
}

}  // namespace
}  // namespace skillnode::sim
