// RequestHandler: how a service built on the Kademlia core (the skill store) answers the
// request types the core does not know, and learns about new contacts.
#ifndef SKILLNODE_KADEMLIA_REQUEST_HANDLER_H_
#define SKILLNODE_KADEMLIA_REQUEST_HANDLER_H_

#include <optional>

#include "kademlia/contact.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia {

class RequestHandler {
 public:
  virtual ~RequestHandler() = default;

  // A request the core does not handle itself, already checked (network, id, rate limit).
  // Returns the reply body, or nullopt for the node to answer ERROR "unknown type".
  virtual std::optional<wire::Body> OnRequest(transport::TimePoint now,
                                              const transport::Endpoint& from,
                                              const wire::Message& request) = 0;

  // A verified contact has just entered the routing table (for handing records over).
  virtual void OnContactAdded(transport::TimePoint now, const Contact& contact) = 0;
  // A contact has just been evicted from the routing table: it stopped answering (for
  // restoring the copies of records it held beside us).
  virtual void OnContactEvicted(transport::TimePoint now, const NodeId& id) = 0;

  // The node's timer: called from Node::OnTimer, and its deadline joins Node::NextDeadline.
  virtual void OnTimer(transport::TimePoint now) = 0;
  virtual transport::TimePoint NextDeadline() const = 0;
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_REQUEST_HANDLER_H_
