#include "support/fake_network.h"

#include <utility>

namespace skillnode::testing {

struct FakeNetwork::Host : public transport::Transport {
  // The host's second, send-only port, for its dial-backs.
  struct DialPort : public transport::Transport {
    explicit DialPort(Host& host) : host(host) {}
    void Send(const transport::Endpoint& to, std::span<const uint8_t> datagram) override {
      if (!host.silent) {
        host.network->Enqueue(host.index, host.network->dial_endpoint(host.index), to, datagram);
      }
    }
    Host& host;
  };

  Host(FakeNetwork* network, size_t index, const kademlia::KademliaConfig& config,
       const kademlia::Identity& identity, uint64_t seed, transport::TimePoint now)
      : network(network),
        index(index),
        rng(seed),
        node(config, identity, *this, rng, network->logger_, now),
        dial_port(*this) {
    node.SetDialTransport(&dial_port);
  }

  void Send(const transport::Endpoint& to, std::span<const uint8_t> datagram) override {
    if (silent) return;
    sent_to[to] = network->now_;
    network->Enqueue(index, network->endpoint(index), to, datagram);
  }

  FakeNetwork* network;
  size_t index;
  bool silent = false;
  bool behind_nat = false;
  // When this host last sent to each endpoint from its own port (the NAT's flows).
  std::unordered_map<transport::Endpoint, transport::TimePoint> sent_to;
  transport::Rng rng;
  kademlia::Node node;
  DialPort dial_port;
  std::unique_ptr<kademlia::store::SkillDht> dht;
};

FakeNetwork::FakeNetwork(uint64_t seed, transport::Duration latency)
    : latency_(latency), rng_(seed) {}

FakeNetwork::~FakeNetwork() = default;

kademlia::Node& FakeNetwork::AddNode(const kademlia::KademliaConfig& config) {
  const size_t index = hosts_.size();
  const auto n = static_cast<uint32_t>(index + 1);
  const transport::Endpoint endpoint(
      transport::Address::V4({10, static_cast<uint8_t>(n >> 16), static_cast<uint8_t>(n >> 8),
                              static_cast<uint8_t>(n)}),
      6881);
  kademlia::Seed seed{};
  rng_.Fill(seed);
  hosts_.push_back(std::make_unique<Host>(this, index, config, kademlia::Identity::FromSeed(seed),
                                          rng_.Next64(), now_));
  by_endpoint_.emplace(endpoint, index);
  endpoints_.push_back(endpoint);
  scheduled_.push_back(transport::kTimeNever);
  Reschedule(index);
  return hosts_.back()->node;
}

kademlia::Node& FakeNetwork::node(size_t index) { return hosts_.at(index)->node; }

kademlia::store::SkillDht& FakeNetwork::AddDhtNode(const kademlia::KademliaConfig& config,
                                                   const kademlia::store::DhtConfig& dht_config,
                                                   kademlia::store::WallClock wall_clock) {
  AddNode(config);
  Host& host = *hosts_.back();
  host.dht =
      std::make_unique<kademlia::store::SkillDht>(host.node, dht_config, std::move(wall_clock));
  return *host.dht;
}

kademlia::store::SkillDht& FakeNetwork::dht(size_t index) { return *hosts_.at(index)->dht; }

transport::Endpoint FakeNetwork::endpoint(size_t index) const { return endpoints_.at(index); }

transport::Endpoint FakeNetwork::dial_endpoint(size_t index) const {
  return transport::Endpoint(endpoints_.at(index).address(), 6882);
}

void FakeNetwork::SetSilent(size_t index, bool silent) { hosts_.at(index)->silent = silent; }

void FakeNetwork::SetBehindNat(size_t index, bool behind) { hosts_.at(index)->behind_nat = behind; }

bool FakeNetwork::NatAdmits(size_t host, const transport::Endpoint& source) const {
  const Host& h = *hosts_[host];
  if (!h.behind_nat) return true;
  const auto it = h.sent_to.find(source);
  return it != h.sent_to.end() && now_ - it->second < nat_flow_life_;
}

bool FakeNetwork::silent(size_t index) const { return hosts_.at(index)->silent; }

void FakeNetwork::Enqueue(size_t from, const transport::Endpoint& source,
                          const transport::Endpoint& to, std::span<const uint8_t> bytes) {
  if (loss_ > 0 && rng_.Chance(loss_)) {
    ++lost_;
    return;
  }
  in_flight_.push(
      Datagram{now_ + latency_, sequence_++, from, source, to, {bytes.begin(), bytes.end()}});
}

void FakeNetwork::Partition(std::vector<size_t> side) {
  side_.assign(hosts_.size(), false);
  for (size_t index : side) side_[index] = true;
}

void FakeNetwork::Reschedule(size_t index) {
  const transport::TimePoint next = hosts_[index]->node.NextDeadline();
  if (next == scheduled_[index]) return;
  timers_.erase({scheduled_[index], index});
  scheduled_[index] = next;
  if (next != transport::kTimeNever) timers_.insert({next, index});
}

void FakeNetwork::RunUntil(transport::TimePoint until) {
  // The test may have started lookups or joins since the last run: pick up their deadlines.
  // During the run only the host handling an event can gain a deadline.
  for (size_t i = 0; i < hosts_.size(); ++i) Reschedule(i);
  while (true) {
    const transport::TimePoint next_datagram =
        in_flight_.empty() ? transport::kTimeNever : in_flight_.top().at;
    const transport::TimePoint next_timer =
        timers_.empty() ? transport::kTimeNever : timers_.begin()->first;
    const transport::TimePoint next = std::min(next_datagram, next_timer);
    if (next > until) break;
    now_ = std::max(now_, next);
    if (next_datagram <= next_timer) {
      Datagram datagram = in_flight_.top();
      in_flight_.pop();
      auto it = by_endpoint_.find(datagram.to);
      if (it == by_endpoint_.end() || hosts_[it->second]->silent) continue;
      if (!side_.empty() && side_[datagram.from] != side_[it->second]) continue;
      if (!NatAdmits(it->second, datagram.source)) {
        ++nat_dropped_;
        continue;
      }
      // Each host knows its peers only by the address the datagram came from.
      ++delivered_;
      hosts_[it->second]->node.OnDatagram(now_, datagram.source, datagram.bytes);
      Reschedule(it->second);
    } else {
      const size_t index = timers_.begin()->second;
      timers_.erase(timers_.begin());
      scheduled_[index] = transport::kTimeNever;
      // A silent host's timers still run (it cannot send), so its deadlines move on.
      hosts_[index]->node.OnTimer(now_);
      Reschedule(index);
    }
  }
  now_ = std::max(now_, until);
}

}  // namespace skillnode::testing
