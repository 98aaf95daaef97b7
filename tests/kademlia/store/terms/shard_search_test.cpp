// ShardSearch (kademlia/store/terms/shard_search.h): the shards it probes and where it ends, for
// every count of full shards, against the lowest shard with room.
#include "kademlia/store/terms/shard_search.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "kademlia/store/record/term_pointer.h"

namespace skillnode::kademlia::store::terms {
namespace {

// Runs a search over shards whose first `full` are full; returns the shards it probed.
std::vector<uint32_t> Run(ShardSearch& search, uint32_t full) {
  std::vector<uint32_t> probed;
  while (search.state() == ShardSearch::State::kProbing) {
    probed.push_back(search.probe());
    search.OnProbed(search.probe() < full);
  }
  return probed;
}

TEST_CASE("a term whose shard 0 has room is placed there after one probe", "[unit]") {
  ShardSearch search;
  CHECK(Run(search, 0) == std::vector<uint32_t>{0});
  REQUIRE(search.state() == ShardSearch::State::kFound);
  CHECK(search.found() == 0);
}

TEST_CASE("the search doubles over 0, 1, 3, 7 and bisects back to the first shard with room",
          "[unit]") {
  ShardSearch search;
  // Shards 0..4 full: 0, 1, 3 full, 7 has room; then 5 (room), 4 (full): shard 5.
  CHECK(Run(search, 5) == std::vector<uint32_t>{0, 1, 3, 7, 5, 4});
  REQUIRE(search.state() == ShardSearch::State::kFound);
  CHECK(search.found() == 5);
}

TEST_CASE("for every count of full shards the search finds the first with room in 12 probes",
          "[unit]") {
  for (uint32_t full = 0; full < kTermShardsMax; ++full) {
    ShardSearch search;
    const std::vector<uint32_t> probed = Run(search, full);
    REQUIRE(search.state() == ShardSearch::State::kFound);
    CHECK(search.found() == full);
    CHECK(probed.size() <= ShardSearch::kProbesMax);
    CHECK(search.probes() == probed.size());
  }
}

TEST_CASE("when the last shard is full too, the term is given up after seven probes", "[unit]") {
  ShardSearch search;
  CHECK(Run(search, kTermShardsMax) == std::vector<uint32_t>{0, 1, 3, 7, 15, 31, 63});
  CHECK(search.state() == ShardSearch::State::kAllFull);
}

}  // namespace
}  // namespace skillnode::kademlia::store::terms
