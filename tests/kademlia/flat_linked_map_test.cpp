#include "kademlia/flat_linked_map.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <list>
#include <map>
#include <vector>

#include "kademlia/key.h"
#include "transport/rng.h"

namespace skillnode::kademlia {
namespace {

// Few distinct hashes: long probe runs that wrap around the index's end, which is where
// backward-shift deletion can go wrong.
struct CollidingHash {
  size_t operator()(int key) const { return static_cast<size_t>(key % 5) * 0x9e3779b9U; }
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
  CHECK(Listed(map) == std::vector<std::pair<int, int>>{{1, 10}, {2, 20}, {3, 30}, {4, 40}});
  map.MakeNewest(map.Find(2));
  CHECK(Listed(map) == std::vector<std::pair<int, int>>{{1, 10}, {3, 30}, {4, 40}, {2, 20}});
  CHECK(map.Erase(3));
  CHECK_FALSE(map.Erase(3));
  map.Erase(map.oldest());
  CHECK(Listed(map) == std::vector<std::pair<int, int>>{{4, 40}, {2, 20}});
  CHECK(map.size() == 2);
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
  Rng rng(11);
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

}  // namespace
}  // namespace skillnode::kademlia
