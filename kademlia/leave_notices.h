// LeaveNotices: the LEAVE a node sends as it shuts down (docs/protocol.md "LEAVE"), one to each
// of the contacts nearest its own id, the peers most likely to hold it and to ask it next, so
// that they drop it at once instead of waiting out its timeouts. A LEAVE is a notice: it has a
// fresh transaction id and no reply. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_LEAVE_NOTICES_H_
#define SKILLNODE_KADEMLIA_LEAVE_NOTICES_H_

#include <cstddef>

#include "kademlia/key.h"
#include "kademlia/message_sender.h"
#include "kademlia/routing/routing_table.h"
#include "transport/clock.h"
#include "transport/rng.h"

namespace skillnode::kademlia {

class LeaveNotices {
 public:
  // Each must outlive this.
  LeaveNotices(const routing::RoutingTable& table, MessageSender& sender, transport::Rng& rng)
      : table_(table), sender_(sender), rng_(rng) {}

  // Sends LEAVE to at most `max` contacts of the table nearest `self`; returns how many.
  size_t Send(transport::TimePoint now, const NodeId& self, size_t max) const;

 private:
  const routing::RoutingTable& table_;
  MessageSender& sender_;
  transport::Rng& rng_;
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_LEAVE_NOTICES_H_
