// Host: one simulated machine, and the simulator Env of the node it runs.
//
// For an honest host (and the drop_storage and forge_records adversaries) it owns a real
// kademlia::Node and is that node's Env: its Transport (datagrams go to the simulated
// Network), its seeded Rng, the shared Logger, and the virtual clock's `now`, which the
// simulation hands to every call. An eclipse adversary has no Node: it answers requests with
// EclipseAnswer (adversary.h). When the scenario has records, every node runs the real
// kademlia::SkillDht as its request handler, as the daemon does; a forge_records adversary
// puts a Forger (forger.h) in front of it. Hosts are heap-allocated and never move: the Node holds
// references to the host's Rng and Transport. Not thread-safe.
#ifndef SKILLNODE_SIM_HOSTS_HOST_H_
#define SKILLNODE_SIM_HOSTS_HOST_H_

#include <cstdint>
#include <optional>
#include <span>

#include "kademlia/node.h"
#include "kademlia/skill_dht.h"
#include "sim/adversaries/adversary.h"
#include "sim/adversaries/forger.h"
#include "sim/hosts/ideal_signatures.h"
#include "sim/network/network.h"
#include "sim/workloads/oracle.h"
#include "transport/logger.h"
#include "transport/rng.h"
#include "transport/transport.h"

namespace skillnode::sim {

enum class HostKind : uint8_t { kHonest, kEclipse, kDropStorage, kForgeRecords };

// What every host of one simulation shares. Owned by the simulation; outlives its hosts.
struct HostContext {
  Network* network = nullptr;
  const TimePoint* now = nullptr;  // the virtual clock
  Logger* logger = nullptr;
  const Oracle* adversaries = nullptr;  // the colluding set (eclipse model)
  AdversaryCounters* counters = nullptr;
  // The skill store every node runs when the scenario has records; null: no store.
  const kademlia::DhtConfig* dht = nullptr;
  // How every host signs and verifies (crypto: ed25519 or ideal); `ideal` is set for the
  // ideal scheme, which learns each host's identity as the host starts.
  const kademlia::SignatureScheme* signatures = &kademlia::Ed25519Signatures();
  IdealSignatures* ideal = nullptr;
};

class Host final : public Transport {
 public:
  Host(HostKind kind, uint32_t slot, const kademlia::KademliaConfig& config,
       const kademlia::Identity& identity, uint64_t rng_seed, HostContext context);
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // Transport: the node's datagrams enter the simulated network, stamped with `now`.
  void Send(const Endpoint& to, std::span<const uint8_t> datagram) override;

  void OnDatagram(TimePoint now, const Endpoint& from, std::span<const uint8_t> datagram);
  void OnTimer(TimePoint now);
  TimePoint NextDeadline() const;

  // An eclipse adversary makes itself known the way a joining node would: it sends
  // FIND_NODE for its own id to `peers`, which verify it and add it to their tables.
  void Announce(std::span<const Endpoint> peers);

  HostKind kind() const { return kind_; }
  bool honest() const { return kind_ == HostKind::kHonest; }
  uint32_t slot() const { return slot_; }
  const kademlia::NodeId& id() const;
  const kademlia::PublicKey& public_key() const;
  // Null for an eclipse adversary.
  kademlia::Node* node() { return node_ ? &*node_ : nullptr; }
  const kademlia::Node* node() const { return node_ ? &*node_ : nullptr; }
  // The node's skill store; null for an eclipse adversary or a scenario without records.
  kademlia::SkillDht* dht() { return dht_ ? &*dht_ : nullptr; }
  const kademlia::SkillDht* dht() const { return dht_ ? &*dht_ : nullptr; }

 private:
  void EclipseDatagram(const Endpoint& from, std::span<const uint8_t> datagram);

  HostKind kind_;
  uint32_t slot_;
  HostContext context_;
  Rng rng_;
  uint32_t network_id_;
  size_t k_;
  std::optional<kademlia::Identity> identity_;  // eclipse only: a Node keeps its own
  std::optional<kademlia::Node> node_;
  // Declared after node_: destroyed first, they hand the node's request handler back.
  std::optional<kademlia::SkillDht> dht_;
  std::optional<Forger> forger_;  // forge_records only
};

}  // namespace skillnode::sim

#endif  // SKILLNODE_SIM_HOSTS_HOST_H_
