// kademlia_bench: how many messages one node handles per second on one core, in process, no
// sockets; and how many contacts it can verify per second.
//
// Prints absolute rates (they depend on the machine) and ratios measured in the same run,
// which do not: handling cost relative to bare decoding, FIND_NODE relative to PING, and
// verification relative to handling. Usage: kademlia_bench [seconds-per-case]
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/store/record/term_pointer.h"
#include "kademlia/store/record/term_profile.h"
#include "kademlia/store/skill_dht.h"
#include "kademlia/store/terms/term_table.h"
#include "kademlia/wire/wire.h"
#include "transport/logger.h"

namespace skillnode::kademlia {
namespace {

using BenchClock = std::chrono::steady_clock;

// Counts sends; keeps the bytes only when asked to.
class NullTransport : public transport::Transport {
 public:
  void Send(const transport::Endpoint&, std::span<const uint8_t> datagram) override {
    ++sent;
    if (record) last.assign(datagram.begin(), datagram.end());
  }
  uint64_t sent = 0;
  bool record = false;
  std::vector<uint8_t> last;
};

// Runs `step(i)` for about `seconds` and returns calls per second.
double Rate(double seconds, const std::function<void(uint64_t)>& step) {
  uint64_t calls = 0;
  const auto start = BenchClock::now();
  const auto stop = start + std::chrono::duration<double>(seconds);
  auto now = start;
  while (now < stop) {
    for (int i = 0; i < 256; ++i) step(calls++);
    now = BenchClock::now();
  }
  return static_cast<double>(calls) / std::chrono::duration<double>(now - start).count();
}

struct Peer {
  Identity identity;
  transport::Endpoint endpoint;
};

std::vector<Peer> MakePeers(size_t count) {
  std::vector<Peer> peers;
  for (size_t i = 0; i < count; ++i) {
    auto n = static_cast<uint32_t>(i + 1);
    peers.push_back(
        Peer{Identity::FromSeed(Key::Sha256("bench-peer-" + std::to_string(i)).bytes()),
             transport::Endpoint(
                 transport::Address::V4({10, static_cast<uint8_t>(n >> 16),
                                         static_cast<uint8_t>(n >> 8), static_cast<uint8_t>(n)}),
                 6881)});
  }
  return peers;
}

std::vector<uint8_t> RequestBytes(const Peer& peer, uint64_t txid, wire::Body body) {
  wire::Message message;
  message.header.txid = txid;
  message.header.sender_id = peer.identity.node_id();
  message.header.sender_key = peer.identity.public_key();
  message.body = std::move(body);
  return wire::Encode(message).value();
}

store::SkillRecord BenchRecord(size_t i) {
  store::SkillRecord r;
  r.agent_id = "agent-" + std::to_string(i);
  r.skill_id = "skill-org-feishu";
  r.version = "0.7.0";
  r.skill_type = "enterprise-skill";
  r.endpoint = "192.168.1.100:8080";
  r.capabilities = {"org-data-read", "user-auth"};
  r.scenes = {"auth"};
  r.timestamp_ms = 1707868800000;
  r.sequence = 1;
  r.ttl_seconds = 3600;
  return r;
}

// The skill store: records verified per second, memory per stored record against its encoded
// size, and STORE and FIND_VALUE handled per second by one node.
// Memory per term pointer held for others: 200 keys of 256 pointers (full shards), each
// pointer as a 24-term skill publishes it (a profile of 24 terms, a description prefix of the
// most bytes a pointer carries), from 50 source addresses.
void TermTableBench() {
  const Identity publisher = Identity::FromSeed(Key::Sha256("bench-publisher").bytes());
  std::vector<std::pair<std::string, uint32_t>> terms;
  for (size_t t = 0; t < 24; ++t) terms.emplace_back("term" + std::to_string(t), 100 + t * 37);
  std::vector<std::pair<std::string_view, uint32_t>> term_views(terms.begin(), terms.end());
  const store::TermProfile profile = store::TermProfile::Of(term_views);
  std::vector<std::pair<Key, store::SignedTermPointer>> pointers;
  constexpr size_t kKeys = 200;
  for (size_t i = 0; i < kKeys * store::kTermPointersPerKeyMax; ++i) {
    const std::string term = "term" + std::to_string(i % kKeys);
    store::TermPointer p;
    p.term = term;
    p.skill_id = "skill-" + std::to_string(i);
    p.agent_id = "agent-" + std::to_string(i % 1000);
    p.record_key = store::SkillKey(p.skill_id);
    p.name = "Calendar helper " + std::to_string(i);
    p.description = std::string(store::kTermPointerDescriptionBytesMax, 'd');
    p.weight_centi = 100 + static_cast<uint32_t>(i % 997);
    p.timestamp_ms = store::kSimulatedEpochMs;
    p.sequence = 1;
    p.ttl_seconds = 3600;
    p.terms = profile;
    pointers.emplace_back(store::TermKey(term), store::SignTermPointer(p, publisher).value());
  }
  const size_t before = mallinfo2().uordblks;
  {
    store::terms::TermTableLimits limits;
    limits.bytes_total_max = size_t{1} << 32;
    limits.per_ip_share_max = 1.0;
    store::terms::TermTable table(limits);
    for (size_t i = 0; i < pointers.size(); ++i) {
      const auto source = transport::Address::V4({10, 0, static_cast<uint8_t>(i % 50), 1});
      if (table
              .Put(pointers[i].first, pointers[i].second, source, transport::kTimeZero,
                   transport::Seconds(3600 + static_cast<int64_t>(i % 600)))
              .refusal != store::terms::TermRefusal::kNone) {
        std::abort();
      }
    }
    const size_t used = mallinfo2().uordblks - before;
    const double encoded =
        static_cast<double>(table.bytes()) / static_cast<double>(table.pointers());
    const double per_pointer = static_cast<double>(used) / static_cast<double>(table.pointers());
    std::printf(
        "held term pointer: %.0f bytes of memory for %.0f bytes encoded + signature (%.2fx)\n",
        per_pointer, encoded, per_pointer / encoded);
  }
}

void StoreBench(double seconds, const KademliaConfig& config, const std::vector<Peer>& peers) {
  const Identity publisher = Identity::FromSeed(Key::Sha256("bench-publisher").bytes());
  std::vector<store::SignedRecord> records;
  for (size_t i = 0; i < 20000; ++i)
    records.push_back(store::SignRecord(BenchRecord(i), publisher).value());
  const double verify_rate = Rate(seconds, [&](uint64_t i) {
    const store::SignedRecord& r = records[i % records.size()];
    if (!store::VerifyRecord(r.encoded, r.signature)) std::abort();
  });

  const size_t before = mallinfo2().uordblks;
  {
    store::ValueStore store({});
    for (size_t i = 0; i < records.size(); ++i) {
      if (!store
               .Put(store::CapabilityKey("user-auth-" + std::to_string(i % 100)), records[i],
                    transport::Address(), transport::kTimeZero, transport::Seconds(3600))
               .changed) {
        std::abort();
      }
    }
    const size_t used = mallinfo2().uordblks - before;
    const double encoded =
        static_cast<double>(store.bytes()) / static_cast<double>(store.records());
    const double per_record = static_cast<double>(used) / static_cast<double>(store.records());
    std::printf("stored record: %.0f bytes of memory for %.0f bytes encoded + signature (%.2fx)\n",
                per_record, encoded, per_record / encoded);
  }

  NullTransport transport;
  transport::Rng rng(2);
  transport::NullLogger logger;
  transport::TimePoint now = transport::kTimeZero + transport::Seconds(1);
  Node node(config, Identity::FromSeed(Key::Sha256("bench-holder").bytes()), transport, rng, logger,
            now);
  store::DhtConfig dht_config;
  dht_config.limits.records_per_key_max = records.size();
  dht_config.limits.per_ip_share_max = 1.0;
  store::SkillDht dht(node, dht_config);
  const Key key = store::CapabilityKey("user-auth");
  std::vector<std::vector<uint8_t>> stores, finds;
  for (size_t i = 0; i < records.size(); ++i) {
    const Peer& p = peers[i % peers.size()];
    wire::StoreBody store{key, node.tokens().For(p.endpoint.address()),
                          wire::WireRecord{records[i].encoded, records[i].signature}, 3600};
    stores.push_back(RequestBytes(p, i + 1, store));
    finds.push_back(
        RequestBytes(p, i + 1, wire::FindValueBody{key, static_cast<uint32_t>(i % 64), {}}));
  }
  const double store_rate = Rate(seconds, [&](uint64_t i) {
    const size_t n = i % stores.size();
    node.OnDatagram(now, peers[n % peers.size()].endpoint, stores[n]);
  });
  const double find_rate = Rate(seconds, [&](uint64_t i) {
    const size_t n = i % finds.size();
    node.OnDatagram(now, peers[n % peers.size()].endpoint, finds[n]);
  });
  std::printf("records verified:              %10.0f /s\n", verify_rate);
  std::printf("STORE decoded + handled:       %10.0f msg/s (%llu accepted)\n", store_rate,
              static_cast<unsigned long long>(dht.stats().stores_accepted));
  std::printf("FIND_VALUE decoded + handled:  %10.0f msg/s (%zu records under the key)\n",
              find_rate, dht.store().Get(key).size());
  std::printf("ratio STORE / records verified:       %.2f\n", store_rate / verify_rate);
}

int Main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 2.0;
  KademliaConfig config;
  // The benchmark measures handling, not the rate limiter's refusals.
  config.rate_limit.per_ip_rate = config.rate_limit.global_rate = 1e12;
  config.rate_limit.per_ip_burst = config.rate_limit.global_burst = 1e12;
  NullTransport transport;
  transport::Rng rng(1);
  transport::NullLogger logger;
  transport::TimePoint now = transport::kTimeZero + transport::Seconds(1);
  Node node(config, Identity::FromSeed(Key::Sha256("bench-node").bytes()), transport, rng, logger,
            now);

  // A routing table of 1,000 contacts, as a node in a large network holds.
  const auto peers = MakePeers(1000);
  for (const Peer& p : peers) {
    Contact c{p.identity.node_id(), p.endpoint, p.identity.public_key(), now, 0};
    node.mutable_routing_table().Heard(c, now);
  }
  std::printf("routing table: %zu contacts in %zu buckets\n", node.routing_table().size(),
              node.routing_table().bucket_count());

  // Requests from 1,000 distinct senders, pre-encoded so only handling is timed.
  std::vector<std::vector<uint8_t>> pings, finds;
  for (size_t i = 0; i < peers.size(); ++i) {
    pings.push_back(RequestBytes(peers[i], i + 1, wire::PingBody{}));
    finds.push_back(
        RequestBytes(peers[i], i + 1, wire::FindNodeBody{Key::Sha256(std::to_string(i))}));
  }
  const double decode_rate = Rate(seconds, [&](uint64_t i) {
    auto m = wire::Decode(pings[i % pings.size()]);
    if (!m) std::abort();
  });
  const double ping_rate = Rate(seconds, [&](uint64_t i) {
    const size_t p = i % peers.size();
    node.OnDatagram(now, peers[p].endpoint, pings[p]);
  });
  const double find_rate = Rate(seconds, [&](uint64_t i) {
    const size_t p = i % peers.size();
    node.OnDatagram(now, peers[p].endpoint, finds[p]);
  });
  // Contacts verified per second: a fresh node pings every peer; each signed PONG is decoded,
  // its signature checked and the peer inserted. Only the node's side is timed.
  double verify_seconds = 0;
  size_t verified = 0;
  while (verify_seconds < seconds) {
    NullTransport wire;
    wire.record = true;
    Node fresh(config, Identity::FromSeed(Key::Sha256("bench-fresh").bytes()), wire, rng, logger,
               now);
    std::vector<std::vector<uint8_t>> pongs;
    for (const Peer& p : peers) {
      if (!fresh.Ping(now, p.endpoint, nullptr)) std::abort();
      const wire::Message ping = wire::Decode(wire.last).value();
      wire::Message pong;
      pong.header.txid = ping.header.txid;
      pong.header.sender_id = p.identity.node_id();
      pong.header.sender_key = p.identity.public_key();
      pong.header.proof =
          p.identity.Sign(wire::ProofBytes(0, ping.header.txid, p.identity.node_id(), fresh.id()));
      pong.body = wire::PongBody{};
      pongs.push_back(wire::Encode(pong).value());
    }
    const auto start = BenchClock::now();
    for (size_t i = 0; i < peers.size(); ++i) fresh.OnDatagram(now, peers[i].endpoint, pongs[i]);
    verify_seconds += std::chrono::duration<double>(BenchClock::now() - start).count();
    if (fresh.stats().signatures_verified != peers.size()) std::abort();
    verified += peers.size();
  }
  const double verify_rate = static_cast<double>(verified) / verify_seconds;

  std::printf("decode only (PING):            %10.0f msg/s\n", decode_rate);
  std::printf("PING decoded + handled:        %10.0f msg/s\n", ping_rate);
  std::printf("FIND_NODE decoded + handled:   %10.0f msg/s\n", find_rate);
  std::printf("contacts verified (Ed25519):   %10.0f /s\n", verify_rate);
  std::printf("ratio PING handled / decode only:     %.2f\n", ping_rate / decode_rate);
  std::printf("ratio FIND_NODE / PING handled:       %.2f\n", find_rate / ping_rate);
  std::printf("ratio verifications / PING handled:   %.2f\n", verify_rate / ping_rate);
  StoreBench(seconds, config, peers);
  TermTableBench();
  std::printf("replies sent: %llu, dropped: %llu\n",
              static_cast<unsigned long long>(transport.sent),
              static_cast<unsigned long long>(node.stats().dropped_total()));
  return 0;
}

}  // namespace
}  // namespace skillnode::kademlia

int main(int argc, char** argv) { return skillnode::kademlia::Main(argc, argv); }
