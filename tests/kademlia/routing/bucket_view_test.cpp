// BucketView on buckets built by hand: the bucket order, the closest contacts (including past
// 64 bits of depth, where buckets are ordered on whole keys) and random keys in a range.
#include "kademlia/routing/bucket_view.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "kademlia/routing/stored_contacts.h"
#include "support/routing_table_util.h"

namespace skillnode::kademlia::routing {
namespace {

using namespace routing_test;  // NOLINT: test helpers

// The distance prefix written as bits ("01"): that Key with the other bits zero.
Key PrefixOf(std::string_view bits) {
  Key prefix;
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i] == '1') prefix = prefix.WithBitFlipped(static_cast<int>(i));
  }
  return prefix;
}

// A table's buckets, farthest first, for the chain "1", "01", ..., "0..01" (`depth` bits),
// then the bucket "0..0" holding our own id; `per_bucket` contacts in each.
struct Chain {
  Chain() = default;
  Chain(Chain&&) = default;
  ~Chain() {
    if (!contacts) return;
    for (const Bucket& b : buckets) {
      contacts->ReleaseAll(b.contacts);
      contacts->ReleaseAll(b.replacements);
    }
  }

  std::unique_ptr<StoredContacts> contacts = std::make_unique<StoredContacts>(nullptr);
  std::vector<Bucket> buckets;
  std::vector<std::string> bits;  // each bucket's distance prefix
  std::vector<NodeId> ids;        // every contact
};

Chain MakeChain(const Key& self, int depth, int per_bucket) {
  Chain chain;
  for (int d = 1; d <= depth; ++d) {
    chain.bits.push_back(std::string(static_cast<size_t>(d - 1), '0') + "1");
  }
  chain.bits.push_back(std::string(static_cast<size_t>(depth), '0'));
  for (const std::string& bits : chain.bits) {
    Bucket bucket;
    bucket.distance_prefix = PrefixOf(bits);
    bucket.depth = static_cast<int>(bits.size());
    for (int i = 0; i < per_bucket; ++i) {
      const Contact contact = MakeContact(AtDistance(self, bits, bits + std::to_string(i)));
      bucket.contacts.push_back(chain.contacts->Store(contact));
      chain.ids.push_back(contact.id);
    }
    chain.buckets.push_back(std::move(bucket));
  }
  return chain;
}

// Bucket indexes sorted by the distance of an id in each range: disjoint prefix ranges
// compare as wholes, so any id stands for its bucket.
std::vector<size_t> BruteForceOrder(const Key& self, const Chain& chain, const Key& target) {
  std::vector<Key> representative;
  for (const std::string& bits : chain.bits) representative.push_back(AtDistance(self, bits, "r"));
  std::vector<size_t> order(chain.bits.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return CloserTo(target, representative[a], representative[b]);
  });
  return order;
}

TEST_CASE("the bucket view orders buckets nearest the target first", "[unit]") {
  const Key self = Self();
  const Chain chain = MakeChain(self, 2, 1);  // "1", "01", "00"
  const BucketView view(self, chain.buckets, chain.contacts->directory());
  std::vector<size_t> order;
  view.BucketsByDistance(self, order);
  CHECK(order == std::vector<size_t>{2, 1, 0});
  // A target in the far half: that half, then the half's closest sibling "00" before "01".
  view.BucketsByDistance(AtDistance(self, "10", "t"), order);
  CHECK(order == std::vector<size_t>{0, 2, 1});
  view.BucketsByDistance(AtDistance(self, "01", "t"), order);
  CHECK(order == std::vector<size_t>{1, 2, 0});
}

TEST_CASE("the bucket view finds the closest contacts over shallow and deep buckets", "[unit]") {
  const Key self = Self();
  transport::Rng rng(11);
  // 8 buckets stay within the first 64 bits; 71 go past them, the slower whole-key order.
  for (const int depth : {7, 70}) {
    const Chain chain = MakeChain(self, depth, 3);
    const BucketView view(self, chain.buckets, chain.contacts->directory());
    for (int round = 0; round < 30; ++round) {
      Key target;
      rng.Fill(target.mutable_bytes());
      if (round == 0) target = self;
      if (round == 1) target = chain.ids[4];
      if (round == 2) target = AtDistance(self, std::string(69, '0') + "1", "deep");
      std::vector<size_t> order;
      view.BucketsByDistance(target, order);
      CHECK(order == BruteForceOrder(self, chain, target));
      for (const size_t count : {0, 1, 5, 20, 1000}) {
        CHECK(Ids(view.Closest(target, count)) == BruteForceClosest(chain.ids, target, count));
      }
    }
  }
}

TEST_CASE("the bucket view leaves failing contacts and replacements out while healthy ones fill",
          "[unit]") {
  const Key self = Self();
  Chain chain = MakeChain(self, 3, 2);
  const Key target = AtDistance(self, "01", "target");
  const std::vector<NodeId> by_distance = BruteForceClosest(chain.ids, target, 8);
  // The closest contact is failing; a replacement would be the closest of all.
  for (Bucket& bucket : chain.buckets) {
    for (StoredContact& c : bucket.contacts) {
      if (chain.contacts->IdOf(c) == by_distance[0]) c.failures = 1;
    }
  }
  chain.buckets[1].replacements.push_back(chain.contacts->Store(MakeContact(target)));
  const BucketView view(self, chain.buckets, chain.contacts->directory());
  CHECK(Ids(view.Closest(target, 3)) ==
        std::vector<NodeId>{by_distance[1], by_distance[2], by_distance[3]});
  // Every contact asked for: the failing one takes its place among them.
  CHECK(Ids(view.Closest(target, 8)) == by_distance);
}

TEST_CASE("the bucket view's random keys fall in the asked bucket's range", "[unit]") {
  const Key self = Self();
  const Chain chain = MakeChain(self, 5, 0);
  const BucketView view(self, chain.buckets, chain.contacts->directory());
  transport::Rng rng(5);
  for (size_t index = 0; index < chain.buckets.size(); ++index) {
    std::vector<Key> keys;
    for (int i = 0; i < 40; ++i) {
      keys.push_back(view.RandomKeyIn(index, rng));
      CHECK(DistanceStartsWith(self, keys.back(), chain.bits[index]));
    }
    std::sort(keys.begin(), keys.end());
    CHECK(std::unique(keys.begin(), keys.end()) == keys.end());
  }
}

}  // namespace
}  // namespace skillnode::kademlia::routing
