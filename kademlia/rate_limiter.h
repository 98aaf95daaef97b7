// RequestRateLimiter: token buckets that cap incoming requests per source IP and in total.
//
// Excess requests are dropped (and counted by the caller), never answered: answering would
// make the node an amplifier. Tracking is bounded: past tracked_ips_max source addresses the
// least recently active one is forgotten. A source idle long enough for its bucket to be full
// again (per_ip_burst / per_ip_rate, 2 s by default) is forgotten too: a new bucket starts
// full, so this changes no verdict, and the table holds only the sources active in the last
// few seconds instead of every one ever heard.
//
// Most sources of a busy node are heard once and forgotten two seconds later, so the table
// adds and removes an entry for nearly every request. It is therefore flat: sources live in a
// slab threaded by a recency list of indices, found through an open-addressing index (linear
// probing, deletion by backward shift), and steady traffic allocates nothing. Not
// thread-safe.
#ifndef SKILLNODE_KADEMLIA_RATE_LIMITER_H_
#define SKILLNODE_KADEMLIA_RATE_LIMITER_H_

#include <cstdint>
#include <vector>

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
  // When the bucket last refilled (the last Take).
  TimePoint updated() const { return updated_; }

 private:
  double tokens_ = 0;
  TimePoint updated_ = kTimeZero;
};

enum class RateVerdict { kAllowed, kPerIpExceeded, kGlobalExceeded };

class RequestRateLimiter {
 public:
  RequestRateLimiter(const RateLimitConfig& config, TimePoint now);

  RateVerdict Admit(const Address& source, TimePoint now);

  size_t tracked_ips() const { return tracked_; }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  // The index starts with this many places and doubles to stay at most half full.
  static constexpr size_t kIndexMin = 16;

  // A tracked source, in the slab: its bucket, and its neighbours in the recency list.
  struct Source {
    Address address;
    TokenBucket bucket;
    uint32_t hash = 0;       // of the address, so that moving it in the index rehashes nothing
    uint32_t newer = kNone;  // towards the most recently active
    uint32_t older = kNone;
  };

  // Forgets up to `max` least recently active sources whose buckets are full again.
  void ForgetIdle(TimePoint now, size_t max);
  // The slab index of `address`'s source, or kNone.
  uint32_t Find(const Address& address, uint32_t hash) const;
  // A new most recently active source with a full bucket.
  uint32_t Add(const Address& address, uint32_t hash, TimePoint now);
  void Remove(uint32_t source);
  void MakeNewest(uint32_t source);
  void Unlink(uint32_t source);
  void Grow();
  size_t Home(uint32_t hash) const { return hash & (index_.size() - 1); }

  RateLimitConfig config_;
  Duration refill_;  // how long an idle per-IP bucket takes to fill from empty
  TokenBucket global_;
  std::vector<Source> slab_;
  std::vector<uint32_t> free_;   // slab places not in use
  std::vector<uint32_t> index_;  // power-of-two size; slab indices or kNone
  size_t tracked_ = 0;
  uint32_t newest_ = kNone;
  uint32_t oldest_ = kNone;
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_RATE_LIMITER_H_
