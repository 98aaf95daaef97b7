#include "kademlia/rpc/rpc_table.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace skillnode::kademlia::rpc {

bool RpcTable::Live(const Deadline& d) const {
  auto it = by_txid_.find(d.txid);
  return it != by_txid_.end() && it->second.sequence == d.sequence;
}

void RpcTable::DropTaken() {
  const auto later = std::greater<Deadline>();
  while (!by_deadline_.empty() && !Live(by_deadline_.front())) {
    std::pop_heap(by_deadline_.begin(), by_deadline_.end(), later);
    by_deadline_.pop_back();
  }
  if (by_txid_.empty()) {
    // Every request came back: the storage a burst of them grew (a join's refreshes send
    // dozens at once) goes too, so that an idle node keeps only what an empty table needs.
    assert(by_deadline_.empty());
    // Move-assigned from new containers: `= {}` would clear them and keep their storage.
    if (by_txid_.bucket_count() > kIdleCapacity) by_txid_ = decltype(by_txid_)();
    if (by_deadline_.capacity() > kIdleCapacity) by_deadline_ = decltype(by_deadline_)();
    return;
  }
  if (by_deadline_.size() <= 2 * by_txid_.size() + kTakenSlack) return;
  std::erase_if(by_deadline_, [this](const Deadline& d) { return !Live(d); });
  std::make_heap(by_deadline_.begin(), by_deadline_.end(), later);
}

void RpcTable::Add(uint64_t txid, PendingRpc rpc) {
  assert(!full() && !contains(txid));
  const uint64_t sequence = sequence_++;
  by_deadline_.push_back(Deadline{rpc.deadline, sequence, txid});
  std::push_heap(by_deadline_.begin(), by_deadline_.end(), std::greater<Deadline>());
  by_txid_.emplace(txid, Entry{std::move(rpc), sequence});
}

const PendingRpc* RpcTable::Find(uint64_t txid) const {
  auto it = by_txid_.find(txid);
  return it == by_txid_.end() ? nullptr : &it->second.rpc;
}

std::optional<PendingRpc> RpcTable::Take(uint64_t txid) {
  auto it = by_txid_.find(txid);
  if (it == by_txid_.end()) return std::nullopt;
  PendingRpc rpc = std::move(it->second.rpc);
  by_txid_.erase(it);
  DropTaken();
  return rpc;
}

std::vector<PendingRpc> RpcTable::TakeExpired(transport::TimePoint now) {
  std::vector<PendingRpc> expired;
  while (!by_deadline_.empty() && by_deadline_.front().at <= now) {
    expired.push_back(*Take(by_deadline_.front().txid));
  }
  return expired;
}

std::vector<PendingRpc> RpcTable::TakeAll() {
  std::vector<PendingRpc> all;
  while (!by_deadline_.empty()) all.push_back(*Take(by_deadline_.front().txid));
  return all;
}

transport::TimePoint RpcTable::NextDeadline() const {
  return by_deadline_.empty() ? transport::kTimeNever : by_deadline_.front().at;
}

void RttEstimator::Sample(transport::Duration rtt) {
  const size_t n = static_cast<size_t>(std::min<uint64_t>(samples_, kRttWindow));
  int32_t* const begin = sorted_us_.data();
  int32_t* end = begin + n;
  int32_t& slot = window_us_[samples_ % kRttWindow];
  if (n == kRttWindow) {
    // The oldest sample leaves the window: take one copy of its value out of the order.
    int32_t* const old = std::lower_bound(begin, end, slot);
    std::copy(old + 1, end, old);
    --end;
  }
  slot = static_cast<int32_t>(
      std::clamp<int64_t>(rtt.count(), std::numeric_limits<int32_t>::min(), kRttSampleMaxUs));
  int32_t* const at = std::upper_bound(begin, end, slot);
  std::copy_backward(at, end, end + 1);
  *at = slot;
  ++samples_;
}

transport::Duration RttEstimator::Timeout(transport::Duration floor,
                                          transport::Duration ceiling) const {
  if (samples_ < kRttSamplesMin) return ceiling;
  const size_t n = static_cast<size_t>(std::min<uint64_t>(samples_, kRttWindow));
  const size_t rank = static_cast<size_t>(kRttTimeoutPercentile * static_cast<double>(n - 1));
  const auto us = static_cast<int64_t>(kRttTimeoutFactor * static_cast<double>(sorted_us_[rank]));
  return std::clamp(transport::Duration(us), floor, ceiling);
}

}  // namespace skillnode::kademlia::rpc
