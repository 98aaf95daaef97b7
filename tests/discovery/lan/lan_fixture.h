// The fake LAN shared by the LAN agent's tests (lan_agent_test.cpp and
// lan_agent_security_test.cpp): two hosts, each a one-node DHT with its registry and LAN agent,
// whose group sends reach each other, on a fake clock. And one host's LanDiscovery on its own
// (DiscoveryDesk, for lan_discovery_test.cpp): its registry, its LAN table and the rounds it
// starts.
#ifndef SKILLNODE_TESTS_DISCOVERY_LAN_FIXTURE_H_
#define SKILLNODE_TESTS_DISCOVERY_LAN_FIXTURE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "discovery/lan/lan_agent.h"
#include "discovery/lan/lan_discovery.h"
#include "discovery/lan/lan_security.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery::lan::lan_test {

using testing::FakeNetwork;

// The hosts' wall clock: the simulated calendar the skill store checks record windows against.
inline constexpr uint64_t kWallStartMs = kademlia::store::kSimulatedEpochMs;
inline const transport::Endpoint kProgram(transport::Address::V4({10, 0, 0, 1}),
                                          40001);  // an agent on host A
inline const transport::Endpoint kHostA(transport::Address::V4({10, 0, 0, 1}),
                                        50001);  // node A's send socket
inline const transport::Endpoint kHostB(transport::Address::V4({10, 0, 0, 2}),
                                        50002);  // node B's send socket
inline const transport::Endpoint kRemote(transport::Address::V4({10, 0, 0, 9}),
                                         40009);  // a program on another host

struct Sent {
  std::optional<transport::Endpoint> to;  // nullopt: to the group
  std::string datagram;
};

class CapturingOutput final : public LanOutput {
 public:
  void SendToGroup(std::string_view datagram) override {
    sent.push_back(Sent{std::nullopt, std::string(datagram)});
  }
  void SendTo(const transport::Endpoint& to, std::string_view datagram) override {
    sent.push_back(Sent{to, std::string(datagram)});
  }
  std::vector<std::string> To(const transport::Endpoint& to) const {
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
    registry_config.health = HealthPolicy{transport::Millis(5000), transport::Millis(30000), 3};
    registry_config.registrations_per_agent_max = per_agent_max;
    registry.emplace(net.dht(index), publisher, registry_config, [this] { return Wall(); });
    config.node_id = publisher.node_id().ToHex();
    config.dht_port = 6881;
    config.broadcast_interval = transport::Millis(1000);
    config.entry_timeout = transport::Millis(3000);
    agent.emplace(config, *registry, auth, out, rng, [this] { return Wall(); });
    agent->Start(net.now());
  }
  uint64_t Wall() const { return kademlia::store::SimulatedWallClockMs(net.now()); }
  void Hear(const transport::Endpoint& from, const std::string& datagram, bool from_this_host) {
    agent->OnDatagram(net.now(), from, datagram, from_this_host);
  }

  FakeNetwork& net;
  kademlia::Identity publisher;
  transport::Rng rng{42};
  LanAuthenticator auth;
  CapturingOutput out;
  std::optional<Registry> registry;
  std::optional<LanAgent> agent;
};

// Two hosts, A and B, whose group sends reach each other.
struct Lan {
  explicit Lan(AuthConfig auth = {}, size_t per_agent_max = 1000) : net(3) {
    net.AddDhtNode(kademlia::KademliaConfig{}, kademlia::store::DhtConfig{});
    net.AddDhtNode(kademlia::KademliaConfig{}, kademlia::store::DhtConfig{});
    a.emplace(net, 0, "host-a", auth, per_agent_max);
    b.emplace(net, 1, "host-b", auth, per_agent_max);
  }
  // Delivers what each host sent to the group to the other, then runs their timers.
  void Advance(transport::Duration duration) {
    const transport::TimePoint until = net.now() + duration;
    while (net.now() < until) {
      Flush();
      net.RunFor(transport::Millis(10));
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
        const transport::Endpoint target = from == &*a ? kHostB : kHostA;
        if (!s.to || *s.to == target) to->Hear(at, s.datagram, false);
      }
      delivered[from == &*a ? 0 : 1] = from->out.sent.size();
    }
  }
  std::vector<kademlia::store::SkillRecord> FoundOnB(const std::string& capability) {
    SkillQuery query;
    query.capabilities = {capability};
    return b->agent->FindOnLan(query);
  }

  FakeNetwork net;
  std::optional<Host> a;
  std::optional<Host> b;
  size_t delivered[2] = {0, 0};
};

// The LanDiscovery's own requester id, which its rounds' SKILL_DISCOVER carry.
inline constexpr char kRequester[] = "skillnode-0123456789abcdef";

// A registry on a one-node DHT, a LAN table, and the LanDiscovery reading both; the rounds
// started through StartRound report into `heard`.
struct DiscoveryDesk {
  explicit DiscoveryDesk(LanDiscoveryConfig config = {}) : net(7) {
    net.AddDhtNode(kademlia::KademliaConfig{}, kademlia::store::DhtConfig{});
    registry.emplace(net.dht(0), publisher, RegistryConfig{}, [this] { return Wall(); });
    discovery.emplace(config, kRequester, *registry, table);
  }
  uint64_t Wall() const { return kademlia::store::SimulatedWallClockMs(net.now()); }
  void Register(kademlia::store::SkillRecord record) {
    REQUIRE(registry->Register(net.now(), std::move(record)).status == RegisterStatus::kSuccess);
  }
  // A skill heard on the LAN from another host (kRemote).
  void Hear(const std::string& skill) {
    const kademlia::store::SkillRecord r = testing::SampleRecord("agent-009", skill);
    lan::Register message;
    message.agent_id = r.agent_id;
    message.skill_id = r.skill_id;
    message.version = r.version;
    message.skill_type = r.skill_type;
    message.endpoint = r.endpoint;
    message.capabilities = r.capabilities;
    message.scenes = r.scenes;
    message.timestamp_ms = Wall();
    REQUIRE(table.Put(net.now(), message, kRemote) == LanTable::Upsert::kAdded);
  }
  // Starts a round for `query` now; when it finishes, its records are `heard` and
  // `rounds_finished` counts it.
  std::optional<Discover> StartRound(const SkillQuery& query, uint64_t timestamp_ms = 1) {
    return discovery->StartRound(
        net.now(), query, timestamp_ms,
        [this](transport::TimePoint, std::vector<kademlia::store::SkillRecord> records) {
          ++rounds_finished;
          heard = std::move(records);
        });
  }
  // A SKILL_DISCOVER_RESPONSE to `requester` carrying `skills`.
  static DiscoverResponse Response(const std::string& requester,
                                   std::vector<DiscoveredSkill> skills, uint64_t timestamp_ms = 1) {
    DiscoverResponse response;
    response.requester_id = requester;
    response.timestamp_ms = timestamp_ms;
    response.skills = std::move(skills);
    return response;
  }

  FakeNetwork net;
  kademlia::Identity publisher = testing::Publisher("lan-discovery");
  std::optional<Registry> registry;
  LanTable table{transport::Millis(30000), 100};
  std::optional<LanDiscovery> discovery;
  std::optional<std::vector<kademlia::store::SkillRecord>> heard;
  int rounds_finished = 0;
};

inline std::string RegisterText(uint64_t timestamp, const std::string& skill = "skill-org-feishu") {
  return "SKILL_REGISTER:agent-001;" + skill +
         ";0.7.0;enterprise-skill;10.0.0.1:8080;org-data-read,user-auth;auth;" +
         std::to_string(timestamp) + ";";
}

inline std::string LastAck(const Host& host, const transport::Endpoint& to) {
  const auto acks = host.out.To(to);
  return acks.empty() ? std::string() : acks.back();
}

}  // namespace skillnode::discovery::lan::lan_test

#endif  // SKILLNODE_TESTS_DISCOVERY_LAN_FIXTURE_H_
