// BucketView: the bucket order and the closest-contacts search (bucket_view.h). The scratch
// vectors are thread_local and reused between calls: Closest runs for every FIND_NODE.
#include "kademlia/routing/bucket_view.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <utility>

namespace skillnode::kademlia::routing {
namespace {

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

}  // namespace

BucketView::BucketView(const NodeId& self, std::span<const Bucket> buckets,
                       const PeerDirectory& directory)
    : self_(self), buckets_(buckets), directory_(directory) {
  assert(!buckets_.empty());  // a table always has the bucket holding its own id
}

void BucketView::BucketsByDistance(const Key& target, std::vector<size_t>& out) const {
  // Bucket ranges are disjoint prefix ranges, so their distances to `target` are disjoint
  // intervals too, each starting at the bucket's prefix XOR target masked to its depth.
  // Buckets no deeper than 64 bits (every table short of astronomically many nodes) are told
  // apart by the first 64 bits of that lowest distance alone.
  out.clear();
  out.reserve(buckets_.size());
  const bool shallow =
      std::all_of(buckets_.begin(), buckets_.end(), [](const Bucket& b) { return b.depth <= 64; });
  if (shallow) {
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

std::vector<Contact> BucketView::Closest(const Key& target, size_t count) const {
  thread_local std::vector<const StoredContact*> chosen;
  Select(target, count, chosen);
  std::vector<Contact> out;
  out.reserve(chosen.size());
  for (const StoredContact* c : chosen) out.push_back(ContactOf(directory_, *c));
  return out;
}

std::vector<const PeerRecord*> BucketView::ClosestRecords(const Key& target, size_t count) const {
  thread_local std::vector<const StoredContact*> chosen;
  Select(target, count, chosen);
  std::vector<const PeerRecord*> out;
  out.reserve(chosen.size());
  for (const StoredContact* c : chosen) out.push_back(&directory_.record(c->peer));
  return out;
}

void BucketView::Select(const Key& target, size_t count,
                        std::vector<const StoredContact*>& out) const {
  out.clear();
  if (count == 0) return;
  // Every contact of a later bucket is farther than every contact of an earlier one, so once
  // `count` healthy contacts are gathered no later contact can enter the result. Contacts sort
  // on the first 64 bits of their distance, then on the rest where those tie.
  thread_local std::vector<size_t> buckets;
  thread_local std::vector<std::pair<uint64_t, const StoredContact*>> gathered;
  BucketsByDistance(target, buckets);
  assert(buckets.size() == buckets_.size());
  gathered.clear();
  size_t healthy = 0;
  const uint64_t target_word = target.FirstWord();
  for (size_t i : buckets) {
    if (healthy >= count) break;
    for (const StoredContact& c : buckets_[i].contacts) {
      gathered.emplace_back(c.id_word ^ target_word, &c);
      if (c.failures == 0) ++healthy;
    }
  }
  std::sort(gathered.begin(), gathered.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first
                              : CloserTo(target, directory_.record(a.second->peer).id,
                                         directory_.record(b.second->peer).id);
  });
  // Failing contacts only take the places healthy ones cannot fill.
  const size_t failing_max = healthy < count ? count - healthy : 0;
  size_t healthy_taken = 0, failing_taken = 0;
  for (const auto& [word, c] : gathered) {
    if (out.size() == count) break;
    size_t& taken = c->failures == 0 ? healthy_taken : failing_taken;
    if (taken < (c->failures == 0 ? count : failing_max)) {
      ++taken;
      out.push_back(c);
    }
  }
}

Key BucketView::RandomKeyIn(size_t index, transport::Rng& rng) const {
  assert(index < buckets_.size());
  const Bucket& bucket = buckets_[index];
  assert(bucket.depth >= 0 && bucket.depth <= Key::kBits);
  // The bucket's ids share their first `depth` bits with self_ XOR distance_prefix; the
  // remaining bits are free.
  const Key prefix = Distance(self_, bucket.distance_prefix);
  Key key;
  rng.Fill(key.mutable_bytes());
  const Key free_bits = Distance(key, Masked(key, bucket.depth));
  return Distance(Masked(prefix, bucket.depth), free_bits);
}

}  // namespace skillnode::kademlia::routing
