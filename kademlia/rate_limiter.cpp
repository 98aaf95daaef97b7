#include "kademlia/rate_limiter.h"

#include <algorithm>
#include <cmath>

namespace skillnode::kademlia {

bool TokenBucket::Take(TimePoint now, double rate, double burst) {
  if (now > updated_) {
    const double seconds = static_cast<double>((now - updated_).count()) / 1e6;
    tokens_ = std::min(burst, tokens_ + seconds * rate);
    updated_ = now;
  }
  if (tokens_ < 1.0) return false;
  tokens_ -= 1.0;
  return true;
}

RequestRateLimiter::RequestRateLimiter(const RateLimitConfig& config, TimePoint now)
    : config_(config),
      refill_(static_cast<int64_t>(std::ceil(config.per_ip_burst / config.per_ip_rate * 1e6))),
      global_(config.global_burst, now) {}

void RequestRateLimiter::ForgetIdle(TimePoint now, size_t max) {
  for (size_t i = 0; i < max && oldest_ != kNone; ++i) {
    if (now - slab_[oldest_].bucket.updated() < refill_) return;
    Remove(oldest_);
  }
}

uint32_t RequestRateLimiter::Find(const Address& address, uint32_t hash) const {
  if (index_.empty()) return kNone;
  const size_t mask = index_.size() - 1;
  for (size_t at = Home(hash);; at = (at + 1) & mask) {
    const uint32_t source = index_[at];
    if (source == kNone) return kNone;
    if (slab_[source].hash == hash && slab_[source].address == address) return source;
  }
}

uint32_t RequestRateLimiter::Add(const Address& address, uint32_t hash, TimePoint now) {
  if ((tracked_ + 1) * 2 > index_.size()) Grow();
  uint32_t source = 0;
  if (free_.empty()) {
    source = static_cast<uint32_t>(slab_.size());
    slab_.emplace_back();
  } else {
    source = free_.back();
    free_.pop_back();
  }
  Source& s = slab_[source];
  s.address = address;
  s.bucket = TokenBucket(config_.per_ip_burst, now);
  s.hash = hash;
  const size_t mask = index_.size() - 1;
  size_t at = Home(hash);
  while (index_[at] != kNone) at = (at + 1) & mask;
  index_[at] = source;
  ++tracked_;
  s.newer = s.older = kNone;
  MakeNewest(source);
  return source;
}

void RequestRateLimiter::Remove(uint32_t source) {
  const size_t mask = index_.size() - 1;
  size_t hole = Home(slab_[source].hash);
  while (index_[hole] != source) hole = (hole + 1) & mask;
  // Backward shift: every later entry of the probe run that may sit in the hole moves up, so
  // that no lookup meets an empty place before its entry.
  for (size_t next = (hole + 1) & mask; index_[next] != kNone; next = (next + 1) & mask) {
    const size_t home = Home(slab_[index_[next]].hash);
    const bool stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
    if (stays) continue;
    index_[hole] = index_[next];
    hole = next;
  }
  index_[hole] = kNone;
  --tracked_;
  Unlink(source);
  free_.push_back(source);
}

void RequestRateLimiter::MakeNewest(uint32_t source) {
  Source& s = slab_[source];
  s.older = newest_;
  s.newer = kNone;
  if (newest_ != kNone) slab_[newest_].newer = source;
  newest_ = source;
  if (oldest_ == kNone) oldest_ = source;
}

void RequestRateLimiter::Unlink(uint32_t source) {
  Source& s = slab_[source];
  (s.newer != kNone ? slab_[s.newer].older : newest_) = s.older;
  (s.older != kNone ? slab_[s.older].newer : oldest_) = s.newer;
  s.newer = s.older = kNone;
}

void RequestRateLimiter::Grow() {
  std::vector<uint32_t> old = std::move(index_);
  index_.assign(std::max(kIndexMin, old.size() * 2), kNone);
  const size_t mask = index_.size() - 1;
  for (const uint32_t source : old) {
    if (source == kNone) continue;
    size_t at = Home(slab_[source].hash);
    while (index_[at] != kNone) at = (at + 1) & mask;
    index_[at] = source;
  }
}

RateVerdict RequestRateLimiter::Admit(const Address& source, TimePoint now) {
  // Two at a time: every source is added once and forgotten at most once, so this keeps up.
  ForgetIdle(now, 2);
  const auto hash = static_cast<uint32_t>(std::hash<Address>()(source));
  uint32_t found = Find(source, hash);
  if (found == kNone) {
    if (tracked_ >= config_.tracked_ips_max && oldest_ != kNone) Remove(oldest_);
    found = Add(source, hash, now);
  } else if (found != newest_) {
    Unlink(found);
    MakeNewest(found);
  }
  TokenBucket& bucket = slab_[found].bucket;
  // The per-IP bucket is checked first so that one noisy source cannot drain the global budget.
  if (!bucket.Take(now, config_.per_ip_rate, config_.per_ip_burst)) {
    return RateVerdict::kPerIpExceeded;
  }
  if (!global_.Take(now, config_.global_rate, config_.global_burst)) {
    return RateVerdict::kGlobalExceeded;
  }
  return RateVerdict::kAllowed;
}

}  // namespace skillnode::kademlia
