// Services: the services built on a Node (kademlia/request_handler.h) that it hands what the core
// does not handle itself: the requests of types it does not know, the contacts that enter and
// leave its routing table, and its timer. The handler (the skill store) is asked first, then the
// further services (the blob transfer) in the order added. Not owned; a service removes itself
// before it goes. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_SERVICES_H_
#define SKILLNODE_KADEMLIA_SERVICES_H_

#include <optional>
#include <vector>

#include "kademlia/contact.h"
#include "kademlia/request_handler.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia {

class Services {
 public:
  // The one handler (may be null), asked first.
  void SetHandler(RequestHandler* handler) { handler_ = handler; }
  void Add(RequestHandler* service) { services_.push_back(service); }
  void Remove(RequestHandler* service);

  // The first answer a service gives to `request`, or nullopt when none takes it.
  std::optional<wire::Body> Answer(transport::TimePoint now, const transport::Endpoint& from,
                                   const wire::Message& request);
  void ContactAdded(transport::TimePoint now, const Contact& contact);
  void ContactEvicted(transport::TimePoint now, const NodeId& id);
  // Runs the timers that are due.
  void OnTimer(transport::TimePoint now);
  // The earliest of their deadlines (kTimeNever with none).
  transport::TimePoint NextDeadline() const;

 private:
  RequestHandler* handler_ = nullptr;
  std::vector<RequestHandler*> services_;
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_SERVICES_H_
