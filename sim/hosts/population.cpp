#include "sim/hosts/population.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "sim/network/addressing.h"

namespace skillnode::sim::hosts {
namespace {

// Seeds a join goes through: a node's configuration lists a few bootstrap peers.
constexpr size_t kJoinSeeds = 3;
// Draws per seed wanted when some nodes are behind NATs (skipped): with 60 % of them NATed, the
// 48 draws of a join all miss the public nodes with a chance of 0.6^48, 2 x 10^-11.
constexpr size_t kJoinSeedTriesWithNats = 16;
// Back-off before the first retry of a failed join; doubled per attempt up to the maximum.
constexpr transport::Duration kJoinRetryDelay = transport::Seconds(10);
constexpr transport::Duration kJoinRetryDelayMax = transport::Seconds(300);

HostKind AdversaryKind(scenario::AdversaryModel model) {
  switch (model) {
    case scenario::AdversaryModel::kEclipse:
      return HostKind::kEclipse;
    case scenario::AdversaryModel::kDropStorage:
      return HostKind::kDropStorage;
    case scenario::AdversaryModel::kForgeRecords:
      return HostKind::kForgeRecords;
    case scenario::AdversaryModel::kSybil:
      return HostKind::kSybil;
    case scenario::AdversaryModel::kImpersonate:
      return HostKind::kImpersonate;
  }
  return HostKind::kEclipse;
}

}  // namespace

Population::Population(const scenario::Scenario& scenario, size_t honest_slots,
                       size_t adversary_slots, engine::EventQueue& queue, network::Network& network,
                       const transport::TimePoint& now, const LaneClocks& clocks, uint64_t seed)
    : scenario_(scenario),
      honest_slots_(honest_slots),
      queue_(queue),
      network_(network),
      now_(now),
      clocks_(clocks),
      identity_rng_(seed),
      host_rng_(identity_rng_.Fork()),
      join_rng_(identity_rng_.Fork()) {
  if (scenario_.records.enabled) {
    dht_config_.replication = scenario_.records.replication;
    dht_config_.republish_interval = transport::Duration(
        static_cast<int64_t>(std::llround(scenario_.records.republish_s * 1e6)));
    dht_config_.verified_records_max = scenario_.records.verified_records_max;
  }
  // Aliases follow the hosts' own addresses: a pool id each (sybil), or one per honest slot
  // (impersonate), answered by the adversaries in turn.
  network_.PlaceNats(static_cast<uint32_t>(honest_slots));
  const auto slots = static_cast<uint32_t>(honest_slots + adversary_slots);
  const scenario::AdversaryModel model = scenario_.adversaries.model;
  if (adversary_slots > 0 && model == scenario::AdversaryModel::kSybil) {
    kademlia::Seed secret;
    identity_rng_.Fork().Fill(secret);
    sybils_.emplace(scenario_.adversaries.sybil_ids, secret, slots);
    ideal_signatures_.AcceptDerivedKeys(secret);
  }
  if (adversary_slots > 0 && (model == scenario::AdversaryModel::kSybil ||
                              model == scenario::AdversaryModel::kImpersonate)) {
    const size_t aliases = sybils_ ? sybils_->size() : honest_slots;
    network_.SetAliases(network::Network::Aliases{slots, static_cast<uint32_t>(aliases),
                                                  static_cast<uint32_t>(honest_slots),
                                                  static_cast<uint32_t>(adversary_slots)});
  }
  for (size_t lane = 0; lane < engine::EventQueue::kLanes; ++lane) {
    HostContext& context = contexts_[lane];
    // The directory's hash key changes where records sit in its index, never what a node does.
    transport::Rng key_rng(seed ^ (0x9e3779b97f4a7c15ULL * (lane + 1)));
    peer_directories_[lane] =
        std::make_unique<kademlia::routing::PeerDirectory>(kademlia::NewHashKey(key_rng));
    context.peers = peer_directories_[lane].get();
    context.stats = &lane_stats_[lane];
    context.sybils = sybils_ ? &*sybils_ : nullptr;
    context.live = &live_;
    context.honest_slots = static_cast<uint32_t>(honest_slots);
    context.alias_first = slots;
    context.identity_of = [this](uint32_t slot) -> std::optional<kademlia::NodeId> {
      if (slot >= honest_slots_ || !slots_[slot].host) return std::nullopt;
      return slots_[slot].host->id();
    };
    context.network = &network_;
    context.now = &clocks_[lane];
    context.logger = &logger_;
    context.adversaries = &adversaries_;
    context.counters = &adversary_counters_[lane];
    if (scenario_.crypto == scenario::CryptoKind::kIdeal) {
      context.signatures = &ideal_signatures_;
      context.ideal = &ideal_signatures_;
    }
    if (scenario_.records.enabled) context.dht = &dht_config_;
  }
  slots_.resize(honest_slots + adversary_slots);
  position_.assign(slots_.size(), -1);
  for (size_t i = 0; i < slots_.size(); ++i) {
    identity_rng_.Fill(slots_[i].seed);
    if (i >= honest_slots) slots_[i].kind = AdversaryKind(scenario_.adversaries.model);
  }
}

Population::~Population() = default;

Host& Population::Start(uint32_t i) {
  Slot& slot = slots_[i];
  assert(!slot.host);
  if (slot.incarnation > 0 && scenario_.churn.rejoin == scenario::RejoinState::kLose) {
    identity_rng_.Fill(slot.seed);
    slot.saved.clear();
  }
  ++slot.incarnation;
  online_time_.Change(now_, 1);
  slot.joined_at = transport::kTimeNever;
  slot.host = std::make_unique<Host>(slot.kind, i, scenario_.kademlia,
                                     kademlia::Identity::FromSeed(slot.seed), host_rng_.Next64(),
                                     contexts_[engine::EventQueue::LaneOf(i)]);
  if (!slot.saved.empty() && slot.host->node() != nullptr) {
    slot.host->node()->mutable_routing_table().Import(slot.saved, now_);
    slot.saved.clear();
  }
  Reschedule(i);
  return *slot.host;
}

void Population::Stop(uint32_t i, bool graceful) {
  Slot& slot = slots_[i];
  if (!slot.host) return;
  if (stop_hook_) stop_hook_(i);
  if (slot.joined_at != transport::kTimeNever) {
    live_.Erase(slot.host->id());
    if (slot.kind == HostKind::kHonest) RemoveJoinedHonest(i);
  }
  kademlia::Node* node = slot.host->node();
  if (node != nullptr) {
    slot.leaving = true;
    if (graceful) node->Shutdown(now_);
    if (scenario_.churn.rejoin == scenario::RejoinState::kKeep)
      slot.saved = node->routing_table().Export();
    ++retired_.nodes;
    if (slot.host->dht() != nullptr) retired_.AddDht(slot.host->dht()->stats());
    slot.leaving = false;
  }
  slot.host.reset();
  online_time_.Change(now_, -1);
  slot.on_joined = nullptr;
  slot.joined_at = transport::kTimeNever;
  slot.timer_at = transport::kTimeNever;
  ++slot.timer_generation;  // any queued timer event is now stale
}

void Population::Join(uint32_t i, std::function<void(uint32_t)> joined) {
  Slot& slot = slots_[i];
  slot.on_joined = std::move(joined);
  slot.join_attempts = 0;
  StartJoin(i);
}

void Population::StartJoin(uint32_t i) {
  Slot& slot = slots_[i];
  kademlia::Node* node = slot.host->node();
  assert(node != nullptr);
  std::vector<transport::Endpoint> seeds;
  // A bootstrap list names public nodes: with NATs, the draws skip the nodes behind them (and
  // take more tries to find as many).
  const bool nats = network_.nats().hosts_behind() > 0;
  const size_t tries_max = (nats ? kJoinSeedTriesWithNats : 2) * kJoinSeeds;
  for (size_t tries = 0; seeds.size() < kJoinSeeds && tries < tries_max; ++tries) {
    const auto seed = RandomJoinedHonest(join_rng_, i);
    if (!seed) break;
    if (BehindNat(*seed)) continue;
    const transport::Endpoint endpoint = network::EndpointOfSlot(*seed);
    if (std::find(seeds.begin(), seeds.end(), endpoint) == seeds.end()) seeds.push_back(endpoint);
  }
  // The first node starts the network alone; a node behind a NAT cannot (nobody could reach
  // it): it tries again until a public node has joined.
  const bool alone = seeds.empty() && !BehindNat(i);
  ++slot.join_attempts;
  const uint32_t incarnation = slot.incarnation;
  // This runs in the slot's lane, so it only schedules what happens next.
  node->Join(now_, seeds, [this, i, incarnation, alone](size_t contacts) {
    Slot& s = slots_[i];
    if (!s.host || s.incarnation != incarnation || s.leaving) return;
    if (contacts == 0 && !alone) {
      const int doublings = std::min(s.join_attempts - 1, 5);
      const transport::Duration delay =
          std::min(kJoinRetryDelay * (1 << doublings), kJoinRetryDelayMax);
      queue_.Push(Clock(i) + delay, engine::EventKind::kJoinRetry, i, incarnation);
      return;
    }
    queue_.Push(Clock(i), engine::EventKind::kJoined, i, incarnation);
  });
  Reschedule(i);
}

void Population::OnJoinRetry(uint32_t i, uint64_t incarnation) {
  const Slot& slot = slots_[i];
  if (!slot.host || slot.incarnation != incarnation || joined(i)) return;
  ++retried_joins_;
  StartJoin(i);
}

void Population::OnJoined(uint32_t i, uint64_t incarnation) {
  Slot& slot = slots_[i];
  if (!slot.host || slot.incarnation != incarnation || slot.leaving || joined(i)) return;
  MarkJoined(i);
  if (auto joined = std::move(slot.on_joined)) joined(i);
  slot.on_joined = nullptr;
}

const transport::TimePoint& Population::Now() const {
  const auto lane = queue_.running_lane();
  return lane ? clocks_[*lane] : now_;
}

adversaries::AdversaryCounters Population::adversary_counters() const {
  adversaries::AdversaryCounters sum;
  for (const adversaries::AdversaryCounters& lane : adversary_counters_) sum += lane;
  return sum;
}

void Population::MarkJoined(uint32_t i) {
  Slot& slot = slots_[i];
  if (!slot.host || slot.joined_at != transport::kTimeNever) return;
  slot.joined_at = now_;
  live_.Insert(slot.host->id(), i);
  if (slot.kind == HostKind::kHonest) AddJoinedHonest(i);
}

void Population::MarkAllJoined() {
  std::vector<workloads::OracleEntry> entries;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (!slot.host || slot.joined_at != transport::kTimeNever) continue;
    slot.joined_at = now_;
    if (slot.kind == HostKind::kHonest) AddJoinedHonest(i);
  }
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    if (joined(i)) entries.push_back(workloads::OracleEntry{slots_[i].host->id(), i});
  }
  live_.Assign(std::move(entries));
}

void Population::IndexAdversaries() {
  std::vector<workloads::OracleEntry> entries;
  for (uint32_t i = static_cast<uint32_t>(honest_slots_); i < slots_.size(); ++i) {
    if (online(i)) entries.push_back(workloads::OracleEntry{slots_[i].host->id(), i});
  }
  adversaries_.Assign(std::move(entries));
}

void Population::AddJoinedHonest(uint32_t i) {
  position_[i] = static_cast<int64_t>(joined_honest_.size());
  joined_honest_.push_back(i);
}

void Population::RemoveJoinedHonest(uint32_t i) {
  const int64_t at = position_[i];
  if (at < 0) return;
  // Swap-remove: the order changes, but deterministically.
  const uint32_t last = joined_honest_.back();
  joined_honest_[static_cast<size_t>(at)] = last;
  position_[last] = at;
  joined_honest_.pop_back();
  position_[i] = -1;
}

std::optional<uint32_t> Population::RandomJoinedHonest(transport::Rng& rng,
                                                       std::optional<uint32_t> except) const {
  const size_t n = joined_honest_.size();
  const bool skip = except && position_[*except] >= 0;
  if (n == 0 || (skip && n == 1)) return std::nullopt;
  size_t pick = static_cast<size_t>(rng.Below(skip ? n - 1 : n));
  if (skip && pick >= static_cast<size_t>(position_[*except])) ++pick;
  return joined_honest_[pick];
}

void Population::Reschedule(uint32_t i) {
  Slot& slot = slots_[i];
  const transport::TimePoint next = slot.host ? slot.host->NextDeadline() : transport::kTimeNever;
  if (next == slot.timer_at) return;
  slot.timer_at = next;
  ++slot.timer_generation;
  if (next != transport::kTimeNever) {
    queue_.Push(std::max(next, Clock(i)), engine::EventKind::kTimer, i, slot.timer_generation);
  }
}

void Population::OnTimer(uint32_t i, uint64_t generation) {
  Slot& slot = slots_[i];
  if (!slot.host || generation != slot.timer_generation) return;
  slot.timer_at = transport::kTimeNever;
  slot.host->OnTimer(Clock(i));
  Reschedule(i);
}

void Population::Deliver(uint32_t to, uint64_t packet, engine::TraceHash& trace) {
  const network::Network::Packet& p = network_.packet(packet);
  Slot& slot = slots_[to];
  network::NetworkCounters& counters = network_.running_counters();
  if (!slot.host) {
    ++counters.to_offline;
    network_.Release(packet);
    return;
  }
  ++counters.delivered;
  counters.bytes_delivered += p.bytes.size();
  const transport::TimePoint now = Clock(to);
  trace.Add(static_cast<uint64_t>(now.time_since_epoch().count()));
  trace.Add((uint64_t{p.from} << 32) | to);
  trace.AddBytes(p.bytes);
  // The packet stays where it is until Release, whatever the host sends meanwhile.
  const transport::Endpoint from = network::EndpointOfSlot(p.from_address);
  if (p.from_address != p.from) trace.Add(p.from_address);
  if (p.to_address != to) {
    trace.Add(p.to_address);
    slot.host->OnAliasDatagram(from, p.to_address, p.bytes);
  } else {
    slot.host->OnDatagram(now, from, p.bytes);
  }
  network_.Release(packet);
  Reschedule(to);
}

report::NodeTotals Population::Totals() const {
  report::NodeTotals totals = retired_;
  for (const kademlia::NodeStats& stats : lane_stats_) totals.Add(stats);
  for (const Slot& slot : slots_) {
    if (slot.host && slot.host->node() != nullptr) ++totals.nodes;
    if (slot.host && slot.host->dht() != nullptr) {
      totals.AddDht(slot.host->dht()->stats());
      totals.held.Add(*slot.host->dht());
    }
  }
  return totals;
}

report::ReachCensus Population::Reach() {
  report::ReachCensus census;
  for (uint32_t i = 0; i < honest_slots_; ++i) {
    Slot& slot = slots_[i];
    kademlia::Node* node = slot.host ? slot.host->node() : nullptr;
    if (node == nullptr) continue;
    const bool behind = BehindNat(i);
    (behind ? census.nodes_behind_nat : census.nodes_public) += 1;
    if (node->client_mode()) (behind ? census.clients_behind_nat : census.clients_public) += 1;
    if (node->config().reach_probes &&
        node->reach().reachability(Clock(i)) == kademlia::reach::Reachability::kUnknown) {
      (behind ? census.undecided_behind_nat : census.undecided_public) += 1;
    }
    const kademlia::routing::RoutingTable& table = node->routing_table();
    const std::vector<kademlia::Contact> contacts = table.Export();
    // Export lists the buckets' contacts first, then the replacement caches.
    for (size_t c = 0; c < table.size(); ++c) {
      const std::optional<uint32_t> at = network::SlotOfEndpoint(contacts[c].endpoint);
      const bool unreachable = at && BehindNat(network_.HostOf(*at));
      ++census.contacts;
      census.contacts_behind_nat += unreachable;
      if (behind) continue;
      ++census.public_table_contacts;
      census.public_table_contacts_behind_nat += unreachable;
    }
  }
  return census;
}

adversaries::TableCensus Population::AdversaryTables() const {
  adversaries::TableCensus census;
  const auto adversarial = [&](const kademlia::Contact& c) {
    const std::optional<uint32_t> at = network::SlotOfEndpoint(c.endpoint);
    return at && network_.HostOf(*at) >= honest_slots_;
  };
  for (uint32_t i = 0; i < honest_slots_; ++i) {
    const kademlia::Node* node = slots_[i].host ? slots_[i].host->node() : nullptr;
    if (node == nullptr) continue;
    const kademlia::routing::RoutingTable& table = node->routing_table();
    const std::vector<kademlia::Contact> contacts = table.Export();
    // Export lists the buckets' contacts first, then the replacement caches.
    for (size_t c = 0; c < table.size(); ++c) {
      ++census.contacts;
      census.adversarial += adversarial(contacts[c]);
    }
    for (const kademlia::Contact& c :
         table.Closest(node->id(), node->config().routing.bucket_size)) {
      ++census.nearest;
      census.nearest_adversarial += adversarial(c);
    }
  }
  return census;
}

}  // namespace skillnode::sim::hosts
