// PrefixDiversity: counting a list's contacts that share a newcomer's network prefix
// (prefix_diversity.h).
#include "kademlia/routing/prefix_diversity.h"

#include <algorithm>

namespace skillnode::kademlia::routing {

bool PrefixDiversity::Allows(std::span<const StoredContact> list, const Contact& newcomer) const {
  const transport::Address& address = newcomer.endpoint.address();
  if (config_.diversity_exempt_local &&
      (address.IsLoopback() || address.IsLinkLocal() || address.IsPrivate())) {
    return true;
  }
  const int bits =
      address.is_v4() ? config_.diversity_ipv4_prefix_bits : config_.diversity_ipv6_prefix_bits;
  const transport::Address prefix = address.Masked(bits);
  const auto same = std::count_if(list.begin(), list.end(), [&](const StoredContact& c) {
    const PeerRecord& record = contacts_.RecordOf(c);
    return record.id != newcomer.id && record.endpoint.address().Masked(bits) == prefix;
  });
  return static_cast<size_t>(same) < config_.diversity_per_bucket_max;
}

}  // namespace skillnode::kademlia::routing
