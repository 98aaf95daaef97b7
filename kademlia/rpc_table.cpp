#include "kademlia/rpc_table.h"

#include <algorithm>
#include <cassert>

namespace skillnode::kademlia {

void RpcTable::Add(uint64_t txid, PendingRpc rpc) {
  assert(!full() && !contains(txid));
  const std::pair<TimePoint, uint64_t> order{rpc.deadline, sequence_++};
  by_deadline_.emplace(order, txid);
  by_txid_.emplace(txid, Entry{std::move(rpc), order});
}

const PendingRpc* RpcTable::Find(uint64_t txid) const {
  auto it = by_txid_.find(txid);
  return it == by_txid_.end() ? nullptr : &it->second.rpc;
}

std::optional<PendingRpc> RpcTable::Take(uint64_t txid) {
  auto it = by_txid_.find(txid);
  if (it == by_txid_.end()) return std::nullopt;
  PendingRpc rpc = std::move(it->second.rpc);
  by_deadline_.erase(it->second.order);
  by_txid_.erase(it);
  return rpc;
}

std::vector<PendingRpc> RpcTable::TakeExpired(TimePoint now) {
  std::vector<PendingRpc> expired;
  while (!by_deadline_.empty() && by_deadline_.begin()->first.first <= now) {
    const uint64_t txid = by_deadline_.begin()->second;
    expired.push_back(*Take(txid));
  }
  return expired;
}

std::vector<PendingRpc> RpcTable::TakeAll() {
  std::vector<PendingRpc> all;
  while (!by_deadline_.empty()) all.push_back(*Take(by_deadline_.begin()->second));
  return all;
}

TimePoint RpcTable::NextDeadline() const {
  return by_deadline_.empty() ? kTimeNever : by_deadline_.begin()->first.first;
}

void RttEstimator::Sample(Duration rtt) {
  window_us_[samples_ % kRttWindow] = rtt.count();
  ++samples_;
  percentile_us_ = -1;
}

Duration RttEstimator::Timeout(Duration floor, Duration ceiling) const {
  if (samples_ < kRttSamplesMin) return ceiling;
  if (percentile_us_ < 0) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(samples_, kRttWindow));
    std::array<int64_t, kRttWindow> sorted = window_us_;
    const size_t rank = static_cast<size_t>(kRttTimeoutPercentile * static_cast<double>(n - 1));
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<ptrdiff_t>(rank),
                     sorted.begin() + static_cast<ptrdiff_t>(n));
    percentile_us_ = sorted[rank];
  }
  const auto us = static_cast<int64_t>(kRttTimeoutFactor * static_cast<double>(percentile_us_));
  return std::clamp(Duration(us), floor, ceiling);
}

}  // namespace skillnode::kademlia
