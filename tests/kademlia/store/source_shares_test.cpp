// SourceShares (kademlia/store/source_shares.h): bytes per source, and the eviction candidate.
#include "kademlia/store/source_shares.h"

#include <catch2/catch.hpp>

namespace skillnode::kademlia::store {
namespace {

constexpr transport::TimePoint kNow = transport::kTimeZero + transport::Seconds(100);

transport::Address Ip(const char* text) { return *transport::Address::Parse(text); }
StoreSlot Slot(const char* name) { return {Key::Sha256(name), Key::Sha256(name)}; }

TEST_CASE("a source's bytes rise and fall with what it stores", "[unit]") {
  SourceShares shares;
  shares.Add(Ip("10.0.0.1"), Slot("a"), kNow, 100);
  shares.Add(Ip("10.0.0.1"), Slot("b"), kNow, 50);
  CHECK(shares.BytesFrom(Ip("10.0.0.1")) == 150);
  CHECK(shares.BytesFrom(Ip("10.0.0.2")) == 0);
  shares.Remove(Ip("10.0.0.1"), Slot("a"), kNow, 100);
  CHECK(shares.BytesFrom(Ip("10.0.0.1")) == 50);
  shares.Remove(Ip("10.0.0.1"), Slot("b"), kNow, 50);
  CHECK(shares.sources() == 0);
}

TEST_CASE("the eviction candidate is the heaviest source's oldest value, never the newcomer's",
          "[unit]") {
  SourceShares shares;
  shares.Add(Ip("10.0.0.1"), Slot("heavy-new"), kNow + transport::Seconds(5), 100);
  shares.Add(Ip("10.0.0.1"), Slot("heavy-old"), kNow, 100);
  shares.Add(Ip("10.0.0.2"), Slot("light"), kNow - transport::Seconds(50), 150);
  CHECK(shares.EvictionCandidate(Ip("10.0.0.3")) == Slot("heavy-old"));
  CHECK_FALSE(shares.EvictionCandidate(Ip("10.0.0.1")).has_value());
  SourceShares empty;
  CHECK_FALSE(empty.EvictionCandidate(Ip("10.0.0.3")).has_value());
}

TEST_CASE("slot identities differ when the identity's parts are split differently", "[unit]") {
  RecordIdentity one{{}, "ab", "c"};
  RecordIdentity other{{}, "a", "bc"};
  CHECK(SlotIdentity(one) != SlotIdentity(other));
  CHECK(SlotIdentity(one) == SlotIdentity(RecordIdentity{{}, "ab", "c"}));
}

}  // namespace
}  // namespace skillnode::kademlia::store
