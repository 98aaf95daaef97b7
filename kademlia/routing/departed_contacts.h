// DepartedContacts: contacts the routing table evicted for silence, kept a while and probed
// now and then, so that a node finds its way back to peers it lost while they were
// unreachable rather than gone.
//
// Without it, two halves of a network that were cut apart evict each other's contacts, and
// after the cut heals neither half learns of the other: every lookup asks only nodes the
// asker still knows, and they know only their own half. A departed contact is probed with a
// PING first probe_after its eviction, then at doubling intervals, until it answers (the
// node then hears from it and it is a contact again) or departed_keep has passed. At most
// departed_max are kept, the oldest evicted forgotten first, and one is probed at a time per
// departed_probe_spacing, so a node whose peers really left spends a few pings a minute.
// Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_ROUTING_DEPARTED_CONTACTS_H_
#define SKILLNODE_KADEMLIA_ROUTING_DEPARTED_CONTACTS_H_

#include <cstddef>
#include <optional>

#include "kademlia/config.h"
#include "kademlia/contact.h"
#include "kademlia/flat_linked_map.h"
#include "kademlia/key.h"
#include "transport/clock.h"

namespace skillnode::kademlia::routing {

class DepartedContacts {
 public:
  explicit DepartedContacts(const RoutingConfig& config) : config_(config) {}

  // `contact` was evicted at `now`.
  void Add(const Contact& contact, transport::TimePoint now);
  // We heard from `id` again (it is back in the table, or on its way): stop probing it.
  void Forget(const NodeId& id) {
    if (!departed_.empty() && departed_.Erase(id)) Recompute();
  }
  // The contact to probe at `now`, if one is due (one per departed_probe_spacing); it is
  // rescheduled at twice its last interval, or forgotten once departed_keep has passed.
  std::optional<Contact> TakeDue(transport::TimePoint now);
  // When TakeDue() may next return a contact; kTimeNever when none is kept.
  transport::TimePoint NextDue() const;

  size_t size() const { return departed_.size(); }
  bool contains(const NodeId& id) const { return departed_.Get(id) != nullptr; }

 private:
  struct Entry {
    Contact contact;
    transport::TimePoint departed_at = transport::kTimeZero;
    transport::TimePoint next_probe = transport::kTimeZero;
    transport::Duration interval{};
  };

  void Recompute();

  const RoutingConfig& config_;
  FlatLinkedMap<NodeId, Entry> departed_;  // oldest eviction first
  transport::TimePoint next_slot_ =
      transport::kTimeZero;  // the earliest time the next probe may go
  transport::TimePoint next_due_ = transport::kTimeNever;  // the earliest next_probe of any entry
};

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_DEPARTED_CONTACTS_H_
