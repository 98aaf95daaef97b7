// RpcTable on its own: requests expire earliest first (ties in the order they were added),
// a taken request never expires, the deadline heap stays bounded however requests are taken,
// and an emptied table lets its storage go. RttEstimator's timeout follows the percentile of
// its last kRttWindow samples, each held in 32 bits.
#include "kademlia/rpc/rpc_table.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <deque>
#include <vector>

#include "transport/rng.h"

namespace skillnode::kademlia::rpc {
namespace {

const transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(100);

PendingRpc Request(transport::TimePoint deadline, uint8_t type = 0) {
  PendingRpc rpc;
  rpc.type = type;
  rpc.sent = kStart;
  rpc.deadline = deadline;
  return rpc;
}

std::vector<uint8_t> Types(const std::vector<PendingRpc>& rpcs) {
  std::vector<uint8_t> out;
  for (const PendingRpc& r : rpcs) out.push_back(r.type);
  return out;
}

TEST_CASE("requests expire earliest deadline first, ties in the order added", "[kademlia]") {
  RpcTable table(16);
  table.Add(10, Request(kStart + transport::Seconds(3), 1));
  table.Add(11, Request(kStart + transport::Seconds(1), 2));
  table.Add(12, Request(kStart + transport::Seconds(3), 3));
  table.Add(13, Request(kStart + transport::Seconds(1), 4));
  table.Add(14, Request(kStart + transport::Seconds(9), 5));
  CHECK(table.NextDeadline() == kStart + transport::Seconds(1));
  CHECK(table.TakeExpired(kStart).empty());
  CHECK(Types(table.TakeExpired(kStart + transport::Seconds(3))) ==
        std::vector<uint8_t>{2, 4, 1, 3});
  CHECK(table.size() == 1);
  CHECK(table.NextDeadline() == kStart + transport::Seconds(9));
  CHECK(Types(table.TakeAll()) == std::vector<uint8_t>{5});
  CHECK(table.NextDeadline() == transport::kTimeNever);
}

TEST_CASE("a taken request does not expire, and the next deadline skips it", "[kademlia]") {
  RpcTable table(16);
  table.Add(1, Request(kStart + transport::Seconds(1), 1));
  table.Add(2, Request(kStart + transport::Seconds(2), 2));
  table.Add(3, Request(kStart + transport::Seconds(3), 3));
  REQUIRE(table.Take(2));
  CHECK_FALSE(table.Take(2));
  CHECK(table.Find(2) == nullptr);
  REQUIRE(table.Take(1));
  CHECK(table.NextDeadline() == kStart + transport::Seconds(3));
  CHECK(Types(table.TakeExpired(kStart + transport::Seconds(5))) == std::vector<uint8_t>{3});
  CHECK(table.size() == 0);
}

TEST_CASE("a txid used again after Take expires at its new deadline only", "[kademlia]") {
  RpcTable table(16);
  table.Add(7, Request(kStart + transport::Seconds(1), 1));
  REQUIRE(table.Take(7));
  table.Add(7, Request(kStart + transport::Seconds(5), 2));
  CHECK(table.NextDeadline() == kStart + transport::Seconds(5));
  CHECK(table.TakeExpired(kStart + transport::Seconds(2)).empty());
  REQUIRE(table.Find(7) != nullptr);
  CHECK(table.Find(7)->type == 2);
  CHECK(Types(table.TakeExpired(kStart + transport::Seconds(5))) == std::vector<uint8_t>{2});
}

TEST_CASE("the deadline heap stays bounded when replies come out of deadline order", "[kademlia]") {
  // Each round adds a request and answers the newest one still open except the oldest: the
  // oldest request's entry stays on top, so taken entries pile up under it unless the heap
  // is rebuilt.
  RpcTable table(16);
  table.Add(0, Request(kStart + transport::Seconds(1000)));
  size_t largest = 0;
  for (uint64_t txid = 1; txid < 10'000; ++txid) {
    table.Add(txid, Request(kStart + transport::Seconds(1000) +
                            transport::Millis(static_cast<int64_t>(txid))));
    REQUIRE(table.Take(txid));
    largest = std::max(largest, table.deadline_entries());
  }
  CHECK(table.size() == 1);
  CHECK(largest <= 2 * 2 + RpcTable::kTakenSlack);
  CHECK(table.NextDeadline() == kStart + transport::Seconds(1000));
}

TEST_CASE("an emptied table lets go of the storage a burst of requests grew", "[kademlia]") {
  RpcTable table(256);
  for (uint64_t txid = 0; txid < 200; ++txid) {
    table.Add(txid, Request(kStart + transport::Seconds(1 + static_cast<int64_t>(txid))));
  }
  REQUIRE(table.bucket_count() > RpcTable::kIdleCapacity);
  REQUIRE(table.deadline_capacity() > RpcTable::kIdleCapacity);
  // While one request is pending, the storage stays.
  for (uint64_t txid = 0; txid < 199; ++txid) REQUIRE(table.Take(txid));
  CHECK(table.bucket_count() > RpcTable::kIdleCapacity);
  CHECK(table.NextDeadline() == kStart + transport::Seconds(200));
  CHECK(Types(table.TakeExpired(kStart + transport::Seconds(200))).size() == 1);
  CHECK(table.size() == 0);
  CHECK(table.bucket_count() <= RpcTable::kIdleCapacity);
  CHECK(table.deadline_capacity() <= RpcTable::kIdleCapacity);
  CHECK(table.NextDeadline() == transport::kTimeNever);
  // The table works on as before.
  table.Add(7, Request(kStart + transport::Seconds(2), 3));
  table.Add(8, Request(kStart + transport::Seconds(1), 4));
  CHECK(Types(table.TakeExpired(kStart + transport::Seconds(2))) == std::vector<uint8_t>{4, 3});
}

TEST_CASE("the RTT timeout is 1.5 x the 95th percentile of the last 64 samples", "[unit]") {
  constexpr transport::Duration kFloor = transport::Millis(1);
  constexpr transport::Duration kCeiling = transport::Seconds(100);
  RttEstimator rtt;
  std::deque<int64_t> window;
  transport::Rng rng(5);
  for (int i = 0; i < 2000; ++i) {
    INFO("sample " << i);
    // Repeats and a drift from short to long and back, so that old samples leave the order.
    const int64_t drift = i < 1000 ? i * 100 : (2000 - i) * 100;
    const int64_t us = drift + static_cast<int64_t>(rng.Below(8)) * 1000;
    rtt.Sample(transport::Duration(us));
    window.push_back(us);
    if (window.size() > RttEstimator::kRttWindow) window.pop_front();
    if (window.size() < RttEstimator::kRttSamplesMin) {
      REQUIRE(rtt.Timeout(kFloor, kCeiling) == kCeiling);
      continue;
    }
    std::vector<int64_t> sorted(window.begin(), window.end());
    std::sort(sorted.begin(), sorted.end());
    const auto rank = static_cast<size_t>(0.95 * static_cast<double>(sorted.size() - 1));
    const transport::Duration expected =
        std::clamp(transport::Duration(3 * sorted[rank] / 2), kFloor, kCeiling);
    REQUIRE(rtt.Timeout(kFloor, kCeiling) == expected);
  }
}

}  // namespace
}  // namespace skillnode::kademlia::rpc

namespace skillnode::kademlia::rpc {
namespace {

TEST_CASE("an RTT sample beyond the window's range counts as its longest", "[unit]") {
  RttEstimator rtt;
  for (size_t i = 0; i < RttEstimator::kRttWindow; ++i) {
    rtt.Sample(transport::Seconds(i == 0 ? 10'000'000 : 1));
  }
  // The 95th percentile of 64 samples is the 60th smallest: one second, whatever the outlier.
  CHECK(rtt.Timeout(transport::Millis(1), transport::Seconds(100)) == transport::Millis(1500));
  // With 8 outliers among the 64, the 60th smallest is one of them.
  for (size_t i = 0; i < 8; ++i) rtt.Sample(transport::Seconds(10'000'000));
  CHECK(rtt.Timeout(transport::Millis(1), transport::Seconds(100'000'000)) ==
        transport::Duration(3 * int64_t{RttEstimator::kRttSampleMaxUs} / 2));
}

}  // namespace
}  // namespace skillnode::kademlia::rpc
