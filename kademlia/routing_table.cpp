#include "kademlia/routing_table.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace skillnode::kademlia {
namespace {

// A bucket asks for one ping at a time. The caller reports a ping's outcome within its RPC
// timeout (1 s by default); if no report came after this long (the caller dropped the ping,
// e.g. at rpcs_in_flight_max), the bucket may ask again, so a lost report never stalls it.
constexpr Duration kPingReportWaitMax = Seconds(10);

// `key` with every bit from `depth` on cleared.
Key Masked(const Key& key, int depth) {
  Key out = key;
  auto& bytes = out.mutable_bytes();
  for (size_t i = 0; i < Key::kSize; ++i) {
    const int keep = std::clamp(depth - static_cast<int>(i) * 8, 0, 8);
    bytes[i] &= static_cast<uint8_t>(0xff00 >> keep);
  }
  return out;
}

template <typename Contacts>
auto FindId(Contacts& contacts, const NodeId& id) {
  return std::find_if(contacts.begin(), contacts.end(),
                      [&](const Contact& c) { return c.id == id; });
}

bool IsKnownKey(const PublicKey& key) {
  return std::any_of(key.begin(), key.end(), [](uint8_t b) { return b != 0; });
}

}  // namespace

RoutingTable::RoutingTable(const NodeId& self, const RoutingConfig& config)
    : self_(self), config_(config) {
  assert(config_.bucket_size > 0);
  buckets_.push_back(Bucket{});  // depth 0: the whole key space
}

size_t RoutingTable::IndexOf(const Key& key) const {
  // Buckets are sorted by distance, farthest first: the bucket holding `key` is the first
  // whose lowest distance is not above the key's distance.
  const Key distance = Distance(key, self_);
  const auto it = std::partition_point(buckets_.begin(), buckets_.end(), [&](const Bucket& b) {
    return distance < b.distance_prefix;
  });
  assert(it != buckets_.end());
  return static_cast<size_t>(it - buckets_.begin());
}

InsertResult RoutingTable::Heard(const Contact& contact, TimePoint now) {
  if (contact.id == self_) return {InsertOutcome::kRejectedSelf, std::nullopt};
  const size_t index = IndexOf(contact.id);
  Bucket& bucket = buckets_[index];
  if (auto it = FindId(bucket.contacts, contact.id); it != bucket.contacts.end()) {
    return Refresh(bucket, it, contact, now);
  }
  // A cached contact heard again is taken out and offered anew as the newest one.
  std::optional<Contact> cached;
  if (auto it = FindId(bucket.replacements, contact.id); it != bucket.replacements.end()) {
    cached = *it;
    bucket.replacements.erase(it);
  }
  Contact fresh = contact;
  if (cached && !IsKnownKey(fresh.public_key)) fresh.public_key = cached->public_key;
  return Insert(index, fresh, now);
}

bool RoutingTable::Wants(const NodeId& id, TimePoint now) const {
  if (id == self_) return false;
  const size_t index = IndexOf(id);
  const Bucket& bucket = buckets_[index];
  if (bucket.contacts.size() < config_.bucket_size) return true;
  if (FindId(bucket.contacts, id) != bucket.contacts.end()) return true;
  if (CanSplit(index, id)) return true;
  return OldestDuePing(bucket, now);
}

InsertResult RoutingTable::Refresh(Bucket& bucket, std::vector<Contact>::iterator it,
                                   const Contact& contact, TimePoint now) {
  const bool moved = it->endpoint.address() != contact.endpoint.address();
  if (moved && !DiversityAllows(bucket.contacts, contact)) return RejectDiversity();
  it->endpoint = contact.endpoint;
  if (IsKnownKey(contact.public_key)) it->public_key = contact.public_key;
  it->last_seen = now;
  it->failures = 0;
  std::rotate(it, it + 1, bucket.contacts.end());  // to the most-recently-seen end
  if (bucket.ping_pending == contact.id) bucket.ping_pending.reset();
  return {InsertOutcome::kUpdated, std::nullopt};
}

InsertResult RoutingTable::Insert(size_t index, const Contact& contact, TimePoint now) {
  // Each split makes the newcomer's bucket one bit deeper and a bucket of depth 256 never
  // splits, so this ends within 256 rounds.
  while (true) {
    Bucket& bucket = buckets_[index];
    if (bucket.contacts.size() < config_.bucket_size) {
      if (!DiversityAllows(bucket.contacts, contact)) return RejectDiversity();
      Contact added = contact;
      added.last_seen = now;
      added.failures = 0;
      bucket.contacts.push_back(added);
      bucket.touched_at = now;
      return {InsertOutcome::kAdded, std::nullopt};
    }
    if (!CanSplit(index, contact.id)) return CacheReplacement(bucket, contact, now);
    Split(index);
    index = IndexOf(contact.id);
  }
}

InsertResult RoutingTable::CacheReplacement(Bucket& bucket, const Contact& contact, TimePoint now) {
  if (!DiversityAllows(bucket.replacements, contact)) return RejectDiversity();
  if (config_.replacement_cache_size > 0) {
    if (bucket.replacements.size() >= config_.replacement_cache_size) {
      bucket.replacements.erase(bucket.replacements.begin());  // drop the oldest
    }
    Contact cached = contact;
    cached.last_seen = now;
    cached.failures = 0;
    bucket.replacements.push_back(cached);
  }
  return {InsertOutcome::kReplacementCached, AskPing(bucket, now)};
}

bool RoutingTable::OldestDuePing(const Bucket& bucket, TimePoint now) const {
  const Contact& oldest = bucket.contacts.front();
  return oldest.failures > 0 || now - oldest.last_seen >= config_.ping_oldest_after;
}

std::optional<Contact> RoutingTable::AskPing(Bucket& bucket, TimePoint now) {
  // One ping per bucket at a time: a flood of newcomers must not turn into a flood of pings
  // at the same oldest contact. Heard() and Failed() on the pinged contact end the wait.
  if (bucket.ping_pending && now - bucket.ping_asked_at < kPingReportWaitMax) {
    return std::nullopt;
  }
  const Contact& oldest = bucket.contacts.front();
  if (!OldestDuePing(bucket, now)) return std::nullopt;
  bucket.ping_pending = oldest.id;
  bucket.ping_asked_at = now;
  return oldest;
}

bool RoutingTable::CanSplit(size_t index, const NodeId& newcomer) const {
  const Bucket& bucket = buckets_[index];
  if (bucket.depth >= Key::kBits) return false;
  if (index + 1 == buckets_.size()) return true;  // the nearest bucket holds our own id
  // Paper section 4.2: also split when the newcomer would be among our k closest contacts.
  // Buckets after `index` are nearer to us than everything in it.
  size_t closer = 0;
  for (size_t i = index + 1; i < buckets_.size(); ++i) closer += buckets_[i].contacts.size();
  for (const Contact& c : bucket.contacts) {
    if (CloserTo(self_, c.id, newcomer)) ++closer;
  }
  return closer < config_.bucket_size;
}

void RoutingTable::Split(size_t index) {
  Bucket& old = buckets_[index];
  Bucket near;
  near.depth = old.depth + 1;
  near.distance_prefix = old.distance_prefix;
  near.touched_at = old.touched_at;
  Bucket far = near;  // a pending ping is forgotten: at worst it is asked for once more
  far.distance_prefix = old.distance_prefix.WithBitFlipped(old.depth);
  // Stable partitions keep the least-recently-seen and oldest-first orders.
  for (Contact& c : old.contacts) {
    (Distance(c.id, self_).Bit(old.depth) ? far : near).contacts.push_back(std::move(c));
  }
  for (Contact& c : old.replacements) {
    (Distance(c.id, self_).Bit(old.depth) ? far : near).replacements.push_back(std::move(c));
  }
  Promote(far);
  Promote(near);
  buckets_[index] = std::move(far);
  buckets_.insert(buckets_.begin() + static_cast<std::ptrdiff_t>(index) + 1, std::move(near));
}

void RoutingTable::Promote(Bucket& bucket) {
  auto& cache = bucket.replacements;
  while (bucket.contacts.size() < config_.bucket_size && !cache.empty()) {
    // The most recently seen replacement that the bucket's diversity limit accepts.
    auto it = std::find_if(cache.rbegin(), cache.rend(),
                           [&](const Contact& c) { return DiversityAllows(bucket.contacts, c); });
    if (it == cache.rend()) return;
    const Contact promoted = *it;
    cache.erase(std::next(it).base());
    // Keep the bucket ordered by last_seen: a replacement may be older than some contacts.
    auto at = std::upper_bound(bucket.contacts.begin(), bucket.contacts.end(), promoted.last_seen,
                               [](TimePoint t, const Contact& c) { return t < c.last_seen; });
    bucket.contacts.insert(at, promoted);
    ++promoted_;
  }
}

bool RoutingTable::DiversityAllows(std::span<const Contact> contacts,
                                   const Contact& newcomer) const {
  const Address& address = newcomer.endpoint.address();
  if (config_.diversity_exempt_local &&
      (address.IsLoopback() || address.IsLinkLocal() || address.IsPrivate())) {
    return true;
  }
  const int bits =
      address.is_v4() ? config_.diversity_ipv4_prefix_bits : config_.diversity_ipv6_prefix_bits;
  const Address prefix = address.Masked(bits);
  const auto same = std::count_if(contacts.begin(), contacts.end(), [&](const Contact& c) {
    return c.id != newcomer.id && c.endpoint.address().Masked(bits) == prefix;
  });
  return static_cast<size_t>(same) < config_.diversity_per_bucket_max;
}

InsertResult RoutingTable::RejectDiversity() {
  ++rejected_diversity_;
  return {InsertOutcome::kRejectedDiversity, std::nullopt};
}

bool RoutingTable::Failed(const NodeId& id) {
  Bucket& bucket = buckets_[IndexOf(id)];
  if (auto it = FindId(bucket.replacements, id); it != bucket.replacements.end()) {
    bucket.replacements.erase(it);
    ++evicted_;
    return true;
  }
  auto it = FindId(bucket.contacts, id);
  if (it == bucket.contacts.end()) return false;
  if (bucket.ping_pending == id) bucket.ping_pending.reset();  // the caller may ask again
  if (++it->failures < config_.stale_failures_max) return false;
  bucket.contacts.erase(it);
  ++evicted_;
  Promote(bucket);
  return true;
}

bool RoutingTable::Remove(const NodeId& id) {
  Bucket& bucket = buckets_[IndexOf(id)];
  if (auto it = FindId(bucket.replacements, id); it != bucket.replacements.end()) {
    bucket.replacements.erase(it);
    return true;
  }
  auto it = FindId(bucket.contacts, id);
  if (it == bucket.contacts.end()) return false;
  bucket.contacts.erase(it);
  if (bucket.ping_pending == id) bucket.ping_pending.reset();
  Promote(bucket);
  return true;
}

const Contact* RoutingTable::Find(const NodeId& id) const {
  const Bucket& bucket = buckets_[IndexOf(id)];
  for (const auto* list : {&bucket.contacts, &bucket.replacements}) {
    if (auto it = FindId(*list, id); it != list->end()) return &*it;
  }
  return nullptr;
}

void RoutingTable::BucketsByDistance(const Key& target, std::vector<size_t>& out) const {
  // Bucket ranges are disjoint prefix ranges, so their distances to `target` are disjoint
  // intervals too, each starting at the bucket's prefix XOR target masked to its depth.
  // Buckets no deeper than 64 bits (every table short of astronomically many nodes) are told
  // apart by the first 64 bits of that lowest distance alone.
  out.clear();
  out.reserve(buckets_.size());
  const bool shallow =
      std::all_of(buckets_.begin(), buckets_.end(), [](const Bucket& b) { return b.depth <= 64; });
  if (shallow) {
    // Reused between calls: this runs for every FIND_NODE answered.
    thread_local std::vector<std::pair<uint64_t, size_t>> order;
    order.clear();
    order.reserve(buckets_.size());
    const uint64_t target_word = target.FirstWord() ^ self_.FirstWord();
    for (size_t i = 0; i < buckets_.size(); ++i) {
      const Bucket& b = buckets_[i];
      const uint64_t mask = b.depth == 0 ? 0 : ~uint64_t{0} << (64 - b.depth);
      order.emplace_back((b.distance_prefix.FirstWord() ^ target_word) & mask, i);
    }
    std::sort(order.begin(), order.end());
    for (const auto& [low, i] : order) out.push_back(i);
    return;
  }
  std::vector<std::pair<Key, size_t>> order;
  order.reserve(buckets_.size());
  for (size_t i = 0; i < buckets_.size(); ++i) {
    const Bucket& b = buckets_[i];
    order.emplace_back(Masked(Distance(Distance(self_, b.distance_prefix), target), b.depth), i);
  }
  std::sort(order.begin(), order.end());
  for (const auto& [low, i] : order) out.push_back(i);
}

std::vector<Contact> RoutingTable::Closest(const Key& target, size_t count) const {
  if (count == 0) return {};
  // Every contact of a later bucket is farther than every contact of an earlier one, so once
  // `count` healthy contacts are gathered no later contact can enter the result. Contacts sort
  // on the first 64 bits of their distance, then on the rest where those tie.
  // Scratch space reused between calls on this thread: Closest runs for every FIND_NODE.
  thread_local std::vector<size_t> buckets;
  thread_local std::vector<std::pair<uint64_t, const Contact*>> gathered;
  BucketsByDistance(target, buckets);
  gathered.clear();
  size_t healthy = 0;
  const uint64_t target_word = target.FirstWord();
  for (size_t i : buckets) {
    if (healthy >= count) break;
    for (const Contact& c : buckets_[i].contacts) {
      gathered.emplace_back(c.id.FirstWord() ^ target_word, &c);
      if (c.failures == 0) ++healthy;
    }
  }
  std::sort(gathered.begin(), gathered.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : CloserTo(target, a.second->id, b.second->id);
  });
  // Failing contacts only take the places healthy ones cannot fill.
  const size_t failing_max = healthy < count ? count - healthy : 0;
  size_t healthy_taken = 0, failing_taken = 0;
  std::vector<Contact> out;
  out.reserve(std::min(count, gathered.size()));
  for (const auto& [word, c] : gathered) {
    if (out.size() == count) break;
    size_t& taken = c->failures == 0 ? healthy_taken : failing_taken;
    if (taken < (c->failures == 0 ? count : failing_max)) {
      ++taken;
      out.push_back(*c);
    }
  }
  return out;
}

std::vector<Key> RoutingTable::RefreshTargets(TimePoint now, Rng& rng) {
  std::vector<Key> targets;
  for (size_t i = 0; i < buckets_.size(); ++i) {
    if (now - buckets_[i].touched_at < config_.bucket_refresh_interval) continue;
    targets.push_back(RandomKeyInBucket(i, rng));
    buckets_[i].touched_at = now;
  }
  return targets;
}

void RoutingTable::Touched(const Key& target, TimePoint now) {
  buckets_[IndexOf(target)].touched_at = now;
}

TimePoint RoutingTable::NextRefreshDue() const {
  TimePoint earliest = kTimeNever;
  for (const Bucket& b : buckets_) earliest = std::min(earliest, b.touched_at);
  return earliest + config_.bucket_refresh_interval;
}

Key RoutingTable::RandomKeyInBucket(size_t index, Rng& rng) const {
  assert(index < buckets_.size());
  const Bucket& bucket = buckets_[index];
  // The bucket's ids share their first `depth` bits with self_ XOR distance_prefix; the
  // remaining bits are free.
  const Key prefix = Distance(self_, bucket.distance_prefix);
  Key key;
  rng.Fill(key.mutable_bytes());
  const Key free_bits = Distance(key, Masked(key, bucket.depth));
  return Distance(Masked(prefix, bucket.depth), free_bits);
}

std::vector<Contact> RoutingTable::Export() const {
  std::vector<Contact> out;
  for (const Bucket& b : buckets_) out.insert(out.end(), b.contacts.begin(), b.contacts.end());
  for (const Bucket& b : buckets_) {
    out.insert(out.end(), b.replacements.begin(), b.replacements.end());
  }
  return out;
}

size_t RoutingTable::Import(std::span<const Contact> contacts, TimePoint now) {
  size_t kept = 0;
  for (const Contact& c : contacts) {
    const InsertOutcome outcome = Heard(c, now).outcome;
    if (outcome != InsertOutcome::kRejectedDiversity && outcome != InsertOutcome::kRejectedSelf) {
      ++kept;
    }
  }
  return kept;
}

size_t RoutingTable::size() const {
  size_t total = 0;
  for (const Bucket& b : buckets_) total += b.contacts.size();
  return total;
}

size_t RoutingTable::bucket_count() const { return buckets_.size(); }

RoutingTableStats RoutingTable::stats() const {
  RoutingTableStats s;
  s.contacts = size();
  s.buckets = buckets_.size();
  for (const Bucket& b : buckets_) s.replacements += b.replacements.size();
  s.rejected_diversity = rejected_diversity_;
  s.evicted = evicted_;
  s.promoted = promoted_;
  return s;
}

}  // namespace skillnode::kademlia
