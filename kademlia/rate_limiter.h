// RequestRateLimiter: token buckets that cap incoming requests per source IP and in total.
//
// Excess requests are dropped (and counted by the caller), never answered: answering would
// make the node an amplifier. Tracking is bounded: past tracked_ips_max source addresses the
// least recently active one is forgotten. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_RATE_LIMITER_H_
#define SKILLNODE_KADEMLIA_RATE_LIMITER_H_

#include <list>
#include <unordered_map>

#include "kademlia/config.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia {

// A token bucket: `rate` tokens per second, holding at most `burst`.
class TokenBucket {
 public:
  TokenBucket() = default;
  TokenBucket(double burst, TimePoint now) : tokens_(burst), updated_(now) {}

  // Refills for the time since the last call, then takes one token if there is one.
  bool Take(TimePoint now, double rate, double burst);

 private:
  double tokens_ = 0;
  TimePoint updated_ = kTimeZero;
};

enum class RateVerdict { kAllowed, kPerIpExceeded, kGlobalExceeded };

class RequestRateLimiter {
 public:
  RequestRateLimiter(const RateLimitConfig& config, TimePoint now);

  RateVerdict Admit(const Address& source, TimePoint now);

  size_t tracked_ips() const { return per_ip_.size(); }

 private:
  struct Entry {
    TokenBucket bucket;
    std::list<Address>::iterator recency;
  };

  RateLimitConfig config_;
  TokenBucket global_;
  std::unordered_map<Address, Entry> per_ip_;
  std::list<Address> recency_;  // most recently active first
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_RATE_LIMITER_H_
