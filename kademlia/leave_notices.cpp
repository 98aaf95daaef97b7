#include "kademlia/leave_notices.h"

#include <vector>

namespace skillnode::kademlia {

size_t LeaveNotices::Send(transport::TimePoint now, const NodeId& self, size_t max) const {
  // The endpoints first: sending may reach the transport, which must not see the table's
  // records change under a walk of them.
  std::vector<transport::Endpoint> to;
  for (const routing::PeerRecord* c : table_.ClosestRecords(self, max)) {
    to.push_back(c->endpoint);
  }
  for (const transport::Endpoint& endpoint : to) {
    sender_.Send(now, endpoint, wire::Message{sender_.Header(rng_.Next64()), wire::LeaveBody{}});
  }
  return to.size();
}

}  // namespace skillnode::kademlia
