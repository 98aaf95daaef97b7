// Services (services.h): a node's handler and further services, in order.
#include "kademlia/services.h"

#include <algorithm>

namespace skillnode::kademlia {

void Services::Remove(RequestHandler* service) { std::erase(services_, service); }

std::optional<wire::Body> Services::Answer(transport::TimePoint now,
                                           const transport::Endpoint& from,
                                           const wire::Message& request) {
  if (handler_ != nullptr) {
    if (auto body = handler_->OnRequest(now, from, request)) return body;
  }
  for (RequestHandler* service : services_) {
    if (auto body = service->OnRequest(now, from, request)) return body;
  }
  return std::nullopt;
}

void Services::ContactAdded(transport::TimePoint now, const Contact& contact) {
  if (handler_ != nullptr) handler_->OnContactAdded(now, contact);
  for (RequestHandler* service : services_) service->OnContactAdded(now, contact);
}

void Services::ContactEvicted(transport::TimePoint now, const NodeId& id) {
  if (handler_ != nullptr) handler_->OnContactEvicted(now, id);
  for (RequestHandler* service : services_) service->OnContactEvicted(now, id);
}

void Services::OnTimer(transport::TimePoint now) {
  if (handler_ != nullptr && handler_->NextDeadline() <= now) handler_->OnTimer(now);
  for (RequestHandler* service : services_) {
    if (service->NextDeadline() <= now) service->OnTimer(now);
  }
}

transport::TimePoint Services::NextDeadline() const {
  transport::TimePoint next = transport::kTimeNever;
  if (handler_ != nullptr) next = std::min(next, handler_->NextDeadline());
  for (const RequestHandler* service : services_) next = std::min(next, service->NextDeadline());
  return next;
}

}  // namespace skillnode::kademlia
