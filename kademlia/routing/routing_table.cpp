// RoutingTable: adding, refreshing and dropping contacts, splitting buckets, refresh upkeep,
// export and import (routing_table.h). The read-only queries over the buckets are BucketView's.
#include "kademlia/routing/routing_table.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "kademlia/routing/bucket_view.h"

namespace skillnode::kademlia::routing {
namespace {

// A bucket asks for one ping at a time. The caller reports a ping's outcome within its RPC
// timeout (1 s by default); if no report came after this long (the caller dropped the ping,
// e.g. at rpcs_in_flight_max), the bucket may ask again, so a lost report never stalls it.
constexpr transport::Duration kPingReportWaitMax = transport::Seconds(10);

}  // namespace

RoutingTable::RoutingTable(const NodeId& self, const RoutingConfig& config,
                           PeerDirectory* directory)
    : self_(self), config_(config), contacts_(directory), diversity_(config_, contacts_) {
  assert(config_.bucket_size > 0);
  buckets_.push_back(Bucket{});  // depth 0: the whole key space
}

RoutingTable::~RoutingTable() {
  for (const Bucket& b : buckets_) {
    contacts_.ReleaseAll(b.contacts);
    contacts_.ReleaseAll(b.replacements);
  }
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

InsertResult RoutingTable::Heard(const Contact& contact, transport::TimePoint now,
                                 transport::Duration rtt) {
  if (contact.id == self_) return {InsertOutcome::kRejectedSelf, std::nullopt};
  const size_t index = IndexOf(contact.id);
  Bucket& bucket = buckets_[index];
  if (auto it = contacts_.Find(bucket.contacts, contact.id); it != bucket.contacts.end()) {
    return Refresh(bucket, it, contact, now, rtt);
  }
  // A cached contact heard again is taken out and offered anew as the newest one.
  std::optional<Contact> cached;
  if (auto it = contacts_.Find(bucket.replacements, contact.id); it != bucket.replacements.end()) {
    cached = contacts_.Load(*it);
    contacts_.Erase(bucket.replacements, it);
  }
  Contact fresh = contact;
  if (cached) {
    if (!fresh.key_known()) fresh.public_key = cached->public_key;
    fresh.rtt = cached->rtt;
    fresh.rtt_deviation = cached->rtt_deviation;
  }
  fresh.AddRttSample(rtt);
  return Insert(index, fresh, now);
}

bool RoutingTable::Wants(const NodeId& id, transport::TimePoint now) const {
  if (id == self_) return false;
  const size_t index = IndexOf(id);
  const Bucket& bucket = buckets_[index];
  if (bucket.contacts.size() < config_.bucket_size) return true;
  if (contacts_.Find(bucket.contacts, id) != bucket.contacts.end()) return true;
  if (CanSplit(index, id)) return true;
  return OldestDuePing(bucket, now);
}

InsertResult RoutingTable::Refresh(Bucket& bucket, std::vector<StoredContact>::iterator it,
                                   const Contact& contact, transport::TimePoint now,
                                   transport::Duration rtt) {
  Contact known = contacts_.Load(*it);
  const bool moved = known.endpoint.address() != contact.endpoint.address();
  if (moved && !diversity_.Allows(bucket.contacts, contact)) return RejectDiversity();
  if (moved)
    known.rtt = known.rtt_deviation = transport::Duration{};  // another path: measure it anew
  known.AddRttSample(rtt);
  known.endpoint = contact.endpoint;
  if (contact.key_known()) known.public_key = contact.public_key;
  known.last_seen = now;
  known.failures = 0;
  contacts_.Update(*it, known);
  std::rotate(it, it + 1, bucket.contacts.end());  // to the most-recently-seen end
  bucket.PingDone(contact.id.FirstWord());
  return {InsertOutcome::kUpdated, std::nullopt};
}

InsertResult RoutingTable::Insert(size_t index, const Contact& contact, transport::TimePoint now) {
  // Each split makes the newcomer's bucket one bit deeper and a bucket of depth 256 never
  // splits, so this ends within 256 rounds.
  while (true) {
    Bucket& bucket = buckets_[index];
    if (bucket.contacts.size() < config_.bucket_size) {
      if (!diversity_.Allows(bucket.contacts, contact)) return RejectDiversity();
      Contact added = contact;
      added.last_seen = now;
      added.failures = 0;
      StoredContacts::Append(bucket.contacts, config_.bucket_size, contacts_.Store(added));
      bucket.touched_at = now;
      return {InsertOutcome::kAdded, std::nullopt};
    }
    if (!CanSplit(index, contact.id)) {
      if (auto displaced = PreferNearer(index, contact, now)) return *displaced;
      return CacheReplacement(bucket, contact, now);
    }
    Split(index);
    index = IndexOf(contact.id);
  }
}

std::optional<InsertResult> RoutingTable::PreferNearer(size_t index, const Contact& newcomer,
                                                       transport::TimePoint now) {
  if (config_.proximity_ratio <= 0 || !newcomer.rtt_known()) return std::nullopt;
  // Our k closest contacts stay whatever their round trip: a lookup for a key near us ends
  // at them, and they must be exact. Only a bucket with k contacts nearer to us than all of
  // its own takes part.
  size_t nearer = 0;
  for (size_t i = index + 1; i < buckets_.size() && nearer < config_.bucket_size; ++i) {
    nearer += buckets_[i].contacts.size();
  }
  if (nearer < config_.bucket_size) return std::nullopt;
  Bucket& bucket = buckets_[index];
  // The slowest contact whose round trip is known and which has not failed since; one never
  // asked by us keeps its place (Kademlia's preference for old contacts stands for it).
  auto slowest = bucket.contacts.end();
  for (auto it = bucket.contacts.begin(); it != bucket.contacts.end(); ++it) {
    if (!it->rtt_known() || it->failures > 0) continue;
    if (slowest == bucket.contacts.end() || it->rtt_us > slowest->rtt_us) slowest = it;
  }
  if (slowest == bucket.contacts.end()) return std::nullopt;
  const double bound = config_.proximity_ratio * static_cast<double>(slowest->rtt_us);
  if (static_cast<double>(newcomer.rtt.count()) > bound) return std::nullopt;
  const StoredContact displaced = *slowest;
  const auto at = bucket.contacts.erase(slowest);
  if (!diversity_.Allows(bucket.contacts, newcomer)) {
    bucket.contacts.insert(at, displaced);
    return std::nullopt;
  }
  Contact added = newcomer;
  added.last_seen = now;
  added.failures = 0;
  StoredContacts::Append(bucket.contacts, config_.bucket_size, contacts_.Store(added));
  bucket.touched_at = now;
  bucket.PingDone(displaced.id_word);
  // The displaced contact is alive: it waits in the cache to come back when one fails.
  if (diversity_.Allows(bucket.replacements, contacts_.Load(displaced))) {
    contacts_.PushNewest(bucket.replacements, config_.replacement_cache_size, displaced);
  } else {
    contacts_.Release(displaced);
  }
  ++displaced_;
  return InsertResult{InsertOutcome::kAdded, std::nullopt};
}

InsertResult RoutingTable::CacheReplacement(Bucket& bucket, const Contact& contact,
                                            transport::TimePoint now) {
  if (!diversity_.Allows(bucket.replacements, contact)) return RejectDiversity();
  Contact cached = contact;
  cached.last_seen = now;
  cached.failures = 0;
  if (config_.replacement_cache_size > 0) {
    contacts_.PushNewest(bucket.replacements, config_.replacement_cache_size,
                         contacts_.Store(cached));
  }
  return {InsertOutcome::kReplacementCached, AskPing(bucket, now)};
}

bool RoutingTable::OldestDuePing(const Bucket& bucket, transport::TimePoint now) const {
  const StoredContact& oldest = bucket.contacts.front();
  return oldest.failures > 0 || now - oldest.last_seen >= config_.ping_oldest_after;
}

std::optional<Contact> RoutingTable::AskPing(Bucket& bucket, transport::TimePoint now) {
  // One ping per bucket at a time: a flood of newcomers must not turn into a flood of pings
  // at the same oldest contact. Heard() and Failed() on the pinged contact end the wait.
  if (bucket.ping_pending && now - bucket.ping_asked_at < kPingReportWaitMax) {
    return std::nullopt;
  }
  if (!OldestDuePing(bucket, now)) return std::nullopt;
  const Contact oldest = contacts_.Load(bucket.contacts.front());
  bucket.AskedPing(bucket.contacts.front().id_word, now);
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
  for (const StoredContact& c : bucket.contacts) {
    if (CloserTo(self_, contacts_.IdOf(c), newcomer)) ++closer;
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
  // Stable partitions keep the least-recently-seen and oldest-first orders. The references
  // move with the contacts.
  const auto half = [&](const StoredContact& c) -> Bucket& {
    return Distance(contacts_.IdOf(c), self_).Bit(old.depth) ? far : near;
  };
  for (const StoredContact& c : old.contacts) {
    StoredContacts::Append(half(c).contacts, config_.bucket_size, c);
  }
  for (const StoredContact& c : old.replacements) {
    StoredContacts::Append(half(c).replacements, config_.replacement_cache_size, c);
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
    auto it = std::find_if(cache.rbegin(), cache.rend(), [&](const StoredContact& c) {
      return diversity_.Allows(bucket.contacts, contacts_.Load(c));
    });
    if (it == cache.rend()) return;
    const StoredContact promoted = *it;
    cache.erase(std::next(it).base());
    // Keep the bucket ordered by last_seen: a replacement may be older than some contacts.
    auto at = std::upper_bound(
        bucket.contacts.begin(), bucket.contacts.end(), promoted.last_seen,
        [](transport::TimePoint t, const StoredContact& c) { return t < c.last_seen; });
    bucket.contacts.insert(at, promoted);
    ++promoted_;
  }
}

InsertResult RoutingTable::RejectDiversity() {
  ++rejected_diversity_;
  return {InsertOutcome::kRejectedDiversity, std::nullopt};
}

bool RoutingTable::Failed(const NodeId& id) {
  Bucket& bucket = buckets_[IndexOf(id)];
  if (auto it = contacts_.Find(bucket.replacements, id); it != bucket.replacements.end()) {
    contacts_.Erase(bucket.replacements, it);
    ++evicted_;
    return true;
  }
  auto it = contacts_.Find(bucket.contacts, id);
  if (it == bucket.contacts.end()) return false;
  bucket.PingDone(id.FirstWord());  // the caller may ask again
  if (it->failures < UINT8_MAX) ++it->failures;
  if (it->failures < config_.stale_failures_max) return false;
  contacts_.Erase(bucket.contacts, it);
  ++evicted_;
  Promote(bucket);
  return true;
}

bool RoutingTable::Remove(const NodeId& id) {
  Bucket& bucket = buckets_[IndexOf(id)];
  if (auto it = contacts_.Find(bucket.replacements, id); it != bucket.replacements.end()) {
    contacts_.Erase(bucket.replacements, it);
    return true;
  }
  auto it = contacts_.Find(bucket.contacts, id);
  if (it == bucket.contacts.end()) return false;
  contacts_.Erase(bucket.contacts, it);
  bucket.PingDone(id.FirstWord());
  Promote(bucket);
  return true;
}

bool RoutingTable::InBucket(const NodeId& id) const {
  const Bucket& bucket = buckets_[IndexOf(id)];
  return contacts_.Find(bucket.contacts, id) != bucket.contacts.end();
}

std::optional<Contact> RoutingTable::Find(const NodeId& id) const {
  const Bucket& bucket = buckets_[IndexOf(id)];
  for (const auto* list : {&bucket.contacts, &bucket.replacements}) {
    if (auto it = contacts_.Find(*list, id); it != list->end()) return contacts_.Load(*it);
  }
  return std::nullopt;
}

const PeerRecord* RoutingTable::FindRecord(const NodeId& id, int* failures) const {
  const Bucket& bucket = buckets_[IndexOf(id)];
  for (const auto* list : {&bucket.contacts, &bucket.replacements}) {
    if (auto it = contacts_.Find(*list, id); it != list->end()) {
      if (failures != nullptr) *failures = it->failures;
      return &contacts_.RecordOf(*it);
    }
  }
  return nullptr;
}

std::vector<Contact> RoutingTable::Closest(const Key& target, size_t count) const {
  return BucketView(self_, buckets_, contacts_.directory()).Closest(target, count);
}

std::vector<const PeerRecord*> RoutingTable::ClosestRecords(const Key& target, size_t count) const {
  return BucketView(self_, buckets_, contacts_.directory()).ClosestRecords(target, count);
}

Key RoutingTable::RandomKeyInBucket(size_t index, transport::Rng& rng) const {
  return BucketView(self_, buckets_, contacts_.directory()).RandomKeyIn(index, rng);
}

std::vector<Key> RoutingTable::RefreshTargets(transport::TimePoint now, transport::Rng& rng) {
  std::vector<Key> targets;
  for (size_t i = 0; i < buckets_.size(); ++i) {
    if (now - buckets_[i].touched_at < config_.bucket_refresh_interval) continue;
    targets.push_back(RandomKeyInBucket(i, rng));
    buckets_[i].touched_at = now;
  }
  return targets;
}

void RoutingTable::Touched(const Key& target, transport::TimePoint now) {
  buckets_[IndexOf(target)].touched_at = now;
}

transport::TimePoint RoutingTable::NextRefreshDue() const {
  transport::TimePoint earliest = transport::kTimeNever;
  for (const Bucket& b : buckets_) earliest = std::min(earliest, b.touched_at);
  return earliest + config_.bucket_refresh_interval;
}

std::vector<Contact> RoutingTable::Export() const {
  std::vector<Contact> out;
  for (const Bucket& b : buckets_) {
    for (const StoredContact& c : b.contacts) out.push_back(contacts_.Load(c));
  }
  for (const Bucket& b : buckets_) {
    for (const StoredContact& c : b.replacements) out.push_back(contacts_.Load(c));
  }
  return out;
}

size_t RoutingTable::Import(std::span<const Contact> contacts, transport::TimePoint now) {
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
  s.displaced = displaced_;
  return s;
}

}  // namespace skillnode::kademlia::routing
