// BlobStore: bytes kept by their SHA-256 in a directory of the node's data directory (the
// SKILL.md files and folder archives of skills registered from a folder), so a registration
// sent again after a restart finds them in place.
//
//   <dataDir>/blobs/<64 hex digits>   one blob, mode 0600, its name the SHA-256 of its bytes
//
// Writes are atomic (node/state/atomic_file.h: temporary file, fsync, rename), so a crash never
// leaves a partial blob under a digest's name. Reads verify the digest: a file whose bytes no
// longer match (disk corruption, a hand edit) is set aside as "<name>.corrupt" and reported as
// absent, never served. The store holds at most `bytes_max` bytes in all (config
// node.skills.maxStoreBytes); a Put past it is refused and stores nothing.
//
// A store opened as a cache (the copies of other nodes' blobs, <dataDir>/blobs/cache) makes
// room for a Put by removing the blobs least recently put or read, oldest file first after a
// restart; a plain store refuses instead.
//
// ReadRange serves one chunk to another node (node/blobs/blob_network.h) without hashing the
// whole blob each time: a fetcher verifies the digest of what it assembles, and a blob that
// rotted on disk is caught there, and here by the next full Get.
//
// File I/O on the caller's thread, but for a whole blob's read and digest check, which
// ReadVerified does apart from the store (BlobReads runs it on libuv's thread pool for
// downloads; the caller then reports Used or SetAside here). Blobs are bounded by the folder
// limits (discovery/skillmd/skill_archive.h, a few MiB), written once per registration or fetch,
// and a chunk is one pread. Not thread-safe.
#ifndef SKILLNODE_NODE_BLOBS_BLOB_STORE_H_
#define SKILLNODE_NODE_BLOBS_BLOB_STORE_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::blobs {

using Digest = std::array<uint8_t, 32>;

// A blob larger than this is not one this node wrote (the record's archive limit).
constexpr uint64_t kBlobBytesMax = 64ull * 1024 * 1024;

class BlobStore {
 public:
  // Opens (creating, mode 0700) `directory` and counts the blobs in it; files that are not
  // blobs (a temporary left by a crash) are removed, unknown names are left alone.
  enum class WhenFull { kRefuse, kEvictOldest };
  [[nodiscard]] static transport::Result<BlobStore> Open(std::string directory, uint64_t bytes_max,
                                                         WhenFull when_full = WhenFull::kRefuse);

  // Stores `bytes` under `digest`, which must be their SHA-256 (else kInvalidArgument). True
  // when written, false when already held intact (a corrupt copy is replaced). kRefused when
  // it would pass bytes_max (a cache first removes its least recently used blobs; kRefused only
  // for a blob larger than bytes_max).
  [[nodiscard]] transport::Result<bool> Put(const Digest& digest, std::string_view bytes);
  // The bytes of `digest`, verified. kNotFound when absent or corrupt (set aside).
  [[nodiscard]] transport::Result<std::string> Get(const Digest& digest);
  // The file at `path`, if it holds `digest`'s bytes (at most kBlobBytesMax): kNotFound naming
  // why not. Touches no store: safe on any thread.
  [[nodiscard]] static transport::Result<std::string> ReadVerified(const std::string& path,
                                                                   const Digest& digest);
  // Where a blob's file is (held or not).
  std::string PathOf(const Digest& digest) const;
  // A read of a held blob's file (ReadVerified) found its bytes: it is the most recently used.
  void Used(const Digest& digest);
  // A read found the file missing, unreadable or changed: it is set aside as "<name>.corrupt"
  // and forgotten, never served. Returns the error to report, naming the blob and `reason`.
  transport::Error SetAside(const Digest& digest, const std::string& reason);
  bool Has(const Digest& digest) const { return blobs_.contains(digest); }
  std::optional<uint64_t> SizeOf(const Digest& digest) const;
  // Up to `length` bytes from `offset`, unverified; empty when not held or unreadable.
  std::vector<uint8_t> ReadRange(const Digest& digest, uint64_t offset, size_t length) const;
  // Removes a blob (nothing when absent).
  void Remove(const Digest& digest);

  size_t count() const { return blobs_.size(); }
  std::vector<Digest> Digests() const;
  uint64_t bytes() const { return bytes_; }
  uint64_t bytes_max() const { return bytes_max_; }
  const std::string& directory() const { return directory_; }

 private:
  struct Held {
    uint64_t size = 0;
    uint64_t used = 0;  // use_clock_ at the last put or read
  };
  BlobStore(std::string directory, uint64_t bytes_max, WhenFull when_full)
      : directory_(std::move(directory)), bytes_max_(bytes_max), when_full_(when_full) {}
  // Removes least recently used blobs until `incoming` more bytes fit; false if they cannot.
  bool MakeRoom(uint64_t incoming);

  std::string directory_;
  uint64_t bytes_max_ = 0;
  WhenFull when_full_ = WhenFull::kRefuse;
  uint64_t bytes_ = 0;
  uint64_t use_clock_ = 0;
  std::map<Digest, Held> blobs_;  // every blob held
};

}  // namespace skillnode::node::blobs

#endif  // SKILLNODE_NODE_BLOBS_BLOB_STORE_H_
