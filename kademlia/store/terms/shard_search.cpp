// ShardSearch (shard_search.h): doubling over the shards, then bisection.
#include "kademlia/store/terms/shard_search.h"

#include <cassert>

#include "kademlia/store/record/term_pointer.h"

namespace skillnode::kademlia::store::terms {

// Doubling from 0 by p -> 2p + 1 lands on the last shard exactly when the count is a power of 2.
static_assert((kTermShardsMax & (kTermShardsMax - 1)) == 0, "shard count must be a power of 2");

uint32_t ShardSearch::probe() const {
  assert(state_ == State::kProbing);
  return probe_;
}

uint32_t ShardSearch::found() const {
  assert(state_ == State::kFound);
  return room_;
}

void ShardSearch::OnProbed(bool full) {
  assert(state_ == State::kProbing);
  assert(probes_ < kProbesMax);  // the bound the doubling and bisection guarantee
  ++probes_;
  if (phase_ == Phase::kDoubling) {
    if (full) {
      full_ = probe_;
      if (probe_ == kTermShardsMax - 1) {
        state_ = State::kAllFull;
        return;
      }
      probe_ = 2 * probe_ + 1;
      return;
    }
    phase_ = Phase::kBisecting;
    room_ = probe_;
    Narrow();
    return;
  }
  if (full) {
    full_ = probe_;
  } else {
    room_ = probe_;
  }
  Narrow();
}

void ShardSearch::Narrow() {
  assert(!full_ || *full_ < room_);  // shards fill from 0 up: a full one lies below one with room
  if (!full_ || *full_ + 1 == room_) {
    state_ = State::kFound;
    return;
  }
  probe_ = *full_ + (room_ - *full_) / 2;
}

}  // namespace skillnode::kademlia::store::terms
