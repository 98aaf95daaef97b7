#include "node/blobs/blob_backed_registration.h"

namespace skillnode::node::blobs {

transport::Result<discovery::RegisterOutcome> RegisterWithBytes(
    BlobNetwork& blobs, discovery::Registry& registry, transport::TimePoint now,
    kademlia::store::SkillRecord fields, const std::vector<NamedBytes>& bytes) {
  std::vector<Digest> written;  // by this call: what a refusal takes back
  for (const auto& [digest, data] : bytes) {
    auto put = blobs.local().Put(digest, data);
    if (!put) {
      for (const Digest& done : written) blobs.local().Remove(done);
      return tl::unexpected(std::move(put.error()));
    }
    if (*put) written.push_back(digest);
  }
  discovery::RegisterOutcome outcome = registry.Register(now, std::move(fields));
  const bool accepted = outcome.status == discovery::RegisterStatus::kSuccess ||
                        outcome.status == discovery::RegisterStatus::kDuplicate;
  if (!accepted) {
    for (const Digest& done : written) blobs.local().Remove(done);
    return outcome;
  }
  for (const auto& [digest, data] : bytes) blobs.Published(digest);
  return outcome;
}

}  // namespace skillnode::node::blobs
