#include "kademlia/flat_linked_map.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <list>
#include <map>
#include <vector>

#include "kademlia/key.h"
#include "kademlia/keyed_hash.h"
#include "transport/rng.h"

namespace skillnode::kademlia {
namespace {

// Five distinct hashes at the top of the 32-bit range: their homes are the last places of the
// index at every size, so probe runs are long and wrap around the index's end, which is where
// backward-shift deletion can go wrong.
struct CollidingHash {
  uint32_t operator()(int key) const { return UINT32_MAX - static_cast<uint32_t>(key % 5); }
};

using Map = FlatLinkedMap<int, int, CollidingHash>;

// The map's list, oldest first, as (key, value) pairs.
std::vector<std::pair<int, int>> Listed(const Map& map) {
  std::vector<std::pair<int, int>> out;
  for (auto h = map.oldest(); h != Map::kNone; h = map.newer(h)) {
    out.emplace_back(map.key(h), map.value(h));
  }
  return out;
}

TEST_CASE("a flat linked map finds, lists oldest first and erases by key or handle", "[unit]") {
  Map map;
  CHECK(map.empty());
  CHECK(map.Find(1) == Map::kNone);
  CHECK(map.oldest() == Map::kNone);
  for (int k = 1; k <= 4; ++k) {
    const auto [h, added] = map.Emplace(k);
    CHECK(added);
    map.value(h) = k * 10;
  }
  const auto [again, added] = map.Emplace(2);
  CHECK_FALSE(added);
  CHECK(map.value(again) == 20);
  REQUIRE(map.Get(2) != nullptr);
  CHECK(*map.Get(2) == 20);
  CHECK(map.Get(9) == nullptr);
  CHECK(Listed(map) == std::vector<std::pair<int, int>>{{1, 10}, {2, 20}, {3, 30}, {4, 40}});
  map.MakeNewest(map.Find(2));
  CHECK(Listed(map) == std::vector<std::pair<int, int>>{{1, 10}, {3, 30}, {4, 40}, {2, 20}});
  CHECK(map.Erase(3));
  CHECK_FALSE(map.Erase(3));
  map.Erase(map.oldest());
  CHECK(Listed(map) == std::vector<std::pair<int, int>>{{4, 40}, {2, 20}});
  CHECK(map.size() == 2);
  // Erasing a middle entry by its handle relinks its neighbours.
  map.value(map.Emplace(5).first) = 50;
  map.Erase(map.Find(2));
  CHECK(Listed(map) == std::vector<std::pair<int, int>>{{4, 40}, {5, 50}});
  CHECK(map.Find(2) == Map::kNone);
  map.Erase(map.Find(5));
  // An erased place is reused, and its value starts afresh.
  const auto [reused, fresh] = map.Emplace(7);
  CHECK(fresh);
  CHECK(map.value(reused) == 0);
  CHECK(map.key(map.newest()) == 7);
}

TEST_CASE("a flat linked map agrees with a list and a map over 200,000 random operations",
          "[unit]") {
  Map map;
  std::list<std::pair<int, int>> order;  // oldest first
  std::map<int, std::list<std::pair<int, int>>::iterator> model;
  transport::Rng rng(11);
  for (int step = 0; step < 200'000; ++step) {
    const int key = static_cast<int>(rng.Below(300));
    const auto known = model.find(key);
    const auto h = map.Find(key);
    REQUIRE((h != Map::kNone) == (known != model.end()));
    if (h != Map::kNone) REQUIRE(map.value(h) == known->second->second);
    switch (rng.Below(5)) {
      case 0:
      case 1: {  // emplace (and set a value when new)
        const auto [at, added] = map.Emplace(key);
        REQUIRE(added == (known == model.end()));
        if (added) {
          map.value(at) = step;
          order.emplace_back(key, step);
          model[key] = std::prev(order.end());
        }
        break;
      }
      case 2:  // erase by key
        REQUIRE(map.Erase(key) == (known != model.end()));
        if (known != model.end()) {
          order.erase(known->second);
          model.erase(known);
        }
        break;
      case 3:  // erase the oldest
        if (!order.empty()) {
          REQUIRE(map.key(map.oldest()) == order.front().first);
          map.Erase(map.oldest());
          model.erase(order.front().first);
          order.pop_front();
        }
        break;
      case 4:  // make newest
        if (known != model.end()) {
          map.MakeNewest(h);
          order.splice(order.end(), order, known->second);
        }
        break;
    }
    REQUIRE(map.size() == model.size());
    if (step % 1000 == 0) {
      REQUIRE(Listed(map) == std::vector<std::pair<int, int>>(order.begin(), order.end()));
    }
  }
  REQUIRE(Listed(map) == std::vector<std::pair<int, int>>(order.begin(), order.end()));
  // Every key the model holds is found, and no other.
  for (int key = 0; key < 300; ++key) CHECK((map.Find(key) != Map::kNone) == model.contains(key));
}

TEST_CASE(
    "a compacted flat linked map keeps its entries and list in storage for twice their number",
    "[unit]") {
  Map map;
  for (int k = 0; k < 1000; ++k) map.value(map.Emplace(k).first) = k * 10;
  CHECK_FALSE(map.CompactIfSparse());  // full: nothing to give back
  for (int k = 0; k < 1000; ++k) {
    if (k % 10 != 3) REQUIRE(map.Erase(k));
  }
  map.MakeNewest(map.Find(503));
  map.MakeNewest(map.Find(3));
  const auto before = Listed(map);
  REQUIRE(before.size() == 100);
  REQUIRE(map.capacity() >= 1000);
  CHECK(map.CompactIfSparse());
  CHECK(map.capacity() <= 200);
  CHECK(Listed(map) == before);
  for (int k = 0; k < 1000; ++k) {
    INFO("key " << k);
    REQUIRE((map.Find(k) != Map::kNone) == (k % 10 == 3));
    if (k % 10 == 3) CHECK(*map.Get(k) == k * 10);
  }
  CHECK(map.key(map.newest()) == 3);
  CHECK(map.key(map.oldest()) == 13);
  CHECK_FALSE(map.CompactIfSparse());  // 100 of 200: not under a quarter
  // It goes on as before: a new entry is the newest, the oldest goes first.
  map.value(map.Emplace(5000).first) = 1;
  CHECK(map.key(map.newest()) == 5000);
  map.Erase(map.oldest());
  CHECK(map.Find(13) == Map::kNone);
  CHECK(map.size() == 100);
  // Emptied, it holds nothing, and fills again from nothing.
  while (!map.empty()) map.Erase(map.oldest());
  CHECK(map.CompactIfSparse());
  CHECK(map.capacity() == 0);
  CHECK(map.Find(3) == Map::kNone);
  CHECK(map.oldest() == Map::kNone);
  map.value(map.Emplace(8).first) = 80;
  CHECK(Listed(map) == std::vector<std::pair<int, int>>{{8, 80}});
}

TEST_CASE("node ids that share their leading bytes get different hashes", "[unit]") {
  // std::hash of an id is its first 8 bytes, and a node's nearest peers share its leading
  // bits: the default hash must spread them, or they would all share one probe run.
  std::vector<uint32_t> hashes;
  for (int i = 0; i < 64; ++i) {
    std::array<uint8_t, Key::kSize> bytes{};
    bytes[0] = 0xab;
    bytes[1] = 0xcd;
    bytes[7] = static_cast<uint8_t>(i);                   // differs only in the eighth byte
    hashes.push_back(MixedHash<Key>{}(Key(bytes)) & 63);  // a 64-place index
  }
  std::sort(hashes.begin(), hashes.end());
  const auto homes = std::unique(hashes.begin(), hashes.end()) - hashes.begin();
  CHECK(homes > 32);  // without mixing: 1
}

TEST_CASE("a flat linked map keyed by node ids finds every id after growing", "[unit]") {
  FlatLinkedMap<Key, int> map;
  std::vector<Key> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back(Key::Sha256(std::to_string(i)));
  for (int i = 0; i < 5000; ++i) map.value(map.Emplace(keys[i]).first) = i;
  for (int i = 0; i < 5000; i += 2) CHECK(map.Erase(keys[i]));
  for (int i = 0; i < 5000; ++i) {
    const auto h = map.Find(keys[i]);
    CHECK((h != map.kNone) == (i % 2 == 1));
    if (h != map.kNone) CHECK(map.value(h) == i);
  }
  CHECK(map.size() == 2500);
}

HashKey TestKey(uint8_t first) {
  HashKey key{};
  for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(first + i);
  return key;
}

TEST_CASE("the keyed hash is SipHash-2-4: the same key gives the same hash", "[unit]") {
  // libsodium's crypto_shorthash test vector: key 00..0f, message 00..0e (15 bytes).
  std::array<uint8_t, 15> message{};
  for (size_t i = 0; i < message.size(); ++i) message[i] = static_cast<uint8_t>(i);
  CHECK(SipHash(message, TestKey(0)) == 0xa129ca6149be45e5ULL);
  const Key id = Key::Sha256("a node");
  CHECK(KeyedHash<Key>(TestKey(7))(id) == KeyedHash<Key>(TestKey(7))(id));
  const transport::Address a = *transport::Address::Parse("192.0.2.1");
  CHECK(KeyedHash<transport::Address>(TestKey(7))(a) ==
        KeyedHash<transport::Address>(TestKey(7))(a));
  // The family is hashed too: an IPv4 address and an IPv6 one with the same leading bytes differ.
  const transport::Address v6 = *transport::Address::Parse("c000:201::");
  CHECK(KeyedHash<transport::Address>(TestKey(7))(a) !=
        KeyedHash<transport::Address>(TestKey(7))(v6));
}

TEST_CASE("the keyed hash under different keys gives different placements", "[unit]") {
  const KeyedHash<Key> one(TestKey(1));
  const KeyedHash<Key> two(TestKey(2));
  // Homes in a 1024-place index: about one id in 1024 shares its home under both keys.
  size_t same_home = 0;
  for (int i = 0; i < 1000; ++i) {
    const Key id = Key::Sha256("id " + std::to_string(i));
    CHECK(one(id) != two(id));
    if ((one(id) & 1023) == (two(id) & 1023)) ++same_home;
  }
  CHECK(same_home < 20);
  // Two maps with different keys, same ids inserted in the same order: places differ.
  FlatLinkedMap<Key, int, KeyedHash<Key>> a(one);
  FlatLinkedMap<Key, int, KeyedHash<Key>> b(two);
  CHECK(a.hasher().key() == TestKey(1));
  CHECK(b.hasher().key() == TestKey(2));
  transport::Rng rng(5);
  for (int i = 0; i < 200; ++i) {
    Key id;
    rng.Fill(id.mutable_bytes());
    a.Emplace(id);
    b.Emplace(id);
    CHECK(a.Find(id) != a.kNone);
    CHECK(b.Find(id) != b.kNone);
  }
}

TEST_CASE("a key drawn from a seeded rng is the same for the same seed and differs by seed",
          "[unit]") {
  transport::Rng first(42);
  transport::Rng again(42);
  transport::Rng other(43);
  const HashKey key = NewHashKey(first);
  CHECK(key == NewHashKey(again));
  CHECK(key != NewHashKey(other));
  CHECK(key != HashKey{});
  // From a copy: the same key, and the generator itself has not moved.
  transport::Rng seeded(42);
  CHECK(HashKeyFromCopyOf(seeded) == key);
  transport::Rng fresh(42);
  CHECK(seeded.Next64() == fresh.Next64());
}

// Node ids ground (as an attacker can, offline) so that the unkeyed MixedHash puts them all at
// home place 0 of any index up to 2048 places.
std::vector<Key> IdsCollidingUnkeyed(size_t count) {
  std::vector<Key> out;
  transport::Rng rng(99);
  while (out.size() < count) {
    Key id;
    rng.Fill(id.mutable_bytes());
    if ((MixedHash<Key>{}(id)&0x7ff) == 0) out.push_back(id);
  }
  return out;
}

TEST_CASE("node ids ground to collide under the unkeyed hash spread under the keyed one",
          "[unit]") {
  const std::vector<Key> ids = IdsCollidingUnkeyed(400);
  FlatLinkedMap<Key, int> unkeyed;
  for (const Key& id : ids) unkeyed.Emplace(id);
  // One probe run holding every id: each lookup of the last walks 399 places.
  CHECK(unkeyed.ProbeDistanceMax() == ids.size() - 1);
  for (uint8_t seed : {1, 2, 3}) {
    FlatLinkedMap<Key, int, KeyedHash<Key>> keyed{KeyedHash<Key>(TestKey(seed))};
    for (const Key& id : ids) keyed.Emplace(id);
    CHECK(keyed.size() == ids.size());
    CHECK(keyed.ProbeDistanceMax() < 16);
    for (const Key& id : ids) CHECK(keyed.Find(id) != keyed.kNone);
  }
}

}  // namespace
}  // namespace skillnode::kademlia
