#include "kademlia/rpc/rate_limiter.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <list>
#include <map>
#include <string>

#include "transport/rng.h"

namespace skillnode::kademlia::rpc {
namespace {

const transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(100);
const HashKey kTestHashKey = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

transport::Address Ip(int i) { return *transport::Address::Parse("10.0.0." + std::to_string(i)); }

RateLimitConfig Small() {
  RateLimitConfig config;
  config.per_ip_rate = 10;  // a full per-IP bucket of 5 refills in 0.5 s
  config.per_ip_burst = 5;
  config.global_rate = 1000;
  config.global_burst = 1000;
  config.tracked_ips_max = 3;
  return config;
}

TEST_CASE("a source gets its burst, then its rate", "[unit]") {
  RequestRateLimiter limiter(Small(), kStart, kTestHashKey);
  for (int i = 0; i < 5; ++i) CHECK(limiter.Admit(Ip(1), kStart) == RateVerdict::kAllowed);
  CHECK(limiter.Admit(Ip(1), kStart) == RateVerdict::kPerIpExceeded);
  CHECK(limiter.Admit(Ip(2), kStart) == RateVerdict::kAllowed);  // others are unaffected
  // 0.1 s at 10 per second: one more token.
  CHECK(limiter.Admit(Ip(1), kStart + transport::Millis(100)) == RateVerdict::kAllowed);
  CHECK(limiter.Admit(Ip(1), kStart + transport::Millis(100)) == RateVerdict::kPerIpExceeded);
}

TEST_CASE("the global bucket caps all sources together", "[unit]") {
  RateLimitConfig config = Small();
  config.global_rate = 1;
  config.global_burst = 3;
  config.tracked_ips_max = 100;
  RequestRateLimiter limiter(config, kStart, kTestHashKey);
  for (int i = 1; i <= 3; ++i) CHECK(limiter.Admit(Ip(i), kStart) == RateVerdict::kAllowed);
  CHECK(limiter.Admit(Ip(4), kStart) == RateVerdict::kGlobalExceeded);
  CHECK(limiter.Admit(Ip(4), kStart + transport::Seconds(1)) == RateVerdict::kAllowed);
}

TEST_CASE("tracking is bounded: past tracked_ips_max the least recently active is forgotten",
          "[unit]") {
  RequestRateLimiter limiter(Small(), kStart, kTestHashKey);
  for (int i = 0; i < 5; ++i) REQUIRE(limiter.Admit(Ip(1), kStart) == RateVerdict::kAllowed);
  limiter.Admit(Ip(2), kStart);
  limiter.Admit(Ip(3), kStart);
  CHECK(limiter.tracked_ips() == 3);
  limiter.Admit(Ip(4), kStart);  // Ip(1) was the least recently active
  CHECK(limiter.tracked_ips() == 3);
  // Forgotten, Ip(1) starts over with a full bucket although its old one was empty.
  CHECK(limiter.Admit(Ip(1), kStart) == RateVerdict::kAllowed);
}

TEST_CASE("a source idle until its bucket is full again is forgotten without changing verdicts",
          "[unit]") {
  RateLimitConfig config = Small();
  config.tracked_ips_max = 100;
  RequestRateLimiter limiter(config, kStart, kTestHashKey);
  for (int i = 0; i < 5; ++i) REQUIRE(limiter.Admit(Ip(1), kStart) == RateVerdict::kAllowed);
  REQUIRE(limiter.Admit(Ip(1), kStart) == RateVerdict::kPerIpExceeded);
  limiter.Admit(Ip(2), kStart + transport::Millis(100));
  CHECK(limiter.tracked_ips() == 2);
  // Ip(1)'s empty bucket needs 0.5 s to fill: at 0.4 s it is still tracked.
  limiter.Admit(Ip(3), kStart + transport::Millis(400));
  CHECK(limiter.tracked_ips() == 3);
  // At 0.5 s it is full again and forgotten; Ip(2) (0.4 s idle) is kept.
  limiter.Admit(Ip(3), kStart + transport::Millis(500));
  CHECK(limiter.tracked_ips() == 2);
  // Coming back, it gets exactly the burst a remembered full bucket would give: 5, then no more.
  for (int i = 0; i < 5; ++i) {
    CHECK(limiter.Admit(Ip(1), kStart + transport::Millis(500)) == RateVerdict::kAllowed);
  }
  CHECK(limiter.Admit(Ip(1), kStart + transport::Millis(500)) == RateVerdict::kPerIpExceeded);
  // Many idle sources are forgotten as traffic goes on, so the table follows the active ones.
  for (int i = 10; i < 60; ++i) limiter.Admit(Ip(i), kStart + transport::Seconds(1));
  CHECK(limiter.tracked_ips_capacity() >= 50);
  for (int i = 0; i < 30; ++i) limiter.Admit(Ip(200), kStart + transport::Seconds(2));
  CHECK(limiter.tracked_ips() == 1);
  // The storage the burst grew goes back with it.
  CHECK(limiter.tracked_ips_capacity() <= 16);
}

// The limiter's rules written the plain way: a recency list and a map.
class ReferenceLimiter {
 public:
  explicit ReferenceLimiter(const RateLimitConfig& config, transport::TimePoint now)
      : config_(config),
        refill_(transport::Duration(
            static_cast<int64_t>(std::ceil(config.per_ip_burst / config.per_ip_rate * 1e6)))),
        global_(config.global_burst, now) {}

  RateVerdict Admit(const transport::Address& source, transport::TimePoint now) {
    for (int i = 0; i < 2 && !recency_.empty(); ++i) {
      if (now - recency_.back().second.updated() < refill_) break;
      by_address_.erase(recency_.back().first);
      recency_.pop_back();
    }
    auto it = by_address_.find(source);
    if (it == by_address_.end()) {
      if (by_address_.size() >= config_.tracked_ips_max && !recency_.empty()) {
        by_address_.erase(recency_.back().first);
        recency_.pop_back();
      }
      recency_.emplace_front(source, TokenBucket(config_.per_ip_burst, now));
      it = by_address_.emplace(source, recency_.begin()).first;
    } else {
      recency_.splice(recency_.begin(), recency_, it->second);
    }
    if (!it->second->second.Take(now, config_.per_ip_rate, config_.per_ip_burst)) {
      return RateVerdict::kPerIpExceeded;
    }
    if (!global_.Take(now, config_.global_rate, config_.global_burst)) {
      return RateVerdict::kGlobalExceeded;
    }
    return RateVerdict::kAllowed;
  }
  size_t tracked_ips() const { return by_address_.size(); }

 private:
  using Entry = std::pair<transport::Address, TokenBucket>;
  RateLimitConfig config_;
  transport::Duration refill_;
  TokenBucket global_;
  std::list<Entry> recency_;
  std::map<transport::Address, std::list<Entry>::iterator> by_address_;
};

TEST_CASE("the flat table gives the verdicts of a plain list and map, request by request",
          "[unit]") {
  // Bursts from a few busy sources among many one-off ones, at a pace that lets some go idle:
  // the index grows, wraps, and shifts entries back on removal.
  for (const size_t tracked_max : {size_t{3}, size_t{50}, size_t{4096}}) {
    RateLimitConfig config = Small();
    config.tracked_ips_max = tracked_max;
    config.global_rate = 2000;
    config.global_burst = 40;
    RequestRateLimiter limiter(config, kStart, kTestHashKey);
    ReferenceLimiter reference(config, kStart);
    transport::Rng rng(tracked_max);
    transport::TimePoint now = kStart;
    for (int i = 0; i < 20000; ++i) {
      INFO("tracked_ips_max " << tracked_max << ", request " << i);
      now += transport::Duration(static_cast<int64_t>(rng.Below(2000)));
      // Now and then a pause: every source goes idle, and the table gives back its storage.
      if (i % 5000 == 4999) now += transport::Seconds(3);
      const int who = rng.Chance(0.3) ? static_cast<int>(rng.Below(4))
                                      : 1000 + static_cast<int>(rng.Below(3000));
      const transport::Address source = *transport::Address::Parse(
          "10." + std::to_string(who / 256) + "." + std::to_string(who % 256) + ".1");
      REQUIRE(limiter.Admit(source, now) == reference.Admit(source, now));
      REQUIRE(limiter.tracked_ips() == reference.tracked_ips());
    }
  }
}

// IPv4 sources whose unkeyed hash (MixedHash over std::hash<Address>) has low bits all zero:
// under the old unkeyed source table they all shared one home place, whatever the table's size.
std::vector<transport::Address> AddressesCollidingUnkeyed(size_t count, uint32_t low_mask) {
  std::vector<transport::Address> out;
  for (uint32_t n = 0; out.size() < count; ++n) {
    const transport::Address a =
        transport::Address::V4({static_cast<uint8_t>(10 + (n >> 24)), static_cast<uint8_t>(n >> 16),
                                static_cast<uint8_t>(n >> 8), static_cast<uint8_t>(n)});
    if ((MixedHash<transport::Address>{}(a)&low_mask) == 0) out.push_back(a);
  }
  return out;
}

TEST_CASE("sources chosen to collide under the unkeyed hash spread in the keyed source table",
          "[unit]") {
  const std::vector<transport::Address> sources = AddressesCollidingUnkeyed(300, 0x3ff);
  // Under the old hash: one probe run as long as the table.
  FlatLinkedMap<transport::Address, int> unkeyed;
  for (const transport::Address& a : sources) unkeyed.Emplace(a);
  CHECK(unkeyed.ProbeDistanceMax() == sources.size() - 1);
  RateLimitConfig config = Small();
  config.tracked_ips_max = 1000;
  config.global_rate = 1e6;
  config.global_burst = 1e6;
  RequestRateLimiter limiter(config, kStart, kTestHashKey);
  for (const transport::Address& a : sources)
    CHECK(limiter.Admit(a, kStart) == RateVerdict::kAllowed);
  CHECK(limiter.tracked_ips() == sources.size());
  // A random hash at most half full: the longest run is a handful of places.
  CHECK(limiter.probe_distance_max() < 16);
}

}  // namespace
}  // namespace skillnode::kademlia::rpc
