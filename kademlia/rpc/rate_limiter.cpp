#include "kademlia/rpc/rate_limiter.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace skillnode::kademlia::rpc {

bool TokenBucket::Take(transport::TimePoint now, double rate, double burst) {
  if (now > updated_) {
    const double seconds = static_cast<double>((now - updated_).count()) / 1e6;
    tokens_ = std::min(burst, tokens_ + seconds * rate);
    updated_ = now;
  }
  if (tokens_ < 1.0) return false;
  tokens_ -= 1.0;
  return true;
}

transport::TimePoint TokenBucket::NextToken(double rate) const {
  assert(rate > 0);
  if (tokens_ >= 1.0) return updated_;
  return updated_ +
         transport::Duration(static_cast<int64_t>(std::ceil((1.0 - tokens_) / rate * 1e6)));
}

RequestRateLimiter::RequestRateLimiter(const RateLimitConfig& config, transport::TimePoint now,
                                       const HashKey& hash_key)
    : config_(config),
      refill_(static_cast<int64_t>(std::ceil(config.per_ip_burst / config.per_ip_rate * 1e6))),
      global_(config.global_burst, now),
      sources_(KeyedHash<transport::Address>(hash_key)) {}

void RequestRateLimiter::ForgetIdle(transport::TimePoint now, size_t max) {
  size_t forgotten = 0;
  while (forgotten < max && !sources_.empty()) {
    const auto oldest = sources_.oldest();
    if (now - sources_.value(oldest).updated() < refill_) break;
    sources_.Erase(oldest);
    ++forgotten;
  }
  // A burst of new sources (a join, a crawl) grows the table; once they have gone idle, its
  // storage goes back too.
  if (forgotten > 0) sources_.CompactIfSparse();
}

RateVerdict RequestRateLimiter::Admit(const transport::Address& source, transport::TimePoint now) {
  // Two at a time: every source is added once and forgotten at most once, so this keeps up.
  ForgetIdle(now, 2);
  const auto [found, added] = sources_.Emplace(source);
  if (added) {
    sources_.value(found) = TokenBucket(config_.per_ip_burst, now);
    // Past the bound the least recently active other source is forgotten (a bound of 0
    // still tracks the one source at hand).
    if (sources_.size() > std::max<size_t>(config_.tracked_ips_max, 1)) {
      sources_.Erase(sources_.oldest());
    }
  } else {
    sources_.MakeNewest(found);
  }
  TokenBucket& bucket = sources_.value(found);
  // The per-IP bucket is checked first so that one noisy source cannot drain the global budget.
  if (!bucket.Take(now, config_.per_ip_rate, config_.per_ip_burst)) {
    return RateVerdict::kPerIpExceeded;
  }
  if (!global_.Take(now, config_.global_rate, config_.global_burst)) {
    return RateVerdict::kGlobalExceeded;
  }
  return RateVerdict::kAllowed;
}

}  // namespace skillnode::kademlia::rpc
