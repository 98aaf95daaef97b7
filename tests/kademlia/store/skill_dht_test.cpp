// SkillDht on one node driven by hand: STORE and its refusals, write tokens, FIND_VALUE paging,
// a get's page retry, and a lone node's own subscription. Many-node runs (publish, get,
// replication, listen) are in skill_dht_network_test.cpp.
#include "kademlia/store/skill_dht.h"

#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <string>

#include "support/dht_fixture.h"
#include "support/fake_network.h"
#include "support/peer.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::DhtFixture;
using testing::FakeNetwork;
using testing::Peer;
using testing::Publisher;
using testing::RecordingTransport;
using testing::SampleRecord;
using testing::Signed;

wire::WireRecord Wire(const SignedRecord& s) { return {s.encoded, s.signature}; }

TEST_CASE("a STORE with a valid token and record is stored and acknowledged", "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  const SignedRecord record = Signed(SampleRecord(), Publisher());
  const Key key = CapabilityKey("user-auth");
  const wire::Message reply =
      f.Ask(peer, wire::StoreBody{key, f.TokenFor(peer), Wire(record), 600});
  CHECK(std::holds_alternative<wire::StoredBody>(reply.body));
  REQUIRE(f.dht.store().Get(key).size() == 1);
  CHECK(*f.dht.store().Get(key)[0]->value == record);
}

TEST_CASE(
    "a record with unknown trailing elements is stored and answered with the bytes its "
    "publisher signed",
    "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  const Identity publisher = Publisher();
  SkillRecord r = SampleRecord();
  r.publisher = publisher.public_key();
  r.publisher_domains = {"pub.example"};
  // As a newer version writes it: the 19 fields, then "hello" and [1, true] after them.
  std::vector<uint8_t> bytes = EncodeRecord(r);
  REQUIRE(bytes[2] == 19);  // array16 of 19
  bytes[2] = 21;
  bytes.insert(bytes.end(), {0xa5, 'h', 'e', 'l', 'l', 'o', 0x92, 0x01, 0xc3});
  const wire::WireRecord sent{bytes, publisher.Sign(bytes)};
  const Key key = CapabilityKey("user-auth");
  REQUIRE(std::holds_alternative<wire::StoredBody>(
      f.Ask(peer, wire::StoreBody{key, f.TokenFor(peer), sent, 600}).body));
  REQUIRE(f.dht.store().Get(key).size() == 1);
  CHECK(f.dht.store().Get(key)[0]->value->encoded == bytes);
  const wire::Message reply = f.Ask(peer, wire::FindValueBody{key, 0, {}}, 7);
  const auto* values = std::get_if<wire::ValuesBody>(&reply.body);
  REQUIRE(values != nullptr);
  REQUIRE(values->records.size() == 1);
  CHECK(values->records[0].encoded == bytes);
  CHECK(values->records[0].signature == sent.signature);
}

TEST_CASE("STORE refusals are ERROR replies with a reason and change nothing", "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  Peer other("b", "10.0.0.3:6881");
  const Key key = CapabilityKey("user-auth");
  SkillRecord v2 = SampleRecord();
  v2.sequence = 2;
  const SignedRecord held = Signed(v2, Publisher());
  REQUIRE(std::holds_alternative<wire::StoredBody>(
      f.Ask(peer, wire::StoreBody{key, f.TokenFor(peer), Wire(held), 600}).body));
  const auto token = f.TokenFor(peer);
  SignedRecord flipped = Signed(SampleRecord("agent-x"), Publisher());
  flipped.encoded[flipped.encoded.size() - 10] ^= 1;  // inside the publisher key
  SignedRecord forged = Signed(SampleRecord("agent-y"), Publisher());
  forged.signature[5] ^= 1;

  struct Case {
    const char* what;
    wire::StoreBody body;
    wire::ErrorReplyCode code;
  };
  const Case cases[] = {
      {"no token", {key, {}, Wire(held), 600}, wire::ErrorReplyCode::kBadToken},
      {"a token made for another address",
       {key, f.TokenFor(other), Wire(held), 600},
       wire::ErrorReplyCode::kBadToken},
      {"a wrong token",
       {key, std::vector<uint8_t>(16, 7), Wire(held), 600},
       wire::ErrorReplyCode::kBadToken},
      {"a flipped bit in the record",
       {key, token, Wire(flipped), 600},
       wire::ErrorReplyCode::kBadSignature},
      {"a bad signature", {key, token, Wire(forged), 600}, wire::ErrorReplyCode::kBadSignature},
      {"not a record",
       {key, token, wire::WireRecord{{1, 2, 3}, {}}, 600},
       wire::ErrorReplyCode::kBadRecord},
      {"another key",
       {CapabilityKey("other"), token, Wire(held), 600},
       wire::ErrorReplyCode::kWrongKey},
      {"an older sequence",
       {key, token, Wire(Signed(SampleRecord(), Publisher())), 600},
       wire::ErrorReplyCode::kStale},
      {"a lifetime over the TTL",
       {key, token, Wire(held), 7200},
       wire::ErrorReplyCode::kBadLifetime},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK(f.ErrorCodeOf(f.Ask(peer, c.body, 7)) == static_cast<uint16_t>(c.code));
    REQUIRE(f.dht.store().records() == 1);
    CHECK(*f.dht.store().Get(key)[0]->value == held);
  }
  CHECK(f.dht.stats().store_refused[static_cast<size_t>(wire::ErrorReplyCode::kBadToken)] == 3);
}

TEST_CASE("a record policy refuses STOREs with their own reply code and keeps nothing", "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  f.dht.SetRecordPolicy([](const SignedRecord& record) -> transport::Result<void> {
    if (record.record.publisher_certificate.empty()) {
      return transport::Fail(transport::ErrorCode::kRefused, "no certificate");
    }
    return {};
  });
  const Key key = CapabilityKey("user-auth");
  const wire::Message refused = f.Ask(
      peer, wire::StoreBody{key, f.TokenFor(peer), Wire(Signed(SampleRecord(), Publisher())), 600});
  CHECK(f.ErrorCodeOf(refused) == static_cast<uint16_t>(wire::ErrorReplyCode::kUncertified));
  CHECK(f.dht.store().records() == 0);
  CHECK(f.dht.stats().store_refused[static_cast<size_t>(wire::ErrorReplyCode::kUncertified)] == 1);
  SkillRecord certified = SampleRecord();
  certified.publisher_certificate = {0x30, 0x82};
  const wire::Message stored = f.Ask(
      peer, wire::StoreBody{key, f.TokenFor(peer), Wire(Signed(certified, Publisher())), 600});
  CHECK(std::holds_alternative<wire::StoredBody>(stored.body));
  CHECK(f.dht.store().records() == 1);
}

TEST_CASE("a write token expires after two rotations", "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  const auto token = f.TokenFor(peer);
  const SignedRecord record = Signed(SampleRecord(), Publisher());
  const Key key = SkillKey("skill-org-feishu");
  f.now += transport::Seconds(6 * 60);  // one rotation: the previous secret still counts
  f.node.OnTimer(f.now);
  CHECK(std::holds_alternative<wire::StoredBody>(
      f.Ask(peer, wire::StoreBody{key, token, Wire(record), 60}).body));
  f.now += transport::Seconds(6 * 60);  // two rotations: gone
  f.node.OnTimer(f.now);
  CHECK(f.ErrorCodeOf(f.Ask(peer, wire::StoreBody{key, token, Wire(record), 60})) ==
        static_cast<uint16_t>(wire::ErrorReplyCode::kBadToken));
}

TEST_CASE("FIND_VALUE pages a key with 500 records across datagrams", "[unit]") {
  DhtFixture f;
  Peer peer("a", "10.0.0.2:6881");
  const Key key = CapabilityKey("popular");
  const Identity publisher = Publisher();
  for (int i = 0; i < 500; ++i) {
    SkillRecord r = SampleRecord("agent-" + std::to_string(i), "skill-x");
    r.capabilities = {"popular"};
    REQUIRE(
        const_cast<ValueStore&>(f.dht.store())
            .Put(key, Signed(r, publisher), transport::Address(), f.now, transport::Seconds(600))
            .changed);
  }
  std::set<std::string> agents;
  std::optional<uint32_t> cursor = 0;
  size_t pages = 0;
  while (cursor) {
    f.transport.Take();
    f.node.OnDatagram(
        f.now, peer.endpoint,
        Peer::Bytes(peer.Request(wire::FindValueBody{key, *cursor, {}}, 50 + pages, false)));
    const auto sent = f.transport.Take();
    REQUIRE_FALSE(sent.empty());
    CHECK(sent[0].bytes.size() <= kDatagramSizeMax);
    const auto values = std::get<wire::ValuesBody>(sent[0].Decoded().body);
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
  const wire::Message first = sent[0].Decoded();
  REQUIRE(std::holds_alternative<wire::FindValueBody>(first.body));
  wire::ValuesBody page1;
  page1.records = {record(0), record(1)};
  page1.total = 3;
  page1.next = 2;
  f.node.OnDatagram(f.now, holder.endpoint, Peer::Bytes(holder.Reply(first, page1)));
  // The request for page 2 is lost; after rpc_timeout the get sends it again.
  sent = f.transport.Take();
  REQUIRE(sent.size() == 1);
  CHECK(std::get<wire::FindValueBody>(sent[0].Decoded().body).cursor == 2);
  f.now += transport::Seconds(1);
  f.node.OnTimer(f.now);
  sent = f.transport.Take();
  REQUIRE(sent.size() == 1);
  const wire::Message again = sent[0].Decoded();
  CHECK(std::get<wire::FindValueBody>(again.body).cursor == 2);
  CHECK(f.dht.stats().pages_retried == 1);
  wire::ValuesBody page2;
  page2.records = {record(2)};
  page2.total = 3;
  f.node.OnDatagram(f.now, holder.endpoint, Peer::Bytes(holder.Reply(again, page2)));
  f.node.OnTimer(f.now);
  REQUIRE(result);
  CHECK(result->records.size() == 3);
}

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
  net.RunFor(transport::Seconds(1));
  net.dht(0).Publish(net.now(), Signed(record, publisher), nullptr);
  net.RunFor(transport::Seconds(1));
  record.sequence = 2;
  record.status = SkillStatus::kDegraded;
  net.dht(0).Publish(net.now(), Signed(record, publisher), nullptr);
  net.RunFor(transport::Seconds(1));
  record.sequence = 3;
  record.tombstone = true;
  record.reason = UnregisterReason::kUpgrade;
  net.dht(0).Publish(net.now(), Signed(record, publisher), nullptr);
  net.RunFor(transport::Seconds(1));
  REQUIRE(events.size() == 3);
  CHECK(events[0].first == ListenEvent::Kind::kAdded);
  CHECK(events[1].first == ListenEvent::Kind::kChanged);
  CHECK(events[2] == std::pair{ListenEvent::Kind::kRemoved, UnregisterReason::kUpgrade});
}

}  // namespace
}  // namespace skillnode::kademlia::store
