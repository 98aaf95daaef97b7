// LanAgent: what a node does on the LAN (skill-discovery-protocol §2, §3, §5, §8, §9, §10.3),
// as a step function like kademlia::Node: the owner hands it each datagram and wakes it at
// NextDeadline(); it answers through an injected LanOutput.
//
//   - Announces: a SKILLNODE_HELLO every broadcast interval (what a peer needs to join this
//     node's DHT); the skills registered with this node (SKILL_REGISTER at once and then every
//     few intervals so that late listeners learn them, SKILL_HEARTBEAT with their status every
//     interval), status changes at once (SKILL_STATUS) and removals at once (SKILL_UNREGISTER).
//   - Listens: skills announced by other hosts go into the LanTable; a SKILL_REGISTER, _HEARTBEAT
//     or _UNREGISTER from a program on this host (not a node) is a registration with this node,
//     taken by the Registry as if it came over HTTP and answered with SKILL_REGISTER_ACK.
//   - Answers SKILL_DISCOVER, unicast, from its registrations and its LAN table, filtered as
//     §3.1 says, in as many SKILL_DISCOVER_RESPONSE datagrams as it takes (never splitting a
//     skill).
//   - Runs the search's LAN stage (LanStage): the table at once, or a SKILL_DISCOVER round.
//   - Reports peers heard through their SKILLNODE_HELLO (zero configuration).
// Every message is checked by the LanAuthenticator first; every datagram it does not take is
// counted by reason. Per-source token buckets bound what one address can make it do.
// The query side (answering SKILL_DISCOVER, the LAN stage's rounds) is its LanDiscovery
// (lan_discovery.h); the agent signs and sends what that returns.
//
// Not thread-safe; no I/O of its own.
#ifndef SKILLNODE_DISCOVERY_LAN_LAN_AGENT_H_
#define SKILLNODE_DISCOVERY_LAN_LAN_AGENT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/lan/lan_auth.h"
#include "discovery/lan/lan_discovery.h"
#include "discovery/lan/lan_message.h"
#include "discovery/lan/lan_table.h"
#include "discovery/registry/registry.h"
#include "discovery/search/searcher.h"
#include "transport/clock.h"
#include "transport/endpoint.h"
#include "transport/rng.h"

namespace skillnode::discovery::lan {

struct LanConfig {
  transport::Duration broadcast_interval = transport::Millis(5000);
  transport::Duration entry_timeout = transport::Millis(30000);  // discovery.udp.timeout
  transport::Duration discover_window =
      transport::Millis(300);  // the LAN stage's wait for responses
  size_t table_max = 10000;
  // Per source address: datagrams per second and burst; sources tracked at most (the one heard
  // from least recently is forgotten first).
  double per_source_rate = 200;
  double per_source_burst = 400;
  size_t sources_max = 1024;
  // SKILL_DISCOVER rounds of this node's searches waiting at once.
  size_t discovers_max = 64;
  // Registrations announced in one interval, round robin: bounds a burst to about 1 MB.
  size_t announced_per_interval_max = 512;
  // Skills one SKILL_DISCOVER answer holds at most, over all its datagrams.
  size_t answer_skills_max = 256;
  // Nodes remembered from their SKILLNODE_HELLO.
  size_t peers_max = 256;
  // This node, for its SKILLNODE_HELLO and as the requester of its SKILL_DISCOVERs.
  std::string node_id;
  uint32_t network_id = 0;
  uint16_t dht_port = 0;  // 0: no DHT
  std::string http_url;
};

class LanOutput {
 public:
  virtual ~LanOutput() = default;
  virtual void SendToGroup(std::string_view datagram) = 0;
  virtual void SendTo(const transport::Endpoint& to, std::string_view datagram) = 0;
};

struct LanPeer {
  std::string node_id;
  transport::Endpoint lan;  // where its LAN datagrams come from
  transport::Endpoint dht;  // its DHT socket: the datagram's address and the HELLO's port
  std::string http_url;
  transport::TimePoint last_heard = transport::kTimeZero;
};

using WallMs = std::function<uint64_t()>;

class LanAgent final : public search::LanStage {
 public:
  LanAgent(const LanConfig& config, Registry& registry, LanAuthenticator& auth, LanOutput& output,
           transport::Rng& rng, WallMs wall_ms);
  LanAgent(const LanAgent&) = delete;
  LanAgent& operator=(const LanAgent&) = delete;
  ~LanAgent() override;

  // Starts announcing (a first HELLO and every registration at once).
  void Start(transport::TimePoint now);
  // `from_this_host`: the source address is one of this host's. The owner drops this node's
  // own datagrams (from its send sockets) before calling.
  void OnDatagram(transport::TimePoint now, const transport::Endpoint& from,
                  std::string_view datagram, bool from_this_host);
  void OnTimer(transport::TimePoint now);
  transport::TimePoint NextDeadline() const;

  // Called for each node first heard (or heard again after it was forgotten).
  void OnNewPeer(std::function<void(transport::TimePoint, const LanPeer&)> callback) {
    on_new_peer_ = std::move(callback);
  }

  // LanStage.
  std::vector<kademlia::store::SkillRecord> FindOnLan(const SkillQuery& query) const override;
  uint64_t LanChanges() const override { return table_.changes(); }
  bool DiscoverOnLan(
      transport::TimePoint now, const SkillQuery& query,
      std::function<void(transport::TimePoint, std::vector<kademlia::store::SkillRecord>)> done)
      override;

  const LanTable& table() const { return table_; }
  std::vector<LanPeer> peers() const;
  const std::string& requester_id() const { return discovery_.requester_id(); }

  struct Stats {
    std::map<std::string, uint64_t> received;  // by message type
    std::map<std::string, uint64_t> dropped;   // by reason
    std::map<std::string, uint64_t> acks;      // SKILL_REGISTER_ACKs sent, by status
    uint64_t sent = 0;
    uint64_t discovers_answered = 0;
    uint64_t discover_rounds = 0;
    uint64_t challenges = 0;
    uint64_t challenges_passed = 0;
    uint64_t challenges_failed = 0;
    uint64_t table_expired = 0;
  };
  const Stats& stats() const { return stats_; }

 private:
  struct Bucket {
    double tokens = 0;
    transport::TimePoint last = transport::kTimeZero;
  };
  // Before Start() the agent announces nothing, ignores registry events and refuses
  // DiscoverOnLan; it answers what it hears either way.
  enum class Phase { kNotStarted, kStarted };

  bool Admit(transport::TimePoint now, const transport::Address& source);
  void Drop(const std::string& reason) { ++stats_.dropped[reason]; }
  void Dispatch(transport::TimePoint now, const LanMessage& message, std::string_view datagram,
                const transport::Endpoint& from, bool local_program);
  void TakeRegistration(transport::TimePoint now, const Register& message,
                        const transport::Endpoint& from);
  void Ack(const transport::Endpoint& to, const std::string& agent_id, std::string_view status,
           const std::string& message);
  void Answer(const Discover& discover, const transport::Endpoint& from);
  void OnHello(transport::TimePoint now, const Hello& hello, const transport::Endpoint& from);
  void OnChallengeResponse(transport::TimePoint now, const ChallengeResponse& response,
                           std::string_view datagram, const transport::Endpoint& from);
  void OnRegistryEvent(transport::TimePoint now, const RegistryEvent& event);
  void Announce(transport::TimePoint now);
  void Send(LanMessage message, const transport::Endpoint* to);

  LanConfig config_;
  Registry& registry_;
  LanAuthenticator& auth_;
  LanOutput& output_;
  transport::Rng& rng_;
  WallMs wall_ms_;
  LanTable table_;
  LanDiscovery discovery_;  // reads table_ (declared before it)
  std::map<transport::Address, Bucket> buckets_;
  std::map<std::string, LanPeer> peers_;  // by LAN endpoint text
  std::set<std::string> foreign_nodes_;   // nodes of other networks heard (at most peers_max)
  std::function<void(transport::TimePoint, const LanPeer&)> on_new_peer_;
  transport::TimePoint next_announce_ = transport::kTimeNever;
  uint64_t ticks_ = 0;
  size_t announce_cursor_ = 0;
  transport::TimePoint now_ =
      transport::kTimeZero;  // the time of the call being served (for registry events)
  Phase phase_ = Phase::kNotStarted;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  Stats stats_;
};

}  // namespace skillnode::discovery::lan

#endif  // SKILLNODE_DISCOVERY_LAN_LAN_AGENT_H_
