// BlobStore: content-addressed files with atomic writes and verified reads.
#include "node/blobs/blob_store.h"

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <system_error>

#include "bootstrap/atomic_file.h"
#include "kademlia/encoding.h"
#include "kademlia/key.h"

namespace skillnode::node::blobs {
namespace {

constexpr mode_t kBlobFileMode = 0600;
constexpr std::string_view kTemporaryInfix = ".tmp.";

// The digest a blob's file name spells, when it is one.
std::optional<Digest> DigestOfName(const std::string& name) {
  if (name.size() != 64) return std::nullopt;
  auto bytes = kademlia::HexDecode(name);
  if (!bytes || bytes->size() != 32 || kademlia::HexEncode(*bytes) != name) return std::nullopt;
  Digest out{};
  std::copy(bytes->begin(), bytes->end(), out.begin());
  return out;
}

}  // namespace

Result<BlobStore> BlobStore::Open(std::string directory, uint64_t bytes_max) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec) return Fail(ErrorCode::kIo, "cannot create " + directory + ": " + ec.message());
  fs::permissions(directory, fs::perms::owner_all, fs::perm_options::replace, ec);
  BlobStore store(directory, bytes_max);
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > 64 && name.compare(64, kTemporaryInfix.size(), kTemporaryInfix) == 0) {
      fs::remove(it->path(), ec);  // a write a crash interrupted
      ec.clear();
      continue;
    }
    const auto digest = DigestOfName(name);
    if (!digest || !it->is_regular_file(ec)) continue;
    const uint64_t size = it->file_size(ec);
    if (ec) break;
    store.sizes_[*digest] = size;
    store.bytes_ += size;
  }
  if (ec) return Fail(ErrorCode::kIo, "cannot list " + directory + ": " + ec.message());
  return store;
}

std::string BlobStore::PathOf(const Digest& digest) const {
  return directory_ + "/" + kademlia::HexEncode(digest);
}

Result<bool> BlobStore::Put(const Digest& digest, std::string_view bytes) {
  if (kademlia::Key::Sha256(bytes).bytes() != digest) {
    return Fail(ErrorCode::kInvalidArgument, "the bytes do not have the digest they are put under");
  }
  // Held already: kept if intact, else (set aside by Get) written again from these bytes.
  if (Has(digest) && Get(digest)) return false;
  if (bytes.size() > kBlobBytesMax || bytes_ + bytes.size() > bytes_max_) {
    return Fail(ErrorCode::kRefused, "the skill store holds " + std::to_string(bytes_) +
                                         " of its " + std::to_string(bytes_max_) +
                                         " bytes (node.skills.maxStoreBytes); " +
                                         std::to_string(bytes.size()) + " more do not fit");
  }
  auto written =
      bootstrap::WriteFileAtomic(PathOf(digest), kademlia::AsBytes(bytes), kBlobFileMode);
  if (!written) return tl::unexpected(written.error());
  sizes_[digest] = bytes.size();
  bytes_ += bytes.size();
  return true;
}

Result<std::string> BlobStore::Get(const Digest& digest) {
  const std::string hex = kademlia::HexEncode(digest);
  if (!Has(digest)) return Fail(ErrorCode::kNotFound, "blob " + hex + " is not held");
  const std::string path = PathOf(digest);
  auto read = bootstrap::ReadWholeFile(path, kBlobBytesMax);
  if (read && kademlia::Key::Sha256(std::span<const uint8_t>(*read)).bytes() == digest) {
    return std::string(read->begin(), read->end());
  }
  // Missing, unreadable or changed since it was written: never served, and forgotten.
  const std::string reason =
      read ? "its bytes no longer match their SHA-256" : read.error().message;
  std::rename(path.c_str(), (path + ".corrupt").c_str());
  bytes_ -= sizes_[digest];
  sizes_.erase(digest);
  return Fail(ErrorCode::kNotFound, "blob " + hex + " was set aside: " + reason);
}

void BlobStore::Remove(const Digest& digest) {
  auto it = sizes_.find(digest);
  if (it == sizes_.end()) return;
  std::remove(PathOf(digest).c_str());
  bytes_ -= it->second;
  sizes_.erase(it);
}

}  // namespace skillnode::node::blobs
