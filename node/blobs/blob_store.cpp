// BlobStore: content-addressed files with atomic writes and verified reads.
#include "node/blobs/blob_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <system_error>

#include "kademlia/key.h"
#include "kademlia/wire/encoding.h"
#include "node/state/atomic_file.h"

namespace skillnode::node::blobs {
namespace {

constexpr mode_t kBlobFileMode = 0600;
constexpr std::string_view kTemporaryInfix = ".tmp.";

// The digest a blob's file name spells, when it is one.
std::optional<Digest> DigestOfName(const std::string& name) {
  if (name.size() != 64) return std::nullopt;
  auto bytes = kademlia::wire::HexDecode(name);
  if (!bytes || bytes->size() != 32 || kademlia::wire::HexEncode(*bytes) != name)
    return std::nullopt;
  Digest out{};
  std::copy(bytes->begin(), bytes->end(), out.begin());
  return out;
}

}  // namespace

transport::Result<BlobStore> BlobStore::Open(std::string directory, uint64_t bytes_max,
                                             WhenFull when_full) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec)
    return transport::Fail(transport::ErrorCode::kIo,
                           "cannot create " + directory + ": " + ec.message());
  fs::permissions(directory, fs::perms::owner_all, fs::perm_options::replace, ec);
  BlobStore store(directory, bytes_max, when_full);
  // Blobs found on disk are "used" in the order of their files' times, oldest first.
  std::vector<std::pair<fs::file_time_type, Digest>> found;
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
    store.blobs_[*digest] = Held{size, 0};
    store.bytes_ += size;
    found.emplace_back(it->last_write_time(ec), *digest);
    ec.clear();
  }
  if (ec)
    return transport::Fail(transport::ErrorCode::kIo,
                           "cannot list " + directory + ": " + ec.message());
  std::sort(found.begin(), found.end());
  for (const auto& [time, digest] : found) store.blobs_[digest].used = ++store.use_clock_;
  return store;
}

std::string BlobStore::PathOf(const Digest& digest) const {
  return directory_ + "/" + kademlia::wire::HexEncode(digest);
}

transport::Result<bool> BlobStore::Put(const Digest& digest, std::string_view bytes) {
  if (kademlia::Key::Sha256(bytes).bytes() != digest) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "the bytes do not have the digest they are put under");
  }
  // Held already: kept if intact, else (set aside by Get) written again from these bytes.
  if (Has(digest) && Get(digest)) return false;
  if (bytes.size() > kBlobBytesMax || !MakeRoom(bytes.size())) {
    return transport::Fail(transport::ErrorCode::kRefused,
                           "the skill store holds " + std::to_string(bytes_) + " of its " +
                               std::to_string(bytes_max_) + " bytes (node.skills.maxStoreBytes); " +
                               std::to_string(bytes.size()) + " more do not fit");
  }
  auto written =
      state::WriteFileAtomic(PathOf(digest), kademlia::wire::AsBytes(bytes), kBlobFileMode);
  if (!written) return tl::unexpected(written.error());
  blobs_[digest] = Held{bytes.size(), ++use_clock_};
  bytes_ += bytes.size();
  return true;
}

bool BlobStore::MakeRoom(uint64_t incoming) {
  if (incoming > bytes_max_) return false;
  while (bytes_ + incoming > bytes_max_) {
    if (when_full_ == WhenFull::kRefuse || blobs_.empty()) return false;
    auto oldest = std::min_element(blobs_.begin(), blobs_.end(), [](const auto& a, const auto& b) {
      return a.second.used < b.second.used;
    });
    Remove(oldest->first);
  }
  return true;
}

std::vector<Digest> BlobStore::Digests() const {
  std::vector<Digest> out;
  out.reserve(blobs_.size());
  for (const auto& [digest, held] : blobs_) out.push_back(digest);
  return out;
}

std::optional<uint64_t> BlobStore::SizeOf(const Digest& digest) const {
  auto found = blobs_.find(digest);
  if (found == blobs_.end()) return std::nullopt;
  return found->second.size;
}

std::vector<uint8_t> BlobStore::ReadRange(const Digest& digest, uint64_t offset,
                                          size_t length) const {
  auto found = blobs_.find(digest);
  if (found == blobs_.end() || offset >= found->second.size) return {};
  length = static_cast<size_t>(std::min<uint64_t>(length, found->second.size - offset));
  std::vector<uint8_t> out(length);
  const int fd = ::open(PathOf(digest).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  size_t done = 0;
  while (done < length) {
    const ssize_t n =
        ::pread(fd, out.data() + done, length - done, static_cast<off_t>(offset + done));
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  if (done != length) return {};
  return out;
}

transport::Result<std::string> BlobStore::Get(const Digest& digest) {
  if (!Has(digest)) {
    return transport::Fail(transport::ErrorCode::kNotFound,
                           "blob " + kademlia::wire::HexEncode(digest) + " is not held");
  }
  auto bytes = ReadVerified(PathOf(digest), digest);
  if (!bytes) return tl::unexpected(SetAside(digest, bytes.error().message));
  Used(digest);
  return bytes;
}

transport::Result<std::string> BlobStore::ReadVerified(const std::string& path,
                                                       const Digest& digest) {
  auto read = state::ReadWholeFile(path, kBlobBytesMax);
  if (!read) return transport::Fail(transport::ErrorCode::kNotFound, read.error().message);
  if (kademlia::Key::Sha256(std::span<const uint8_t>(*read)).bytes() != digest) {
    return transport::Fail(transport::ErrorCode::kNotFound,
                           "its bytes no longer match their SHA-256");
  }
  return std::string(read->begin(), read->end());
}

void BlobStore::Used(const Digest& digest) {
  auto it = blobs_.find(digest);
  if (it != blobs_.end()) it->second.used = ++use_clock_;
}

transport::Error BlobStore::SetAside(const Digest& digest, const std::string& reason) {
  // Missing, unreadable or changed since it was written: never served, and forgotten.
  auto it = blobs_.find(digest);
  if (it != blobs_.end()) {
    const std::string path = PathOf(digest);
    std::rename(path.c_str(), (path + ".corrupt").c_str());
    bytes_ -= it->second.size;
    blobs_.erase(it);
  }
  return transport::Error{
      transport::ErrorCode::kNotFound,
      "blob " + kademlia::wire::HexEncode(digest) + " was set aside: " + reason};
}

void BlobStore::Remove(const Digest& digest) {
  auto it = blobs_.find(digest);
  if (it == blobs_.end()) return;
  std::remove(PathOf(digest).c_str());
  bytes_ -= it->second.size;
  blobs_.erase(it);
}

}  // namespace skillnode::node::blobs
