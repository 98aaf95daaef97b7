// The LAN agent on a fake LAN with a fake clock: registrations by programs on the node's own
// host (SKILL_REGISTER with its ACKs, heartbeats, unregistration), announcements heard by
// another host's node, SKILL_DISCOVER answered and split, the search's LAN round, peers from
// SKILLNODE_HELLO, rate limits and bad datagrams. The security modes are tested in
// lan_agent_security_test.cpp.
#include "discovery/lan/lan_agent.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lan_fixture.h"
#include "support/records.h"

namespace skillnode::discovery::lan {
namespace {

using kademlia::store::SkillStatus;
using lan_test::Host;
using lan_test::kHostA;
using lan_test::kProgram;
using lan_test::kRemote;
using lan_test::Lan;
using lan_test::LastAck;
using lan_test::RegisterText;

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
  lan.Advance(transport::Millis(50));
  auto found = lan.FoundOnB("org-data-read");
  REQUIRE(found.size() == 1);
  CHECK(found[0].agent_id == "agent-001");
  CHECK(found[0].skill_type == "enterprise-skill");
  CHECK(found[0].status == SkillStatus::kHealthy);
  // A program on another host is not registered with B: B only notes it.
  CHECK(lan.b->registry->size() == 0);

  REQUIRE(a.registry->Heartbeat(lan.net.now(), "agent-001", "skill-org-feishu",
                                SkillStatus::kMaintenance));
  lan.Advance(transport::Millis(50));
  CHECK(lan.FoundOnB("org-data-read")[0].status == SkillStatus::kMaintenance);

  // Announcements keep the entry alive past the timeout.
  lan.Advance(transport::Seconds(10));
  CHECK(lan.FoundOnB("org-data-read").size() == 1);

  REQUIRE(a.registry->Unregister(lan.net.now(), "agent-001", "skill-org-feishu",
                                 kademlia::store::UnregisterReason::kShutdown));
  lan.Advance(transport::Millis(20));
  CHECK(lan.FoundOnB("org-data-read").empty());
}

TEST_CASE("a private skill is never announced nor answered; made private it is withdrawn",
          "[unit]") {
  Lan lan;
  Host& a = *lan.a;
  auto with_access = [](const std::string& skill, const std::string& access) {
    kademlia::store::SkillRecord r = testing::SampleRecord("agent-001", skill);
    r.descriptor = kademlia::store::SkillDescriptor{};
    r.descriptor->access = access;
    return r;
  };
  REQUIRE(a.registry->Register(lan.net.now(), with_access("hidden", "private")).status ==
          RegisterStatus::kSuccess);
  REQUIRE(a.registry->Register(lan.net.now(), with_access("shown", "public")).status ==
          RegisterStatus::kSuccess);
  REQUIRE(a.registry->Heartbeat(lan.net.now(), "agent-001", "hidden", SkillStatus::kDegraded));
  lan.Advance(
      transport::Seconds(10));  // several announcement rounds, full SKILL_REGISTERs among them
  const transport::Endpoint asker(transport::Address::V4({10, 0, 0, 7}), 45000);
  a.Hear(asker, "SKILL_DISCOVER:agent-002;org-data-read;;;" + std::to_string(a.Wall()), false);
  REQUIRE(a.registry->Unregister(lan.net.now(), "agent-001", "hidden",
                                 kademlia::store::UnregisterReason::kShutdown));
  lan.Advance(transport::Millis(50));
  for (const auto& sent : a.out.sent) {
    CHECK(sent.datagram.find("hidden") == std::string::npos);
  }
  const auto found = lan.FoundOnB("org-data-read");
  REQUIRE(found.size() == 1);
  CHECK(found[0].skill_id == "shown");
  REQUIRE_FALSE(a.out.To(asker).empty());

  // The public skill made private: B hears a SKILL_UNREGISTER and forgets it.
  REQUIRE(a.registry->Register(lan.net.now(), with_access("shown", "private")).status ==
          RegisterStatus::kSuccess);
  lan.Advance(transport::Millis(50));
  CHECK(lan.FoundOnB("org-data-read").empty());
  const size_t before = a.out.sent.size();
  lan.Advance(transport::Seconds(5));
  for (size_t i = before; i < a.out.sent.size(); ++i) {
    CHECK(a.out.sent[i].datagram.find("shown") == std::string::npos);
  }
}

TEST_CASE("a skill no longer announced is forgotten after the LAN timeout", "[unit]") {
  Lan lan;
  lan.b->Hear(kRemote, RegisterText(lan.b->Wall()), false);
  CHECK(lan.FoundOnB("user-auth").size() == 1);
  lan.Advance(transport::Millis(2900));
  CHECK(lan.FoundOnB("user-auth").size() == 1);
  lan.Advance(transport::Millis(200));
  CHECK(lan.FoundOnB("user-auth").empty());
  CHECK(lan.b->agent->stats().table_expired == 1);
}

TEST_CASE("SKILL_DISCOVER is answered to the sender in whole skills, over several datagrams",
          "[unit]") {
  Lan lan;
  Host& a = *lan.a;
  for (int i = 0; i < 40; ++i) {
    kademlia::store::SkillRecord fields =
        testing::SampleRecord("agent-001", "skill-" + std::to_string(i));
    fields.endpoint =
        "http://10.0.0.1:8080/skills/a-rather-long-path-for-skill-" + std::to_string(i);
    REQUIRE(a.registry->Register(lan.net.now(), fields).status == RegisterStatus::kSuccess);
  }
  const transport::Endpoint asker(transport::Address::V4({10, 0, 0, 7}), 45000);
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
  kademlia::store::SkillRecord fields = testing::SampleRecord("agent-001", "skill-org-feishu");
  REQUIRE(lan.a->registry->Register(lan.net.now(), fields).status == RegisterStatus::kSuccess);
  // B has not heard A's announcement (flushed away), so it asks.
  lan.delivered[0] = lan.a->out.sent.size();
  std::optional<std::vector<kademlia::store::SkillRecord>> result;
  int calls = 0;
  SkillQuery query;
  query.capabilities = {fields.capabilities[0]};
  REQUIRE(lan.b->agent->DiscoverOnLan(
      lan.net.now(), query, [&](transport::TimePoint, std::vector<kademlia::store::SkillRecord> r) {
        ++calls;
        result = std::move(r);
      }));
  lan.Advance(transport::Millis(100));
  CHECK_FALSE(result.has_value());
  lan.Advance(transport::Millis(300));
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
  lan.b->agent->OnNewPeer(
      [&](transport::TimePoint, const LanPeer& peer) { peers.push_back(peer); });
  lan.Advance(transport::Millis(2500));
  REQUIRE(peers.size() == 1);
  CHECK(peers[0].node_id == lan.a->publisher.node_id().ToHex());
  CHECK(peers[0].dht == transport::Endpoint(kHostA.address(), 6881));
  lan.b->Hear(kHostA, "SKILLNODE_HELLO:" + std::string(64, 'a') + ";7;6881;;;1;", false);
  CHECK(lan.b->agent->stats().dropped.at("other_network") == 1);
  CHECK(peers.size() == 1);
  // A node of another network on this very host: what it announces is not a registration.
  const transport::Endpoint neighbour(transport::Address::V4({10, 0, 0, 2}), 50077);
  lan.b->Hear(neighbour, "SKILLNODE_HELLO:" + std::string(64, 'b') + ";7;6881;;;1;", true);
  lan.b->Hear(neighbour, RegisterText(lan.b->Wall()), true);
  CHECK(lan.b->registry->size() == 0);
  CHECK(lan.FoundOnB("user-auth").size() == 1);
  CHECK(lan.b->out.To(neighbour).empty());  // no ACK: it is not an agent
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
