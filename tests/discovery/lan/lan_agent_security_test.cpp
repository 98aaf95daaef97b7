// The LAN agent's security modes on the fake LAN: require mode with a shared key, certificate
// mode's CHALLENGE, and verify mode. The rest of the agent is tested in lan_agent_test.cpp.
#include <catch2/catch.hpp>
#include <string>
#include <variant>
#include <vector>

#include "discovery/lan/lan_agent.h"
#include "discovery/lan/lan_security.h"
#include "lan_fixture.h"
#include "support/test_pki.h"

namespace skillnode::discovery::lan {
namespace {

using kademlia::store::SkillStatus;
using lan_test::Host;
using lan_test::kProgram;
using lan_test::kRemote;
using lan_test::Lan;
using lan_test::LastAck;
using lan_test::RegisterText;

TEST_CASE("require mode with a shared key takes signed messages and refuses the rest", "[unit]") {
  AuthConfig auth;
  auth.mode = AuthMode::kRequire;
  const std::string key = "a shared LAN key";
  auth.shared_key.assign(key.begin(), key.end());
  Lan lan(auth);
  Host& a = *lan.a;
  a.Hear(kProgram, RegisterText(a.Wall()), true);
  CHECK(LastAck(a, kProgram).starts_with("SKILL_REGISTER_ACK:agent-001;UNAUTHORIZED;unsigned"));
  CHECK(a.registry->size() == 0);

  std::string text = RegisterText(a.Wall());
  text.pop_back();
  const std::string signed_text = text + ";" + HmacSign(auth.shared_key, text);
  a.Hear(kProgram, signed_text, true);
  CHECK(LastAck(a, kProgram).starts_with("SKILL_REGISTER_ACK:agent-001;SUCCESS;"));
  a.Hear(kProgram, signed_text, true);
  CHECK(a.agent->stats().dropped.at("replayed") == 1);
  const std::string old = RegisterText(a.Wall() - 60'000);
  const std::string stale = old.substr(0, old.size() - 1);
  a.Hear(kProgram, stale + ";" + HmacSign(auth.shared_key, stale), true);
  CHECK(a.agent->stats().dropped.at("stale") == 1);
  a.Hear(kProgram, text + ";" + HmacSign(std::vector<uint8_t>(16, 7), text), true);
  CHECK(a.agent->stats().dropped.at("bad_signature") == 1);

  // Nodes sign what they send, so B hears A's announcements.
  lan.Advance(transport::Millis(50));
  CHECK(lan.FoundOnB("org-data-read").size() == 1);
}

// The datagram `text` (ending with its empty signature field) signed by `signer`.
std::string SignedBy(const Signer& signer, std::string text) {
  text.pop_back();
  return text + ";" + signer.Sign(text);
}

// Registers agent-001 in certificate mode, answering the node's CHALLENGE with `chain`; returns
// the SKILL_REGISTER_ACK.
std::string RegisterWithChallenge(Host& a, const testing::TestIdentity& leaf,
                                  const std::string& chain_pem, const std::string& chain) {
  auto signer = Signer::FromPem(leaf.key_pem, chain_pem);
  REQUIRE(signer);
  a.Hear(kProgram, SignedBy(**signer, RegisterText(a.Wall())), true);
  auto challenge = Parse(LastAck(a, kProgram));
  REQUIRE(challenge);
  REQUIRE(std::holds_alternative<Challenge>(*challenge));
  const std::string nonce = std::get<Challenge>(*challenge).nonce;
  a.Hear(kProgram,
         SignedBy(**signer, "CHALLENGE_RESPONSE:agent-001;" + nonce + ";" + chain + ";" +
                                std::to_string(a.Wall()) + ";"),
         true);
  return LastAck(a, kProgram);
}

TEST_CASE("certificate mode challenges a first registration and takes it once answered", "[unit]") {
  const testing::TestPki& pki = testing::SharedTestPki();
  AuthConfig auth;
  auth.mode = AuthMode::kRequire;
  auth.roots = std::move(TrustStore::FromPem(pki.root.cert_pem).value());
  Lan lan(auth);
  Host& a = *lan.a;
  const std::string ack =
      RegisterWithChallenge(a, pki.agent, pki.ChainPem(pki.agent), pki.Chain(pki.agent));
  CHECK(ack.starts_with("SKILL_REGISTER_ACK:agent-001;SUCCESS;"));
  CHECK(a.registry->size() == 1);
  CHECK(a.agent->stats().challenges_passed == 1);
  // The certificate is known now: a signed heartbeat is taken without another challenge.
  auto signer = Signer::FromPem(pki.agent.key_pem, pki.ChainPem(pki.agent));
  REQUIRE(signer);
  a.Hear(kProgram,
         SignedBy(**signer, "SKILL_HEARTBEAT:agent-001;skill-org-feishu;DEGRADED;" +
                                std::to_string(a.Wall()) + ";"),
         true);
  CHECK(a.registry->Records()[0].status == SkillStatus::kDegraded);
}

TEST_CASE("certificate mode answers a chain from a foreign root UNAUTHORIZED", "[unit]") {
  const testing::TestPki& pki = testing::SharedTestPki();
  AuthConfig auth;
  auth.mode = AuthMode::kRequire;
  auth.roots = std::move(TrustStore::FromPem(pki.root.cert_pem).value());
  Lan lan(auth);
  const std::string ack = RegisterWithChallenge(*lan.a, pki.foreign_leaf, pki.foreign_leaf.cert_pem,
                                                pki.foreign_leaf.cert_base64);
  CHECK(ack.starts_with("SKILL_REGISTER_ACK:agent-001;UNAUTHORIZED;certificate"));
  CHECK(lan.a->registry->size() == 0);
  CHECK(lan.a->agent->stats().challenges_failed == 1);
}

TEST_CASE("verify mode takes the unsigned from this host only", "[unit]") {
  AuthConfig auth;
  auth.mode = AuthMode::kVerify;
  auth.shared_key = {1, 2, 3};
  Lan lan(auth);
  lan.a->Hear(kProgram, RegisterText(lan.a->Wall()), true);
  CHECK(lan.a->registry->size() == 1);
  lan.b->Hear(kRemote, RegisterText(lan.b->Wall()), false);
  CHECK(lan.b->agent->stats().dropped.at("unsigned") == 1);
}

// The registration passed the authenticator (the registry took it, or had it already).
bool Taken(const std::string& ack) {
  return ack.starts_with("SKILL_REGISTER_ACK:agent-001;SUCCESS;") ||
         ack.starts_with("SKILL_REGISTER_ACK:agent-001;DUPLICATE;");
}

TEST_CASE("a reconfigured authenticator takes the new mode and key at once", "[unit]") {
  Lan lan;  // security off
  Host& a = *lan.a;
  a.Hear(kProgram, RegisterText(a.Wall()), true);
  CHECK(LastAck(a, kProgram).starts_with("SKILL_REGISTER_ACK:agent-001;SUCCESS;"));

  // A reload: require mode with a shared key.
  const std::vector<uint8_t> first(16, 1), second(16, 2);
  AuthConfig require;
  require.mode = AuthMode::kRequire;
  require.shared_key = first;
  a.auth.Reconfigure(std::move(require));
  CHECK(a.auth.mode() == AuthMode::kRequire);
  a.Hear(kProgram, RegisterText(a.Wall()), true);
  CHECK(LastAck(a, kProgram).starts_with("SKILL_REGISTER_ACK:agent-001;UNAUTHORIZED;unsigned"));
  std::string text = RegisterText(a.Wall());
  text.pop_back();
  a.Hear(kProgram, text + ";" + HmacSign(first, text), true);
  CHECK(Taken(LastAck(a, kProgram)));

  // Another reload rotates the key: the old one no longer verifies.
  AuthConfig rotated;
  rotated.mode = AuthMode::kRequire;
  rotated.shared_key = second;
  a.auth.Reconfigure(std::move(rotated));
  std::string later = RegisterText(a.Wall() + 1);
  later.pop_back();
  a.Hear(kProgram, later + ";" + HmacSign(first, later), true);
  CHECK(a.agent->stats().dropped.at("bad_signature") == 1);
  a.Hear(kProgram, later + ";" + HmacSign(second, later), true);
  CHECK(Taken(LastAck(a, kProgram)));
  CHECK(a.agent->stats().dropped.at("bad_signature") == 1);
}

}  // namespace
}  // namespace skillnode::discovery::lan
