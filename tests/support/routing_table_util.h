// Helpers shared by the routing table tests: ids at chosen distances, small configs, tables
// filled to known shapes, and brute-force references.
#ifndef SKILLNODE_TESTS_SUPPORT_ROUTING_TABLE_UTIL_H_
#define SKILLNODE_TESTS_SUPPORT_ROUTING_TABLE_UTIL_H_

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/routing/routing_table.h"
#include "transport/endpoint.h"
#include "transport/rng.h"

namespace skillnode::kademlia::routing_test {

constexpr transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(1000);

inline Key Self() { return Key::Sha256("self"); }

// An id whose XOR distance to `self` starts with `bits` ("01" etc.); the rest from `seed`.
inline Key AtDistance(const Key& self, std::string_view bits, const std::string& seed) {
  Key distance = Key::Sha256(seed);
  for (size_t i = 0; i < bits.size(); ++i) {
    const int bit = static_cast<int>(i);
    if (distance.Bit(bit) != (bits[i] == '1')) distance = distance.WithBitFlipped(bit);
  }
  return Distance(self, distance);
}

inline bool DistanceStartsWith(const Key& self, const Key& id, std::string_view bits) {
  const Key distance = Distance(self, id);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (distance.Bit(static_cast<int>(i)) != (bits[i] == '1')) return false;
  }
  return true;
}

inline Contact MakeContact(const Key& id, const std::string& ip = "127.0.0.1",
                           uint16_t port = 6881) {
  Contact c;
  c.id = id;
  c.endpoint = transport::Endpoint(*transport::Address::Parse(ip), port);
  return c;
}

// A contact at distance prefix "1" from Self(): the far half, bucket 0 once the table splits.
inline Contact Far(int i, const std::string& ip = "127.0.0.1") {
  return MakeContact(AtDistance(Self(), "1", "far-" + std::to_string(i)), ip);
}

inline RoutingConfig SmallConfig() {
  RoutingConfig config;
  config.bucket_size = 4;
  config.replacement_cache_size = 3;
  config.ping_oldest_after =
      transport::Seconds(0);  // every newcomer to a full bucket asks for a ping
  return config;
}

// Fills the table (k = 4) with 4 contacts at distance prefix "0001" heard at `now`. Afterwards
// every newcomer in the far half has k contacts closer to us, so bucket 0 never splits.
inline void FillNear(routing::RoutingTable& table, transport::TimePoint now) {
  for (int i = 0; i < 4; ++i) {
    const Key id = AtDistance(table.self(), "0001", "near-" + std::to_string(i));
    REQUIRE(table.Heard(MakeContact(id), now).outcome == routing::InsertOutcome::kAdded);
  }
}

// FillNear, then far contacts 0..3 heard at now+1s..now+4s: bucket 0 is full and cannot split.
inline void FillFar(routing::RoutingTable& table, transport::TimePoint now) {
  FillNear(table, now);
  for (int i = 0; i < 4; ++i) {
    REQUIRE(table.Heard(Far(i), now + transport::Seconds(i + 1)).outcome ==
            routing::InsertOutcome::kAdded);
  }
}

inline std::vector<NodeId> Ids(const std::vector<Contact>& contacts) {
  std::vector<NodeId> ids;
  for (const Contact& c : contacts) ids.push_back(c.id);
  return ids;
}

inline std::vector<NodeId> BruteForceClosest(std::vector<NodeId> ids, const Key& target,
                                             size_t count) {
  std::sort(ids.begin(), ids.end(),
            [&](const Key& a, const Key& b) { return CloserTo(target, a, b); });
  ids.resize(std::min(count, ids.size()));
  return ids;
}

// The ids in the table's buckets (Export lists bucket contacts first).
inline std::vector<NodeId> BucketIds(const routing::RoutingTable& table) {
  std::vector<NodeId> ids = Ids(table.Export());
  ids.resize(table.size());
  return ids;
}

}  // namespace skillnode::kademlia::routing_test

#endif  // SKILLNODE_TESTS_SUPPORT_ROUTING_TABLE_UTIL_H_
