// RequestRateLimiter: token buckets that cap incoming requests per source IP and in total.
//
// Excess requests are dropped (and counted by the caller), never answered: answering would
// make the node an amplifier. Tracking is bounded: past tracked_ips_max source addresses the
// least recently active one is forgotten. A source idle long enough for its bucket to be full
// again (per_ip_burst / per_ip_rate, 2 s by default) is forgotten too: a new bucket starts
// full, so this changes no verdict, and the table holds only the sources active in the last
// few seconds instead of every one ever heard, and its storage shrinks with it.
//
// Most sources of a busy node are heard once and forgotten two seconds later, so the table
// adds and removes an entry for nearly every request. It is therefore a FlatLinkedMap (one
// slab, a recency list, an open-addressing index): steady traffic allocates nothing. Its
// addresses are hashed with SipHash under `hash_key`, a per-node secret (kademlia/keyed_hash.h),
// so that nobody can pick source addresses that pile into one probe run. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_RPC_RATE_LIMITER_H_
#define SKILLNODE_KADEMLIA_RPC_RATE_LIMITER_H_

#include <cstdint>

#include "kademlia/config.h"
#include "kademlia/flat_linked_map.h"
#include "kademlia/keyed_hash.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::rpc {

// A token bucket: `rate` tokens per second, holding at most `burst`.
class TokenBucket {
 public:
  TokenBucket() = default;
  TokenBucket(double burst, transport::TimePoint now) : tokens_(burst), updated_(now) {}

  // Refills for the time since the last call, then takes one token if there is one.
  bool Take(transport::TimePoint now, double rate, double burst);
  // When Take, called with the same `rate`, finds a token at the earliest: now (`updated()`)
  // if it holds one.
  transport::TimePoint NextToken(double rate) const;
  // When the bucket last refilled (the last Take).
  transport::TimePoint updated() const { return updated_; }

 private:
  double tokens_ = 0;
  transport::TimePoint updated_ = transport::kTimeZero;
};

enum class RateVerdict { kAllowed, kPerIpExceeded, kGlobalExceeded };

class RequestRateLimiter {
 public:
  RequestRateLimiter(const RateLimitConfig& config, transport::TimePoint now,
                     const HashKey& hash_key);

  RateVerdict Admit(const transport::Address& source, transport::TimePoint now);

  size_t tracked_ips() const { return sources_.size(); }
  // Sources the table has room for: after a burst has gone idle, at most twice the sources
  // still tracked (or a small minimum).
  size_t tracked_ips_capacity() const { return sources_.capacity(); }
  // The longest probe of the source table (FlatLinkedMap::ProbeDistanceMax).
  size_t probe_distance_max() const { return sources_.ProbeDistanceMax(); }

 private:
  // Forgets up to `max` least recently active sources whose buckets are full again.
  void ForgetIdle(transport::TimePoint now, size_t max);

  RateLimitConfig config_;
  transport::Duration refill_;  // how long an idle per-IP bucket takes to fill from empty
  TokenBucket global_;
  // Tracked sources' buckets, least recently active first.
  FlatLinkedMap<transport::Address, TokenBucket, KeyedHash<transport::Address>> sources_;
};

}  // namespace skillnode::kademlia::rpc

#endif  // SKILLNODE_KADEMLIA_RPC_RATE_LIMITER_H_
