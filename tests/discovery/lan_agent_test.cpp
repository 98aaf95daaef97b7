// The LAN agent on a fake LAN with a fake clock: registrations by programs on the node's own
// host (SKILL_REGISTER with its ACKs, heartbeats, unregistration), announcements heard by
// another host's node, SKILL_DISCOVER answered and split, the search's LAN round, peers from
// SKILLNODE_HELLO, security modes, rate limits and bad datagrams.
#include "discovery/lan/lan_agent.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "discovery/lan/lan_security.h"
#include "support/fake_network.h"
#include "support/records.h"
#include "support/test_pki.h"

namespace skillnode::discovery::lan {
namespace {

using kademlia::SkillStatus;
using testing::FakeNetwork;

constexpr uint64_t kWallStartMs = 1'800'000'000'000;
const Endpoint kProgram(Address::V4({10, 0, 0, 1}), 40001);  // an agent on host A
const Endpoint kHostA(Address::V4({10, 0, 0, 1}), 50001);    // node A's send socket
const Endpoint kHostB(Address::V4({10, 0, 0, 2}), 50002);    // node B's send socket
const Endpoint kRemote(Address::V4({10, 0, 0, 9}), 40009);   // a program on another host

struct Sent {
  std::optional<Endpoint> to;  // nullopt: to the group
  std::string datagram;
};

class CapturingOutput final : public LanOutput {
 public:
  void SendToGroup(std::string_view datagram) override {
    sent.push_back(Sent{std::nullopt, std::string(datagram)});
  }
  void SendTo(const Endpoint& to, std::string_view datagram) override {
    sent.push_back(Sent{to, std::string(datagram)});
  }
  std::vector<std::string> To(const Endpoint& to) const {
    std::vector<std::string> out;
    for (const Sent& s : sent) {
      if (s.to == to) out.push_back(s.datagram);
    }
    return out;
  }
  std::vector<Sent> sent;
};

// One host of the LAN: a one-node DHT for its registry, and its LAN agent.
struct Host {
  Host(FakeNetwork& net, size_t index, const std::string& name, AuthConfig auth_config,
       size_t per_agent_max, LanConfig config = {})
      : net(net), publisher(testing::Publisher(name)), auth(std::move(auth_config)) {
    RegistryConfig registry_config;
    registry_config.health = HealthPolicy{Millis(5000), Millis(30000), 3};
    registry_config.registrations_per_agent_max = per_agent_max;
    registry.emplace(net.dht(index), publisher, registry_config, [this] { return Wall(); });
    config.node_id = publisher.node_id().ToHex();
    config.dht_port = 6881;
    config.broadcast_interval = Millis(1000);
    config.entry_timeout = Millis(3000);
    agent.emplace(config, *registry, auth, out, rng, [this] { return Wall(); });
    agent->Start(net.now());
  }
  uint64_t Wall() const {
    return kWallStartMs + static_cast<uint64_t>((net.now() - kTimeZero).count() / 1000);
  }
  void Hear(const Endpoint& from, const std::string& datagram, bool from_this_host) {
    agent->OnDatagram(net.now(), from, datagram, from_this_host);
  }

  FakeNetwork& net;
  kademlia::Identity publisher;
  Rng rng{42};
  LanAuthenticator auth;
  CapturingOutput out;
  std::optional<Registry> registry;
  std::optional<LanAgent> agent;
};

// Two hosts, A and B, whose group sends reach each other.
struct Lan {
  explicit Lan(AuthConfig auth = {}, size_t per_agent_max = 1000) : net(3) {
    net.AddDhtNode(kademlia::KademliaConfig{}, kademlia::DhtConfig{});
    net.AddDhtNode(kademlia::KademliaConfig{}, kademlia::DhtConfig{});
    a.emplace(net, 0, "host-a", auth, per_agent_max);
    b.emplace(net, 1, "host-b", auth, per_agent_max);
  }
  // Delivers what each host sent to the group to the other, then runs their timers.
  void Advance(Duration duration) {
    const TimePoint until = net.now() + duration;
    while (net.now() < until) {
      Flush();
      net.RunFor(Millis(10));
      for (Host* host : {&*a, &*b}) {
        if (host->agent->NextDeadline() <= net.now()) host->agent->OnTimer(net.now());
      }
    }
    Flush();
  }
  void Flush() {
    for (auto [from, to, at] : {std::tuple{&*a, &*b, kHostA}, std::tuple{&*b, &*a, kHostB}}) {
      for (size_t i = delivered[from == &*a ? 0 : 1]; i < from->out.sent.size(); ++i) {
        const Sent s = from->out.sent[i];
        const Endpoint target = from == &*a ? kHostB : kHostA;
        if (!s.to || *s.to == target) to->Hear(at, s.datagram, false);
      }
      delivered[from == &*a ? 0 : 1] = from->out.sent.size();
    }
  }
  std::vector<kademlia::SkillRecord> FoundOnB(const std::string& capability) {
    SkillQuery query;
    query.capabilities = {capability};
    return b->agent->FindOnLan(query);
  }

  FakeNetwork net;
  std::optional<Host> a;
  std::optional<Host> b;
  size_t delivered[2] = {0, 0};
};

std::string RegisterText(uint64_t timestamp, const std::string& skill = "skill-org-feishu") {
  return "SKILL_REGISTER:agent-001;" + skill +
         ";0.7.0;enterprise-skill;10.0.0.1:8080;org-data-read,user-auth;auth;" +
         std::to_string(timestamp) + ";";
}

std::string LastAck(const Host& host, const Endpoint& to) {
  const auto acks = host.out.To(to);
  return acks.empty() ? std::string() : acks.back();
}

TEST_CASE("a program on this host registers by SKILL_REGISTER and is answered with its ACK",
          "[unit]") {
  Lan lan;
  Host& a = *lan.a;
  a.Hear(kProgram, RegisterText(a.Wall()), true);
  CHECK(LastAck(a, kProgram).starts_with("SKILL_REGISTER_ACK:agent-001;SUCCESS;"));
  REQUIRE(a.registry->size() == 1);
  CHECK(a.registry->Records()[0].endpoint == "10.0.0.1:8080");
  a.Hear(kProgram, RegisterText(a.Wall() + 1), true);
  CHECK(LastAck(a, kProgram).starts_with("SKILL_REGISTER_ACK:agent-001;DUPLICATE;"));
  std::string many;
  for (int i = 0; i < 17; ++i) many += (i ? ",c" : "c") + std::to_string(i);
  a.Hear(
      kProgram,
      "SKILL_REGISTER:agent-001;skill-x;0.7.0;enterprise-skill;10.0.0.1:8080;" + many + ";auth;1;",
      true);
  std::string ack = LastAck(a, kProgram);
  CHECK(ack.starts_with("SKILL_REGISTER_ACK:agent-001;INVALID;"));
  CHECK(ack.find("capabilities") != std::string::npos);
  a.Hear(kProgram,
         "SKILL_REGISTER:agent-001;skill-y;0.7.0;tool-skill;" + std::string(300, 'e') +
             ";read;auth;1;",
         true);
  ack = LastAck(a, kProgram);
  CHECK(ack.starts_with("SKILL_REGISTER_ACK:agent-001;INVALID;"));
  CHECK(ack.find("endpoint") != std::string::npos);
  CHECK(a.agent->stats().dropped.at("malformed") == 2);
  CHECK(a.registry->size() == 1);

  a.Hear(kProgram, "SKILL_HEARTBEAT:agent-001;skill-org-feishu;DEGRADED;1;", true);
  CHECK(a.registry->Records()[0].status == SkillStatus::kDegraded);
  a.Hear(kProgram, "SKILL_UNREGISTER:agent-001;skill-org-feishu;SHUTDOWN;2;", true);
  CHECK(a.registry->size() == 0);
  a.Hear(kProgram, "SKILL_HEARTBEAT:agent-001;skill-org-feishu;HEALTHY;3;", true);
  CHECK(a.agent->stats().dropped.at("unknown_skill") == 1);
}

TEST_CASE("a registration the registry refuses is answered INVALID naming the field", "[unit]") {
  Lan lan({}, /*per_agent_max=*/1);
  Host& a = *lan.a;
  a.Hear(kProgram, RegisterText(a.Wall(), "skill-one"), true);
  CHECK(LastAck(a, kProgram).starts_with("SKILL_REGISTER_ACK:agent-001;SUCCESS;"));
  a.Hear(kProgram, RegisterText(a.Wall(), "skill-two"), true);
  const std::string ack = LastAck(a, kProgram);
  CHECK(ack.starts_with("SKILL_REGISTER_ACK:agent-001;INVALID;agentId: "));
  CHECK(ack.find("maximum of 1") != std::string::npos);
  CHECK(a.registry->size() == 1);
}

TEST_CASE("skills registered on one host are heard by the other, with their health and removal",
          "[unit]") {
  Lan lan;
  Host& a = *lan.a;
  a.Hear(kProgram, RegisterText(a.Wall()), true);
  lan.Advance(Millis(50));
  auto found = lan.FoundOnB("org-data-read");
  REQUIRE(found.size() == 1);
  CHECK(found[0].agent_id == "agent-001");
  CHECK(found[0].skill_type == "enterprise-skill");
  CHECK(found[0].status == SkillStatus::kHealthy);
  // A program on another host is not registered with B: B only notes it.
  CHECK(lan.b->registry->size() == 0);

  REQUIRE(a.registry->Heartbeat(lan.net.now(), "agent-001", "skill-org-feishu",
                                SkillStatus::kMaintenance));
  lan.Advance(Millis(50));
  CHECK(lan.FoundOnB("org-data-read")[0].status == SkillStatus::kMaintenance);

  // Announcements keep the entry alive past the timeout.
  lan.Advance(Seconds(10));
  CHECK(lan.FoundOnB("org-data-read").size() == 1);

  REQUIRE(a.registry->Unregister(lan.net.now(), "agent-001", "skill-org-feishu",
                                 kademlia::UnregisterReason::kShutdown));
  lan.Advance(Millis(20));
  CHECK(lan.FoundOnB("org-data-read").empty());
}

TEST_CASE("a skill no longer announced is forgotten after the LAN timeout", "[unit]") {
  Lan lan;
  lan.b->Hear(kRemote, RegisterText(lan.b->Wall()), false);
  CHECK(lan.FoundOnB("user-auth").size() == 1);
  lan.Advance(Millis(2900));
  CHECK(lan.FoundOnB("user-auth").size() == 1);
  lan.Advance(Millis(200));
  CHECK(lan.FoundOnB("user-auth").empty());
  CHECK(lan.b->agent->stats().table_expired == 1);
}

TEST_CASE("SKILL_DISCOVER is answered to the sender in whole skills, over several datagrams",
          "[unit]") {
  Lan lan;
  Host& a = *lan.a;
  for (int i = 0; i < 40; ++i) {
    kademlia::SkillRecord fields = testing::SampleRecord("agent-001", "skill-" + std::to_string(i));
    fields.endpoint =
        "http://10.0.0.1:8080/skills/a-rather-long-path-for-skill-" + std::to_string(i);
    REQUIRE(a.registry->Register(lan.net.now(), fields).status == RegisterStatus::kSuccess);
  }
  const Endpoint asker(Address::V4({10, 0, 0, 7}), 45000);
  a.Hear(asker, "SKILL_DISCOVER:agent-002;org-data-read;;;" + std::to_string(a.Wall()), false);
  const auto answers = a.out.To(asker);
  REQUIRE(answers.size() > 1);
  size_t skills = 0;
  for (const std::string& datagram : answers) {
    CHECK(datagram.size() <= kLanSendMax);
    auto parsed = Parse(datagram);
    REQUIRE(parsed);
    const auto& response = std::get<DiscoverResponse>(*parsed);
    CHECK(response.requester_id == "agent-002");
    for (const auto& skill : response.skills) {
      CHECK(skill.capabilities.size() == 2);
      ++skills;
    }
  }
  CHECK(skills == 40);
  a.Hear(asker, "SKILL_DISCOVER:agent-002;no-such-capability;;;1", false);
  CHECK(a.out.To(asker).size() == answers.size());  // nothing to say: silence
}

TEST_CASE("the LAN stage's discover round gathers the answers within its window", "[unit]") {
  Lan lan;
  kademlia::SkillRecord fields = testing::SampleRecord("agent-001", "skill-org-feishu");
  REQUIRE(lan.a->registry->Register(lan.net.now(), fields).status == RegisterStatus::kSuccess);
  // B has not heard A's announcement (flushed away), so it asks.
  lan.delivered[0] = lan.a->out.sent.size();
  std::optional<std::vector<kademlia::SkillRecord>> result;
  int calls = 0;
  SkillQuery query;
  query.capabilities = {fields.capabilities[0]};
  REQUIRE(lan.b->agent->DiscoverOnLan(lan.net.now(), query,
                                      [&](TimePoint, std::vector<kademlia::SkillRecord> r) {
                                        ++calls;
                                        result = std::move(r);
                                      }));
  lan.Advance(Millis(100));
  CHECK_FALSE(result.has_value());
  lan.Advance(Millis(300));
  REQUIRE(result.has_value());
  CHECK(calls == 1);
  REQUIRE(result->size() == 1);
  CHECK((*result)[0].skill_id == "skill-org-feishu");
  CHECK((*result)[0].endpoint == fields.endpoint);
}

TEST_CASE("a node heard through its SKILLNODE_HELLO is reported once, with its DHT endpoint",
          "[unit]") {
  Lan lan;
  std::vector<LanPeer> peers;
  lan.b->agent->OnNewPeer([&](TimePoint, const LanPeer& peer) { peers.push_back(peer); });
  lan.Advance(Millis(2500));
  REQUIRE(peers.size() == 1);
  CHECK(peers[0].node_id == lan.a->publisher.node_id().ToHex());
  CHECK(peers[0].dht == Endpoint(kHostA.address(), 6881));
  lan.b->Hear(kHostA, "SKILLNODE_HELLO:" + std::string(64, 'a') + ";7;6881;;;1;", false);
  CHECK(lan.b->agent->stats().dropped.at("other_network") == 1);
  CHECK(peers.size() == 1);
  // A node of another network on this very host: what it announces is not a registration.
  const Endpoint neighbour(Address::V4({10, 0, 0, 2}), 50077);
  lan.b->Hear(neighbour, "SKILLNODE_HELLO:" + std::string(64, 'b') + ";7;6881;;;1;", true);
  lan.b->Hear(neighbour, RegisterText(lan.b->Wall()), true);
  CHECK(lan.b->registry->size() == 0);
  CHECK(lan.FoundOnB("user-auth").size() == 1);
  CHECK(lan.b->out.To(neighbour).empty());  // no ACK: it is not an agent
}

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
  lan.Advance(Millis(50));
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

TEST_CASE("datagrams that are not understood, or too many from one source, are counted", "[unit]") {
  Lan lan;
  Host& b = *lan.b;
  b.Hear(kRemote, "HELLO_WORLD:1;2;3", false);
  b.Hear(kRemote, "SKILL_REGISTER:only;three;fields", false);
  b.Hear(kRemote, std::string("\x00\xff\x10", 3), false);
  CHECK(b.agent->stats().dropped.at("unknown_type") >= 1);
  CHECK(b.agent->stats().dropped.at("malformed") >= 1);
  for (int i = 0; i < 1000; ++i) b.Hear(kRemote, "SKILL_DISCOVER:x;;;;1", false);
  CHECK(b.agent->stats().dropped.at("rate_limited") > 0);
  CHECK(b.agent->table().size() == 0);
}

}  // namespace
}  // namespace skillnode::discovery::lan
