// HolderDirectory: which nodes announced that they hold the bytes of a digest, kept by the
// nodes closest to the digest's key (BlobKey), as BitTorrent's DHT keeps the peers of a torrent.
//
// Soft state: an announcement lasts the lifetime its holder asked for (at most
// kHolderLifetimeMax) and is renewed by announcing again. Bounded: at most holders_per_key
// holders under one key and entries_max in all. A full key refuses newcomers until an entry
// expires (a renewal always succeeds), so a flood of announcements cannot push out the holders
// already known.
// Not thread-safe; no I/O.
#ifndef SKILLNODE_KADEMLIA_BLOBS_HOLDER_DIRECTORY_H_
#define SKILLNODE_KADEMLIA_BLOBS_HOLDER_DIRECTORY_H_

#include <cstddef>
#include <map>
#include <vector>

#include "kademlia/key.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"

namespace skillnode::kademlia::blobs {

// The DHT key under which the holders of `digest` are announced: SHA-256("blob:" || digest).
Key BlobKey(const wire::BlobDigest& digest);

// The longest an announcement is kept without being renewed.
constexpr transport::Duration kHolderLifetimeMax = transport::Seconds(3600);

struct HolderLimits {
  size_t holders_per_key = wire::kBlobHoldersPerReplyMax;
  size_t entries_max = 16384;
};

class HolderDirectory {
 public:
  enum class Outcome { kAdded, kRenewed, kKeyFull, kFull };

  explicit HolderDirectory(HolderLimits limits) : limits_(limits) {}

  // `holder` holds the bytes under `key` until now + lifetime (capped at kHolderLifetimeMax).
  // A holder is one node id: announcing again from another address moves it.
  Outcome Announce(transport::TimePoint now, const Key& key, const wire::WireContact& holder,
                   transport::Duration lifetime);
  // The live holders under `key`, most recently announced first.
  std::vector<wire::WireContact> Holders(transport::TimePoint now, const Key& key) const;
  // Drops what has expired (the owner sweeps now and then; reads skip expired entries);
  // returns how many entries it dropped.
  size_t Expire(transport::TimePoint now);

  size_t keys() const { return keys_.size(); }
  size_t entries() const { return entries_; }

 private:
  struct Entry {
    wire::WireContact holder;
    transport::TimePoint announced = transport::kTimeZero;
    transport::TimePoint expires = transport::kTimeZero;
  };
  HolderLimits limits_;
  std::map<Key, std::vector<Entry>> keys_;
  size_t entries_ = 0;
};

}  // namespace skillnode::kademlia::blobs

#endif  // SKILLNODE_KADEMLIA_BLOBS_HOLDER_DIRECTORY_H_
