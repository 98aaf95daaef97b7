// PrefixDiversity: the routing table's Sybil limit (Kademlia's weakness to one operator with
// many ids on one network): a bucket or replacement cache takes at most diversity_per_bucket_max
// contacts from one network prefix (diversity_ipv4_prefix_bits / diversity_ipv6_prefix_bits of
// the address). Loopback, link-local and private addresses are exempt with
// diversity_exempt_local, so that many nodes on one host or one LAN can form a network.
//
// The RoutingTable asks it before a contact enters a list (a newcomer, a promotion from the
// cache, an address change, a displaced contact cached) and counts the refusals.
#ifndef SKILLNODE_KADEMLIA_ROUTING_PREFIX_DIVERSITY_H_
#define SKILLNODE_KADEMLIA_ROUTING_PREFIX_DIVERSITY_H_

#include <span>

#include "kademlia/config.h"
#include "kademlia/contact.h"
#include "kademlia/routing/bucket.h"
#include "kademlia/routing/stored_contacts.h"

namespace skillnode::kademlia::routing {

class PrefixDiversity {
 public:
  // Both must outlive this: the table's configuration and its references into the directory.
  PrefixDiversity(const RoutingConfig& config, const StoredContacts& contacts)
      : config_(config), contacts_(contacts) {}

  // True when `newcomer` may join `list`: fewer than diversity_per_bucket_max of the list's
  // other contacts (another id) share its prefix, or its address is exempt. A contact already
  // in the list under the same id does not count against itself.
  bool Allows(std::span<const StoredContact> list, const Contact& newcomer) const;

 private:
  const RoutingConfig& config_;
  const StoredContacts& contacts_;
};

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_PREFIX_DIVERSITY_H_
