#include "kademlia/store/holder/value_store.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

constexpr transport::TimePoint kNow = transport::kTimeZero + transport::Seconds(100);
const transport::Duration kHour = transport::Seconds(3600);

transport::Address Ip(const char* text) { return *transport::Address::Parse(text); }

SignedRecord Version(uint64_t sequence, const std::string& agent = "agent-001",
                     const std::string& publisher = "publisher") {
  SkillRecord r = SampleRecord(agent);
  r.sequence = sequence;
  return Signed(r, Publisher(publisher));
}

TEST_CASE("a higher sequence replaces a record and a lower one is refused as stale", "[unit]") {
  ValueStore store({});
  const Key key = CapabilityKey("user-auth");
  CHECK(store.Put(key, Version(2), Ip("10.0.0.1"), kNow, kHour).changed);
  auto stale = store.Put(key, Version(1), Ip("10.0.0.1"), kNow, kHour);
  CHECK(stale.refusal == StoreRefusal::kStale);
  CHECK(store.Get(key).at(0)->value->record.sequence == 2);
  CHECK(store.Put(key, Version(3), Ip("10.0.0.2"), kNow, kHour).changed);
  CHECK(store.records() == 1);
  CHECK(store.Get(key).at(0)->value->record.sequence == 3);
  CHECK(store.bytes_from(Ip("10.0.0.1")) == 0);  // the replaced copy's bytes are released
}

TEST_CASE("the same record again extends its life but other bytes at one sequence are refused",
          "[unit]") {
  ValueStore store({});
  const Key key = CapabilityKey("user-auth");
  const SignedRecord v1 = Version(1);
  REQUIRE(store.Put(key, v1, Ip("10.0.0.1"), kNow, transport::Seconds(60)).changed);
  auto refresh =
      store.Put(key, v1, Ip("10.0.0.1"), kNow + transport::Seconds(50), transport::Seconds(60));
  CHECK(refresh.refusal == StoreRefusal::kNone);
  CHECK_FALSE(refresh.changed);
  CHECK(store.NextExpiry() == kNow + transport::Seconds(110));
  SkillRecord other = SampleRecord();
  other.endpoint = "10.9.9.9:1";  // same sequence 1, different content
  CHECK(store.Put(key, Signed(other, Publisher()), Ip("10.0.0.1"), kNow, kHour).refusal ==
        StoreRefusal::kStale);
}

TEST_CASE("records of different identities live side by side under one key", "[unit]") {
  ValueStore store({});
  const Key key = CapabilityKey("user-auth");
  store.Put(key, Version(1, "agent-a"), Ip("10.0.0.1"), kNow, kHour);
  store.Put(key, Version(1, "agent-b"), Ip("10.0.0.1"), kNow, kHour);
  store.Put(key, Version(1, "agent-a", "other-publisher"), Ip("10.0.0.1"), kNow, kHour);
  CHECK(store.Get(key).size() == 3);
  CHECK(store.keys() == 1);
}

TEST_CASE("a tombstone replaces its record and outlives a late stale copy", "[unit]") {
  ValueStore store({});
  const Key key = SkillKey("skill-org-feishu");
  REQUIRE(store.Put(key, Version(1), Ip("10.0.0.1"), kNow, kHour).changed);
  SkillRecord gone = SampleRecord();
  gone.sequence = 2;
  gone.tombstone = true;
  gone.reason = UnregisterReason::kShutdown;
  REQUIRE(store.Put(key, Signed(gone, Publisher()), Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(store.Get(key).at(0)->value->record.tombstone);
  // A copy of the old record arriving late from elsewhere cannot bring it back.
  CHECK(store.Put(key, Version(1), Ip("10.0.0.7"), kNow + transport::Seconds(10), kHour).refusal ==
        StoreRefusal::kStale);
  CHECK(store.Get(key).at(0)->value->record.tombstone);
}

TEST_CASE("records expire at their time and report what went", "[unit]") {
  ValueStore store({});
  store.Put(CapabilityKey("a"), Version(1, "x"), Ip("10.0.0.1"), kNow, transport::Seconds(60));
  store.Put(CapabilityKey("b"), Version(1, "y"), Ip("10.0.0.1"), kNow, transport::Seconds(120));
  CHECK(store.Expire(kNow + transport::Seconds(59)).empty());
  auto gone = store.Expire(kNow + transport::Seconds(60));
  REQUIRE(gone.size() == 1);
  CHECK(gone[0].key == CapabilityKey("a"));
  CHECK(gone[0].identity.agent_id == "x");
  CHECK(gone[0].sequence == 1);
  CHECK(store.records() == 1);
  CHECK(store.Expire(kNow + transport::Seconds(500)).size() == 1);
  CHECK(store.records() == 0);
  CHECK(store.bytes() == 0);
  CHECK(store.keys() == 0);
  CHECK(store.NextExpiry() == transport::kTimeNever);
}

TEST_CASE("per-key quotas refuse newcomers and keep what is stored", "[unit]") {
  StoreLimits limits;
  limits.records_per_key_max = 3;
  ValueStore store(limits);
  const Key key = CapabilityKey("busy");
  for (int i = 0; i < 3; ++i) {
    REQUIRE(store.Put(key, Version(1, "agent-" + std::to_string(i)), Ip("10.0.0.1"), kNow, kHour)
                .changed);
  }
  CHECK(store.Put(key, Version(1, "agent-9"), Ip("10.0.0.1"), kNow, kHour).refusal ==
        StoreRefusal::kQuotaKey);
  CHECK(store.Get(key).size() == 3);
  // An update of a record already held is not a newcomer.
  CHECK(store.Put(key, Version(2, "agent-0"), Ip("10.0.0.1"), kNow, kHour).changed);

  StoreLimits byte_limits;
  byte_limits.bytes_per_key_max = Version(1).encoded.size() + 64 + 10;
  ValueStore small(byte_limits);
  REQUIRE(small.Put(key, Version(1, "agent-a"), Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(small.Put(key, Version(1, "agent-b"), Ip("10.0.0.1"), kNow, kHour).refusal ==
        StoreRefusal::kQuotaKey);
}

TEST_CASE("one source IP may fill only its share of the store", "[unit]") {
  const size_t one = Version(1).encoded.size() + 64;
  StoreLimits limits;
  limits.bytes_total_max = one * 8;
  limits.per_ip_share_max = 0.25;  // two records' worth
  ValueStore store(limits);
  int accepted = 0;
  for (int i = 0; i < 5; ++i) {
    auto r = store.Put(CapabilityKey("c" + std::to_string(i)), Version(1, "a" + std::to_string(i)),
                       Ip("10.0.0.1"), kNow, kHour);
    if (r.changed) ++accepted;
    if (i >= 2) CHECK(r.refusal == StoreRefusal::kQuotaIp);
  }
  CHECK(accepted == 2);
  CHECK(store.Put(CapabilityKey("c0"), Version(1, "z"), Ip("10.0.0.2"), kNow, kHour).changed);
}

TEST_CASE("the node's own records are not held to one source's share", "[unit]") {
  const size_t one = Version(1).encoded.size() + 64;
  StoreLimits limits;
  limits.bytes_total_max = one * 8;
  limits.per_ip_share_max = 0.25;
  ValueStore store(limits);
  for (int i = 0; i < 5; ++i) {
    CHECK(store
              .Put(CapabilityKey("c" + std::to_string(i)), Version(1, "a" + std::to_string(i)),
                   transport::Address(), kNow, kHour)
              .changed);
  }
  CHECK(store.records() == 5);
}

TEST_CASE("a full store evicts the oldest record of the heaviest source, never the newcomer's",
          "[unit]") {
  const size_t one = Version(1).encoded.size() + 64;
  StoreLimits limits;
  limits.bytes_total_max = one * 4;
  limits.per_ip_share_max = 1.0;  // only the total quota applies here
  ValueStore store(limits);
  auto put = [&](const char* agent, const char* ip, int age_s) {
    return store.Put(CapabilityKey(agent), Version(1, agent), Ip(ip),
                     kNow + transport::Seconds(age_s), kHour);
  };
  REQUIRE(put("heavy-old", "10.0.0.1", 0).changed);
  REQUIRE(put("heavy-mid", "10.0.0.1", 1).changed);
  REQUIRE(put("heavy-new", "10.0.0.1", 2).changed);
  REQUIRE(put("light", "10.0.0.2", 3).changed);
  // Full. A newcomer from a light source evicts the heavy source's oldest record.
  REQUIRE(put("newcomer", "10.0.0.3", 4).changed);
  CHECK(store.evicted() == 1);
  CHECK(store.Get(CapabilityKey("heavy-old")).empty());
  CHECK(store.Get(CapabilityKey("heavy-new")).size() == 1);
  CHECK(store.Get(CapabilityKey("light")).size() == 1);
  // The heaviest source itself cannot push others out: it is refused, nothing changes.
  REQUIRE(store.records() == 4);
  CHECK(put("more-heavy", "10.0.0.1", 5).refusal == StoreRefusal::kQuotaTotal);
  CHECK(store.records() == 4);
  CHECK(store.Get(CapabilityKey("light")).size() == 1);
}

TEST_CASE("a newer version that needs room may evict its own older copy, and is stored", "[unit]") {
  const size_t one = Version(1).encoded.size() + 64;
  StoreLimits limits;
  limits.bytes_total_max = one * 4;
  limits.per_ip_share_max = 1.0;
  ValueStore store(limits);
  const Key key = CapabilityKey("user-auth");
  // The heavy source's oldest record is the one the newcomer replaces.
  REQUIRE(store.Put(key, Version(1), Ip("10.0.0.1"), kNow, kHour).changed);
  for (const char* agent : {"heavy-b", "heavy-c"}) {
    REQUIRE(
        store.Put(CapabilityKey(agent), Version(1, agent), Ip("10.0.0.1"), kNow, kHour).changed);
  }
  REQUIRE(
      store.Put(CapabilityKey("light"), Version(1, "light"), Ip("10.0.0.2"), kNow, kHour).changed);
  SkillRecord larger = SampleRecord();
  larger.sequence = 2;
  larger.capabilities.push_back("a-capability-of-forty-bytes-or-so-more");  // past the room left
  auto put = store.Put(key, Signed(larger, Publisher()), Ip("10.0.0.3"),
                       kNow + transport::Seconds(1), kHour);
  CHECK(put.changed);
  REQUIRE(store.Get(key).size() == 1);
  CHECK(store.Get(key).at(0)->value->record.sequence == 2);
  CHECK(store.bytes() <= limits.bytes_total_max);
}

TEST_CASE("records under a key come back in a stable order", "[unit]") {
  ValueStore store({});
  const Key key = CapabilityKey("many");
  for (int i = 0; i < 500; ++i) {
    REQUIRE(store.Put(key, Version(1, "agent-" + std::to_string(i)), Ip("10.0.0.1"), kNow, kHour)
                .changed);
  }
  const auto first = store.Get(key);
  const auto second = store.Get(key);
  REQUIRE(first.size() == 500);
  CHECK(first == second);
  CHECK(store.Keys() == std::vector<Key>{key});
}

TEST_CASE("a record given shared is held as given, and a copy held already is kept", "[unit]") {
  ValueStore store{StoreLimits{}};
  const auto verified = std::make_shared<const SignedRecord>(Version(1));
  const Key a = Key::Sha256("a");
  const Key b = Key::Sha256("b");
  const auto put = store.Put(a, verified, Ip("10.0.0.1"), kNow, kHour);
  REQUIRE(put.changed);
  CHECK(put.record == verified);  // the caller's allocation, not a copy
  CHECK(store.Get(a).at(0)->value == verified);
  // Another allocation of the same record, under another key: the one held is shared.
  const auto other = std::make_shared<const SignedRecord>(Version(1));
  REQUIRE(store.Put(b, other, Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(store.Get(b).at(0)->value == verified);
  // A record given by value is copied only when no key holds it.
  const auto copied = store.Put(Key::Sha256("c"), Version(2), transport::Address(), kNow, kHour);
  REQUIRE(copied.changed);
  CHECK(copied.record->record.sequence == 2);
}

}  // namespace
}  // namespace skillnode::kademlia::store

namespace skillnode::kademlia::store {
namespace {

TEST_CASE("one record under several keys is held once, shared by the keys", "[unit]") {
  ValueStore store{StoreLimits{}};
  const SignedRecord record = Version(1);
  const Key a = Key::Sha256("a");
  const Key b = Key::Sha256("b");
  const auto put_a = store.Put(a, record, transport::Address(), kNow, kHour);
  REQUIRE(put_a.changed);
  REQUIRE(put_a.record != nullptr);
  CHECK(*put_a.record == record);
  REQUIRE(store.Put(b, record, Ip("10.0.0.1"), kNow, kHour).changed);
  CHECK(store.Get(a).at(0)->value == store.Get(b).at(0)->value);
  // A newer version under one key is its own record; the other key keeps the old one.
  REQUIRE(store.Put(a, Version(2), transport::Address(), kNow, kHour).changed);
  CHECK(store.Get(a).at(0)->value->record.sequence == 2);
  CHECK(store.Get(b).at(0)->value->record.sequence == 1);
  // Once no key holds a record, storing it again makes a new copy, equal to the old.
  const SignedRecordPtr old = store.Get(b).at(0)->value;
  store.Expire(kNow + kHour + transport::Seconds(1));
  REQUIRE(store.records() == 0);
  const auto again =
      store.Put(b, record, transport::Address(), kNow + kHour + transport::Seconds(2), kHour);
  REQUIRE(again.changed);
  CHECK(again.record != old);
  CHECK(*again.record == *old);
}

}  // namespace
}  // namespace skillnode::kademlia::store
