#include "kademlia/blobs/holder_directory.h"

#include <algorithm>
#include <string_view>

namespace skillnode::kademlia::blobs {

Key BlobKey(const wire::BlobDigest& digest) {
  constexpr std::string_view kTag = "blob:";
  std::array<uint8_t, kTag.size() + 32> input{};
  std::copy(kTag.begin(), kTag.end(), input.begin());
  std::copy(digest.begin(), digest.end(), input.begin() + kTag.size());
  return Key::Sha256(std::span<const uint8_t>(input));
}

HolderDirectory::Outcome HolderDirectory::Announce(transport::TimePoint now, const Key& key,
                                                   const wire::WireContact& holder,
                                                   transport::Duration lifetime) {
  const transport::TimePoint expires = now + std::min(lifetime, kHolderLifetimeMax);
  auto found = keys_.find(key);
  if (found != keys_.end()) {
    for (Entry& entry : found->second) {
      if (entry.holder.id != holder.id) continue;
      entry.holder = holder;
      entry.announced = now;
      entry.expires = std::max(entry.expires, expires);
      return Outcome::kRenewed;
    }
  }
  // Room is judged on live entries: expired ones are dropped first.
  if (found != keys_.end()) {
    const size_t before = found->second.size();
    std::erase_if(found->second, [&](const Entry& e) { return e.expires <= now; });
    entries_ -= before - found->second.size();
    if (found->second.size() >= limits_.holders_per_key) return Outcome::kKeyFull;
  }
  if (entries_ >= limits_.entries_max) {
    Expire(now);
    if (entries_ >= limits_.entries_max) return Outcome::kFull;
    found = keys_.find(key);
  }
  if (found == keys_.end()) found = keys_.emplace(key, std::vector<Entry>{}).first;
  found->second.push_back(Entry{holder, now, expires});
  ++entries_;
  return Outcome::kAdded;
}

std::vector<wire::WireContact> HolderDirectory::Holders(transport::TimePoint now,
                                                        const Key& key) const {
  std::vector<wire::WireContact> out;
  auto found = keys_.find(key);
  if (found == keys_.end()) return out;
  std::vector<const Entry*> live;
  for (const Entry& entry : found->second) {
    if (entry.expires > now) live.push_back(&entry);
  }
  std::sort(live.begin(), live.end(),
            [](const Entry* a, const Entry* b) { return a->announced > b->announced; });
  for (const Entry* entry : live) {
    if (out.size() == wire::kBlobHoldersPerReplyMax) break;
    out.push_back(entry->holder);
  }
  return out;
}

size_t HolderDirectory::Expire(transport::TimePoint now) {
  size_t dropped = 0;
  for (auto it = keys_.begin(); it != keys_.end();) {
    const size_t before = it->second.size();
    std::erase_if(it->second, [&](const Entry& e) { return e.expires <= now; });
    dropped += before - it->second.size();
    it = it->second.empty() ? keys_.erase(it) : std::next(it);
  }
  entries_ -= dropped;
  return dropped;
}

}  // namespace skillnode::kademlia::blobs
