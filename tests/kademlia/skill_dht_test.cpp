#include "kademlia/skill_dht.h"

#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <string>

#include "support/fake_network.h"
#include "support/peer.h"
#include "support/records.h"

namespace skillnode::kademlia {
namespace {

using testing::FakeNetwork;
using testing::Peer;
using testing::Publisher;
using testing::RecordingTransport;
using testing::SampleRecord;
using testing::Signed;

// One node with the skill store, driven by hand.
struct DhtFixture {
  DhtFixture()
      : node(KademliaConfig{}, Identity::FromSeed(Key::Sha256("dht-node").bytes()), transport, rng,
             logger, now),
        dht(node, DhtConfig{}) {}

  // Sends `body` from `peer` and returns the node's reply to it.
  Message Ask(const Peer& peer, Body body, uint64_t txid = 1) {
    transport.Take();
    node.OnDatagram(now, peer.endpoint, Peer::Bytes(peer.Request(std::move(body), txid, false)));
    for (const auto& sent : transport.Take()) {
      const Message m = sent.Decoded();
      if (sent.to == peer.endpoint && m.header.txid == txid) return m;
    }
    FAIL("no reply");
    return {};
  }
  std::vector<uint8_t> TokenFor(const Peer& peer) {
    return std::get<NodesBody>(Ask(peer, FindNodeBody{Key::Sha256("t")}, 99).body).token;
  }
  uint16_t ErrorCodeOf(const Message& reply) {
    const auto* error = std::get_if<ErrorBody>(&reply.body);
    return error != nullptr ? error->code : 0;
  }

  TimePoint now = kTimeZero + Seconds(10);
  RecordingTransport transport;
  Rng rng{3};
  NullLogger logger;
  Node node;
  SkillDht dht;
};

WireRecord Wire(const SignedRecord& s) { return {s.encoded, s.signature}; }

TEST_CASE("a STORE with a valid token and record is stored and acknowledged", "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  const SignedRecord record = Signed(SampleRecord(), Publisher());
  const Key key = CapabilityKey("user-auth");
  const Message reply = f.Ask(peer, StoreBody{key, f.TokenFor(peer), Wire(record), 600});
  CHECK(std::holds_alternative<StoredBody>(reply.body));
  REQUIRE(f.dht.store().Get(key).size() == 1);
  CHECK(f.dht.store().Get(key)[0]->value == record);
}

TEST_CASE("STORE refusals are ERROR replies with a reason and change nothing", "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  Peer other("b", "10.0.0.3:6881");
  const Key key = CapabilityKey("user-auth");
  SkillRecord v2 = SampleRecord();
  v2.sequence = 2;
  const SignedRecord held = Signed(v2, Publisher());
  REQUIRE(std::holds_alternative<StoredBody>(
      f.Ask(peer, StoreBody{key, f.TokenFor(peer), Wire(held), 600}).body));
  const auto token = f.TokenFor(peer);
  SignedRecord flipped = Signed(SampleRecord("agent-x"), Publisher());
  flipped.encoded[flipped.encoded.size() - 10] ^= 1;  // inside the publisher key
  SignedRecord forged = Signed(SampleRecord("agent-y"), Publisher());
  forged.signature[5] ^= 1;

  struct Case {
    const char* what;
    StoreBody body;
    ErrorReplyCode code;
  };
  const Case cases[] = {
      {"no token", {key, {}, Wire(held), 600}, ErrorReplyCode::kBadToken},
      {"a token made for another address",
       {key, f.TokenFor(other), Wire(held), 600},
       ErrorReplyCode::kBadToken},
      {"a wrong token",
       {key, std::vector<uint8_t>(16, 7), Wire(held), 600},
       ErrorReplyCode::kBadToken},
      {"a flipped bit in the record",
       {key, token, Wire(flipped), 600},
       ErrorReplyCode::kBadSignature},
      {"a bad signature", {key, token, Wire(forged), 600}, ErrorReplyCode::kBadSignature},
      {"not a record", {key, token, WireRecord{{1, 2, 3}, {}}, 600}, ErrorReplyCode::kBadRecord},
      {"another key", {CapabilityKey("other"), token, Wire(held), 600}, ErrorReplyCode::kWrongKey},
      {"an older sequence",
       {key, token, Wire(Signed(SampleRecord(), Publisher())), 600},
       ErrorReplyCode::kStale},
      {"a lifetime over the TTL", {key, token, Wire(held), 7200}, ErrorReplyCode::kBadLifetime},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK(f.ErrorCodeOf(f.Ask(peer, c.body, 7)) == static_cast<uint16_t>(c.code));
    REQUIRE(f.dht.store().records() == 1);
    CHECK(f.dht.store().Get(key)[0]->value == held);
  }
  CHECK(f.dht.stats().store_refused[static_cast<size_t>(ErrorReplyCode::kBadToken)] == 3);
}

TEST_CASE("a record policy refuses STOREs with their own reply code and keeps nothing", "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  f.dht.SetRecordPolicy([](const SignedRecord& record) -> Result<void> {
    if (record.record.publisher_certificate.empty()) {
      return Fail(ErrorCode::kRefused, "no certificate");
    }
    return {};
  });
  const Key key = CapabilityKey("user-auth");
  const Message refused =
      f.Ask(peer, StoreBody{key, f.TokenFor(peer), Wire(Signed(SampleRecord(), Publisher())), 600});
  CHECK(f.ErrorCodeOf(refused) == static_cast<uint16_t>(ErrorReplyCode::kUncertified));
  CHECK(f.dht.store().records() == 0);
  CHECK(f.dht.stats().store_refused[static_cast<size_t>(ErrorReplyCode::kUncertified)] == 1);
  SkillRecord certified = SampleRecord();
  certified.publisher_certificate = {0x30, 0x82};
  const Message stored =
      f.Ask(peer, StoreBody{key, f.TokenFor(peer), Wire(Signed(certified, Publisher())), 600});
  CHECK(std::holds_alternative<StoredBody>(stored.body));
  CHECK(f.dht.store().records() == 1);
}

TEST_CASE("a write token expires after two rotations", "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  const auto token = f.TokenFor(peer);
  const SignedRecord record = Signed(SampleRecord(), Publisher());
  const Key key = SkillKey("skill-org-feishu");
  f.now += Seconds(6 * 60);  // one rotation: the previous secret still counts
  f.node.OnTimer(f.now);
  CHECK(std::holds_alternative<StoredBody>(
      f.Ask(peer, StoreBody{key, token, Wire(record), 60}).body));
  f.now += Seconds(6 * 60);  // two rotations: gone
  f.node.OnTimer(f.now);
  CHECK(f.ErrorCodeOf(f.Ask(peer, StoreBody{key, token, Wire(record), 60})) ==
        static_cast<uint16_t>(ErrorReplyCode::kBadToken));
}

TEST_CASE("FIND_VALUE pages a key with 500 records across datagrams", "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  const Key key = CapabilityKey("popular");
  const Identity publisher = Publisher();
  for (int i = 0; i < 500; ++i) {
    SkillRecord r = SampleRecord("agent-" + std::to_string(i), "skill-x");
    r.capabilities = {"popular"};
    REQUIRE(const_cast<ValueStore&>(f.dht.store())
                .Put(key, Signed(r, publisher), Address(), f.now, Seconds(600))
                .changed);
  }
  std::set<std::string> agents;
  std::optional<uint32_t> cursor = 0;
  size_t pages = 0;
  while (cursor) {
    f.transport.Take();
    f.node.OnDatagram(f.now, peer.endpoint,
                      Peer::Bytes(peer.Request(FindValueBody{key, *cursor}, 50 + pages, false)));
    const auto sent = f.transport.Take();
    REQUIRE_FALSE(sent.empty());
    CHECK(sent[0].bytes.size() <= kDatagramSizeMax);
    const auto values = std::get<ValuesBody>(sent[0].Decoded().body);
    CHECK(values.total == 500);
    REQUIRE_FALSE(values.records.empty());
    for (const auto& w : values.records) {
      auto verified = VerifyRecord(w.encoded, w.signature);
      REQUIRE(verified);
      agents.insert(verified->record.agent_id);
    }
    cursor = values.next;
    ++pages;
  }
  CHECK(agents.size() == 500);
  CHECK(pages > 1);
}

TEST_CASE("a get asks again for a page whose request was lost", "[unit]") {
  DhtFixture f;
  Peer holder("holder", "10.0.0.2:6881");
  f.node.mutable_routing_table().Heard(
      Contact{holder.id(), holder.endpoint, holder.identity.public_key(), f.now, 0}, f.now);
  const Key key = CapabilityKey("popular");
  const Identity publisher = Publisher();
  auto record = [&](int i) {
    SkillRecord r = SampleRecord("agent-" + std::to_string(i), "skill-x");
    r.capabilities = {"popular"};
    return Wire(Signed(r, publisher));
  };
  std::optional<GetResult> result;
  REQUIRE(f.dht.Get(f.now, key, GetOptions{}, [&](const GetResult& r) { result = r; }));
  // The lookup's FIND_VALUE: the holder answers with the first page and a cursor.
  auto sent = f.transport.Take();
  REQUIRE(sent.size() == 1);
  const Message first = sent[0].Decoded();
  REQUIRE(std::holds_alternative<FindValueBody>(first.body));
  ValuesBody page1;
  page1.records = {record(0), record(1)};
  page1.total = 3;
  page1.next = 2;
  f.node.OnDatagram(f.now, holder.endpoint, Peer::Bytes(holder.Reply(first, page1)));
  // The request for page 2 is lost; after rpc_timeout the get sends it again.
  sent = f.transport.Take();
  REQUIRE(sent.size() == 1);
  CHECK(std::get<FindValueBody>(sent[0].Decoded().body).cursor == 2);
  f.now += Seconds(1);
  f.node.OnTimer(f.now);
  sent = f.transport.Take();
  REQUIRE(sent.size() == 1);
  const Message again = sent[0].Decoded();
  CHECK(std::get<FindValueBody>(again.body).cursor == 2);
  CHECK(f.dht.stats().pages_retried == 1);
  ValuesBody page2;
  page2.records = {record(2)};
  page2.total = 3;
  f.node.OnDatagram(f.now, holder.endpoint, Peer::Bytes(holder.Reply(again, page2)));
  f.node.OnTimer(f.now);
  REQUIRE(result);
  CHECK(result->records.size() == 3);
}

// A network of `count` nodes with the skill store, joined through node 0.
void BuildDhtNetwork(FakeNetwork& net, size_t count, const DhtConfig& dht_config) {
  KademliaConfig config;
  config.routing.bucket_size = 8;
  net.AddDhtNode(config, dht_config);
  const Endpoint seed = net.endpoint(0);
  for (size_t i = 1; i < count; ++i) {
    net.AddDhtNode(config, dht_config);
    net.node(i).Join(net.now(), std::span(&seed, 1), nullptr);
    if (i % 10 == 0) net.RunFor(Seconds(1));
  }
  net.RunFor(Seconds(60));
}

// Each host gets every record key from `keys`; returns how many (host, key) gets found all
// the identities in `expected`.
size_t GetEverywhere(FakeNetwork& net, const Key& key, const std::set<std::string>& expected,
                     size_t* asked) {
  std::vector<std::optional<GetResult>> results(net.size());
  for (size_t i = 0; i < net.size(); ++i) {
    if (net.silent(i)) continue;
    REQUIRE(net.dht(i).Get(net.now(), key, GetOptions{},
                           [&results, i](const GetResult& r) { results[i] = r; }));
  }
  net.RunFor(Seconds(30));
  size_t complete = 0;
  *asked = 0;
  for (size_t i = 0; i < net.size(); ++i) {
    if (net.silent(i)) continue;
    ++*asked;
    REQUIRE(results[i].has_value());
    std::set<std::string> found;
    for (const auto& r : results[i]->records) {
      if (!r.record.tombstone) found.insert(r.record.agent_id);
    }
    complete += found == expected;
  }
  return complete;
}

TEST_CASE("records published by one node are found by every other, and survive 30% leaving",
          "[sim]") {
  FakeNetwork net(/*seed=*/21);
  DhtConfig dht_config;
  dht_config.republish_interval = Seconds(10 * 60);
  BuildDhtNetwork(net, 100, dht_config);
  const Identity publisher = Publisher();
  std::set<std::string> agents;
  for (int i = 0; i < 10; ++i) {
    SkillRecord r = SampleRecord("agent-" + std::to_string(i));
    net.dht(static_cast<size_t>(i) * 7).Publish(net.now(), Signed(r, publisher), nullptr);
    agents.insert(r.agent_id);
  }
  net.RunFor(Seconds(30));
  size_t asked = 0;
  CHECK(GetEverywhere(net, CapabilityKey("user-auth"), agents, &asked) == asked);

  // 30% leave at once (never a publisher), then one republish round runs.
  Rng rng(22);
  size_t gone = 0;
  while (gone < 30) {
    const auto victim = static_cast<size_t>(rng.Below(net.size()));
    if (victim % 7 == 0 || net.silent(victim)) continue;
    net.SetSilent(victim, true);
    ++gone;
  }
  net.RunFor(Seconds(11 * 60));
  CHECK(GetEverywhere(net, SceneKey("auth"), agents, &asked) == asked);
  CHECK(asked == 70);
}

// Hosts (not silent) holding a record under `key`.
std::vector<size_t> Holders(FakeNetwork& net, const Key& key) {
  std::vector<size_t> holders;
  for (size_t i = 0; i < net.size(); ++i) {
    if (!net.silent(i) && !net.dht(i).store().Get(key).empty()) holders.push_back(i);
  }
  return holders;
}

TEST_CASE("when a holder is evicted, the others give its copy to the node in its place", "[sim]") {
  FakeNetwork net(/*seed=*/31);
  BuildDhtNetwork(net, 40, DhtConfig{});  // r = 3, republish every 20 minutes
  net.dht(0).Publish(net.now(), Signed(SampleRecord(), Publisher()), nullptr);
  net.RunFor(Seconds(30));
  const Key key = CapabilityKey("user-auth");
  const std::vector<size_t> before = Holders(net, key);
  REQUIRE(before.size() >= 3);
  // The holder farthest from the key goes silent; no republish is due for 19 minutes.
  const size_t gone = before.back() == 0 ? before.front() : before.back();
  net.SetSilent(gone, true);
  REQUIRE(Holders(net, key).size() == before.size() - 1);
  // Each other holder's requests to it time out stale_failures_max (3) times: it is evicted.
  for (int attempt = 0; attempt < 3; ++attempt) {
    for (size_t holder : before) {
      if (holder == gone) continue;
      net.node(holder).Request(net.now(), net.endpoint(gone), net.node(gone).id(), PingBody{},
                               nullptr);
    }
    net.RunFor(Seconds(2));
  }
  net.RunFor(Seconds(5));
  for (size_t holder : before) {
    if (holder != gone)
      CHECK(net.node(holder).routing_table().Find(net.node(gone).id()) == nullptr);
  }
  uint64_t repaired = 0;
  for (size_t i = 0; i < net.size(); ++i) repaired += net.dht(i).stats().repair_keys;
  CHECK(repaired >= 1);
  // Back to as many live copies as before, long before the publisher's next republish.
  const std::vector<size_t> after = Holders(net, key);
  CHECK(after.size() == before.size());
  CHECK(std::find(after.begin(), after.end(), gone) == after.end());
}

TEST_CASE("a get gives a record to a close node that lacks it, for no longer than it has left",
          "[sim]") {
  FakeNetwork net(/*seed=*/32);
  BuildDhtNetwork(net, 40, DhtConfig{});  // r = 3
  const Key key = CapabilityKey("user-auth");
  // The node closest to the key (not the publisher) is away while the record is published.
  size_t closest = 1;
  for (size_t i = 2; i < net.size(); ++i) {
    if (CloserTo(key, net.node(i).id(), net.node(closest).id())) closest = i;
  }
  net.SetSilent(closest, true);
  net.dht(0).Publish(net.now(), Signed(SampleRecord(), Publisher()), nullptr);
  net.RunFor(Seconds(30));
  net.SetSilent(closest, false);
  const std::vector<size_t> before = Holders(net, key);
  REQUIRE(before.size() >= 3);
  REQUIRE(std::find(before.begin(), before.end(), closest) == before.end());
  TimePoint latest_expiry = kTimeZero;
  for (size_t holder : before) {
    latest_expiry = std::max(latest_expiry, net.dht(holder).store().Get(key)[0]->expires_at);
  }
  net.RunFor(Seconds(60));
  // A get from a node that holds nothing reaches the closest node, which answers in full
  // without the record: the get stores it there.
  size_t asker = 1;
  while (asker == closest || std::find(before.begin(), before.end(), asker) != before.end()) {
    ++asker;
  }
  std::optional<GetResult> result;
  REQUIRE(net.dht(asker).Get(net.now(), key, GetOptions{},
                             [&result](const GetResult& r) { result = r; }));
  net.RunFor(Seconds(10));
  REQUIRE(result.has_value());
  REQUIRE(result->records.size() == 1);
  CHECK(net.dht(asker).stats().read_repairs >= 1);
  const auto repaired = net.dht(closest).store().Get(key);
  REQUIRE(repaired.size() == 1);
  // Not a fresh TTL: the copy expires when the others do (to the second).
  CHECK(repaired[0]->expires_at <= latest_expiry + Seconds(1));
  CHECK(repaired[0]->expires_at >= latest_expiry - Seconds(1));
  // Every close node now holds it: another get repairs nothing.
  const uint64_t repairs = net.dht(asker).stats().read_repairs;
  result.reset();
  REQUIRE(net.dht(asker).Get(net.now(), key, GetOptions{},
                             [&result](const GetResult& r) { result = r; }));
  net.RunFor(Seconds(10));
  REQUIRE(result.has_value());
  CHECK(net.dht(asker).stats().read_repairs == repairs);
}

TEST_CASE("a tombstone removes a record everywhere before it expires", "[sim]") {
  FakeNetwork net(/*seed=*/23);
  BuildDhtNetwork(net, 40, DhtConfig{});
  const Identity publisher = Publisher();
  SkillRecord live = SampleRecord();
  net.dht(3).Publish(net.now(), Signed(live, publisher), nullptr);
  net.RunFor(Seconds(20));
  SkillRecord gone = live;
  gone.sequence = 2;
  gone.tombstone = true;
  gone.reason = UnregisterReason::kShutdown;
  std::optional<PublishResult> published;
  net.dht(3).Publish(net.now(), Signed(gone, publisher),
                     [&](const PublishResult& r) { published = r; });
  net.RunFor(Seconds(20));
  REQUIRE(published.has_value());
  CHECK(published->stored > 0);
  size_t asked = 0;
  CHECK(GetEverywhere(net, SkillKey("skill-org-feishu"), {}, &asked) == asked);
}

}  // namespace
}  // namespace skillnode::kademlia

namespace skillnode::kademlia {
namespace {

TEST_CASE("a listener sees a status change within one round trip plus one retry interval",
          "[sim]") {
  FakeNetwork net(/*seed=*/31);  // 10 ms one way
  BuildDhtNetwork(net, 60, DhtConfig{});
  const Identity publisher = Publisher();
  std::vector<ListenEvent> events;
  std::vector<TimePoint> event_times;
  const Key key = CapabilityKey("user-auth");
  REQUIRE(net.dht(40).Listen(net.now(), key, [&](const ListenEvent& e) {
    events.push_back(e);
    event_times.push_back(net.now());
  }) != 0);
  net.RunFor(Seconds(10));
  SkillRecord r = SampleRecord();
  net.dht(7).Publish(net.now(), Signed(r, publisher), nullptr);
  net.RunFor(Seconds(10));
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == ListenEvent::Kind::kAdded);

  r.sequence = 2;
  r.status = SkillStatus::kDegraded;
  std::optional<TimePoint> stored_at;
  net.dht(7).Publish(net.now(), Signed(r, publisher),
                     [&](const PublishResult&) { stored_at = net.now(); });
  net.RunFor(Seconds(10));
  REQUIRE(stored_at.has_value());
  REQUIRE(events.size() == 2);
  CHECK(events[1].kind == ListenEvent::Kind::kChanged);
  CHECK(events[1].record.record.status == SkillStatus::kDegraded);
  // The holders push as they store; the publisher learns of the store one way later.
  const Duration round_trip = Millis(20);
  CHECK(event_times[1] <= *stored_at + round_trip + KademliaConfig{}.rpc_timeout);
}

TEST_CASE("a listener cut off for a while ends with exactly the current records", "[sim]") {
  FakeNetwork net(/*seed=*/33);
  DhtConfig dht_config;
  BuildDhtNetwork(net, 60, dht_config);
  const Identity publisher = Publisher();
  const Key key = SceneKey("auth");
  const size_t listener = 50;
  const uint64_t subscription = net.dht(listener).Listen(net.now(), key, nullptr);
  REQUIRE(subscription != 0);
  auto publish = [&](SkillRecord r) {
    net.dht(5).Publish(net.now(), Signed(r, publisher), nullptr);
  };
  SkillRecord stays = SampleRecord("stays"), changes = SampleRecord("changes"),
              leaves = SampleRecord("leaves"), expires = SampleRecord("expires");
  expires.ttl_seconds = 120;
  for (const auto& r : {stays, changes, leaves, expires}) publish(r);
  net.RunFor(Seconds(20));
  REQUIRE(net.dht(listener).ListenView(subscription).size() == 4);

  net.SetSilent(listener, true);
  changes.sequence = 2;
  changes.status = SkillStatus::kMaintenance;
  publish(changes);
  leaves.sequence = 2;
  leaves.tombstone = true;
  leaves.reason = UnregisterReason::kUpgrade;
  publish(leaves);
  net.dht(5).Forget(IdentityOf(Signed(expires, publisher).record));  // no republish: it expires
  publish(SampleRecord("arrives"));
  net.RunFor(Seconds(5 * 60));
  net.SetSilent(listener, false);
  // Cut off, it evicted its contacts; the daemon's bootstrap joins it again.
  const Endpoint seed = net.endpoint(0);
  net.node(listener).Join(net.now(), std::span(&seed, 1), nullptr);
  net.RunFor(Seconds(5 * 60));  // at least one renewal

  std::map<std::string, uint64_t> view;
  for (const auto& r : net.dht(listener).ListenView(subscription)) {
    view[r.record.agent_id] = r.record.sequence;
  }
  const std::map<std::string, uint64_t> truth = {{"stays", 1}, {"changes", 2}, {"arrives", 1}};
  CHECK(view == truth);
}

}  // namespace
}  // namespace skillnode::kademlia

namespace skillnode::kademlia {
namespace {

TEST_CASE("a node's own subscription sees changes to records it holds itself", "[unit]") {
  FakeNetwork net(5);
  net.AddDhtNode(KademliaConfig{}, DhtConfig{});  // alone: it holds every record
  const Identity publisher = Publisher();
  SkillRecord record = SampleRecord();
  const Key key = SceneKey("auth");
  std::vector<std::pair<ListenEvent::Kind, UnregisterReason>> events;
  REQUIRE(net.dht(0).Listen(net.now(), key, [&](const ListenEvent& e) {
    events.emplace_back(e.kind, e.reason);
  }) != 0);
  net.RunFor(Seconds(1));
  net.dht(0).Publish(net.now(), Signed(record, publisher), nullptr);
  net.RunFor(Seconds(1));
  record.sequence = 2;
  record.status = SkillStatus::kDegraded;
  net.dht(0).Publish(net.now(), Signed(record, publisher), nullptr);
  net.RunFor(Seconds(1));
  record.sequence = 3;
  record.tombstone = true;
  record.reason = UnregisterReason::kUpgrade;
  net.dht(0).Publish(net.now(), Signed(record, publisher), nullptr);
  net.RunFor(Seconds(1));
  REQUIRE(events.size() == 3);
  CHECK(events[0].first == ListenEvent::Kind::kAdded);
  CHECK(events[1].first == ListenEvent::Kind::kChanged);
  CHECK(events[2] == std::pair{ListenEvent::Kind::kRemoved, UnregisterReason::kUpgrade});
}

}  // namespace
}  // namespace skillnode::kademlia
