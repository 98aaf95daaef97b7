// SourceShares (kademlia/store/holder/source_shares.h): bytes per source, and the eviction
// candidate.
#include "kademlia/store/holder/source_shares.h"

#include <catch2/catch.hpp>
#include <vector>

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

TEST_CASE("eviction frees what is needed, not counting the values that are leaving anyway",
          "[unit]") {
  SourceShares shares;
  shares.Add(Ip("10.0.0.1"), Slot("old"), kNow, 100);
  shares.Add(Ip("10.0.0.1"), Slot("mid"), kNow + transport::Seconds(1), 100);
  shares.Add(Ip("10.0.0.1"), Slot("new"), kNow + transport::Seconds(2), 100);
  std::vector<StoreSlot> evicted;
  const auto evict = [&](const StoreSlot& slot) {
    evicted.push_back(slot);
    const transport::TimePoint at = slot == Slot("old")   ? kNow
                                    : slot == Slot("mid") ? kNow + transport::Seconds(1)
                                                          : kNow + transport::Seconds(2);
    shares.Remove(Ip("10.0.0.1"), slot, at, 100);
    return size_t{100};
  };
  // "old" is the replaced version: evicting it frees nothing the caller did not count.
  CHECK(shares.EvictFor(150, Ip("10.0.0.2"), {Slot("old")}, evict));
  CHECK(evicted == std::vector<StoreSlot>{Slot("old"), Slot("mid"), Slot("new")});
  CHECK_FALSE(shares.EvictFor(1, Ip("10.0.0.2"), {}, evict));
}

}  // namespace
}  // namespace skillnode::kademlia::store
