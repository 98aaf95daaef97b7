// Host: one simulated machine, and the simulator Env of the node it runs.
//
// For an honest host (and the drop_storage and forge_records adversaries) it owns a real
// kademlia::Node and is that node's Env: its Transport (datagrams go to the simulated
// Network), its seeded Rng, the shared Logger, and the virtual clock's `now`, which the
// simulation hands to every call. A scripted adversary (eclipse, sybil, impersonate) has no
// Node: it answers requests with EclipseAnswer (adversary.h), SybilAnswer or
// ImpersonationAnswer (sybil.h). When the scenario has records, every node runs the real
// kademlia::SkillDht as its request handler, as the daemon does; a forge_records adversary
// puts a Forger (forger.h) in front of it. Hosts are heap-allocated and never move: the Node holds
// references to the host's Rng and Transport. A host is a million times in a large run, so
// what only some hosts have (a scripted adversary's identity, the store, the forger) is
// allocated apart, and the context is its lane's, shared. Not thread-safe.
#ifndef SKILLNODE_SIM_HOSTS_HOST_H_
#define SKILLNODE_SIM_HOSTS_HOST_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>

#include "kademlia/node.h"
#include "kademlia/store/skill_dht.h"
#include "sim/adversaries/adversary.h"
#include "sim/adversaries/forger.h"
#include "sim/adversaries/sybil.h"
#include "sim/hosts/ideal_signatures.h"
#include "sim/network/network.h"
#include "sim/workloads/oracle.h"
#include "transport/logger.h"
#include "transport/rng.h"
#include "transport/transport.h"

namespace skillnode::sim::hosts {

enum class HostKind : uint8_t {
  kHonest,
  kEclipse,
  kDropStorage,
  kForgeRecords,
  kSybil,
  kImpersonate
};

// Adversaries with no Node: they only answer requests, as their model writes them.
inline bool IsScripted(HostKind kind) {
  return kind == HostKind::kEclipse || kind == HostKind::kSybil || kind == HostKind::kImpersonate;
}

// What every host of one simulation shares. Owned by the simulation; outlives its hosts.
struct HostContext {
  network::Network* network = nullptr;
  const transport::TimePoint* now = nullptr;  // the virtual clock
  transport::Logger* logger = nullptr;
  const workloads::Oracle* adversaries = nullptr;  // the colluding set (eclipse model)
  const adversaries::SybilPool* sybils = nullptr;  // sybil model
  // impersonate model: the live nodes (slots below honest_slots are honest), whose aliases
  // start at alias_first.
  const workloads::Oracle* live = nullptr;
  uint32_t honest_slots = 0;
  uint32_t alias_first = 0;
  // impersonate model: the id of the honest node in a slot, when it is online.
  std::function<std::optional<kademlia::NodeId>(uint32_t slot)> identity_of;
  adversaries::AdversaryCounters* counters = nullptr;
  // The skill store every node runs when the scenario has records; null: no store.
  const kademlia::store::DhtConfig* dht = nullptr;
  // How every host signs and verifies (crypto: ed25519 or ideal); `ideal` is set for the
  // ideal scheme, which learns each host's identity as the host starts.
  const kademlia::SignatureScheme* signatures = &kademlia::Ed25519Signatures();
  // The lane's peer records, shared by its nodes' routing tables (routing/peer_directory.h).
  kademlia::routing::PeerDirectory* peers = nullptr;
  // The lane's node counters, which its nodes add to (kademlia::NodeSharing): the report sums
  // them over the lanes, so no node keeps 1.7 kB of its own.
  kademlia::NodeStats* stats = nullptr;
  IdealSignatures* ideal = nullptr;
};

class Host final : public transport::Transport {
 public:
  // `config` and `context` must outlive the host: its node keeps references to them.
  Host(HostKind kind, uint32_t slot, const kademlia::KademliaConfig& config,
       const kademlia::Identity& identity, uint64_t rng_seed, const HostContext& context);
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // Transport: the node's datagrams enter the simulated network, stamped with `now`.
  void Send(const transport::Endpoint& to, std::span<const uint8_t> datagram) override;

  void OnDatagram(transport::TimePoint now, const transport::Endpoint& from,
                  std::span<const uint8_t> datagram);
  // A datagram sent to `address`, one of this adversary's aliases (network.h Aliases).
  void OnAliasDatagram(const transport::Endpoint& from, uint32_t address,
                       std::span<const uint8_t> datagram);
  void OnTimer(transport::TimePoint now);
  transport::TimePoint NextDeadline() const;

  // A scripted adversary makes itself known the way a joining node would: it sends
  // FIND_NODE for its own id to `peers`, which verify it and add it to their tables.
  void Announce(std::span<const transport::Endpoint> peers);

  HostKind kind() const { return kind_; }
  bool honest() const { return kind_ == HostKind::kHonest; }
  uint32_t slot() const { return slot_; }
  const kademlia::NodeId& id() const;
  const kademlia::PublicKey& public_key() const;
  // Null for a scripted adversary (IsScripted).
  kademlia::Node* node() { return node_ ? &*node_ : nullptr; }
  const kademlia::Node* node() const { return node_ ? &*node_ : nullptr; }
  // The node's skill store; null for a scripted adversary or a scenario without records.
  kademlia::store::SkillDht* dht() { return dht_.get(); }
  const kademlia::store::SkillDht* dht() const { return dht_.get(); }

 private:
  // A scripted adversary's answer under `claim` (an eclipse adversary always answers as
  // itself), sent from address slot `address`.
  void ScriptedAnswer(const transport::Endpoint& from, uint32_t address,
                      const adversaries::Claim& claim, std::span<const uint8_t> datagram);
  adversaries::Claim OwnClaim() const;

  HostKind kind_;
  uint32_t slot_;
  const HostContext& context_;  // the lane's (Population), which outlives its hosts
  transport::Rng rng_;
  uint32_t network_id_;
  size_t k_;
  std::unique_ptr<kademlia::Identity> identity_;  // scripted only: a Node keeps its own
  std::optional<kademlia::Node> node_;
  // Declared after node_: destroyed first, they hand the node's request handler back.
  std::unique_ptr<kademlia::store::SkillDht> dht_;
  std::unique_ptr<adversaries::Forger> forger_;  // forge_records only
};

}  // namespace skillnode::sim::hosts

#endif  // SKILLNODE_SIM_HOSTS_HOST_H_
