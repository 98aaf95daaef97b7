#include "node/state/identity_file.h"

#include <sys/stat.h>

#include <cstdio>
#include <string_view>

#include "kademlia/wire/encoding.h"
#include "node/state/atomic_file.h"

namespace skillnode::node::state {
namespace {

constexpr std::string_view kHeader = "skillnode-identity v1\n";
constexpr std::string_view kSeedPrefix = "seed ";
constexpr mode_t kIdentityFileMode = 0600;
constexpr size_t kIdentityFileSizeMax = 4096;

}  // namespace

transport::Result<void> SaveIdentity(const std::string& path, const kademlia::Identity& identity) {
  std::string text(kHeader);
  text += kSeedPrefix;
  text += kademlia::wire::HexEncode(identity.seed());
  text += '\n';
  return WriteFileAtomic(path, kademlia::wire::AsBytes(text), kIdentityFileMode);
}

transport::Result<kademlia::Identity> LoadIdentity(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && (info.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%03o", static_cast<unsigned>(info.st_mode & 0777));
    return transport::Fail(
        transport::ErrorCode::kRefused,
        path + " has mode " + mode + ", so other users may read the key; run: chmod 600 " + path);
  }
  auto bytes = ReadWholeFile(path, kIdentityFileSizeMax);
  if (!bytes) return tl::unexpected(bytes.error());
  std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  if (!text.starts_with(kHeader)) {
    return transport::Fail(
        transport::ErrorCode::kParse,
        path + ": first line is not '" + std::string(kHeader.substr(0, kHeader.size() - 1)) + "'");
  }
  text.remove_prefix(kHeader.size());
  if (!text.starts_with(kSeedPrefix)) {
    return transport::Fail(transport::ErrorCode::kParse,
                           path + ": second line does not start with 'seed '");
  }
  text.remove_prefix(kSeedPrefix.size());
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
    text.remove_suffix(1);
  }
  auto seed = kademlia::wire::HexDecode(text);
  if (!seed)
    return transport::Fail(transport::ErrorCode::kParse, path + ": seed: " + seed.error().message);
  auto identity = kademlia::Identity::FromSeedBytes(*seed);
  if (!identity)
    return transport::Fail(transport::ErrorCode::kParse, path + ": " + identity.error().message);
  return identity;
}

transport::Result<kademlia::Identity> LoadOrCreateIdentity(const std::string& path) {
  auto loaded = LoadIdentity(path);
  if (loaded || loaded.error().code != transport::ErrorCode::kNotFound) return loaded;
  kademlia::Identity identity = kademlia::Identity::Generate();
  auto saved = SaveIdentity(path, identity);
  if (!saved) return tl::unexpected(saved.error());
  return identity;
}

}  // namespace skillnode::node::state
