#include "node/http/responder.h"

#include <utility>

namespace skillnode::node::http {

ResponseSlot::~ResponseSlot() {
  if (answered || !deliver) return;
  answered = true;
  // Every Responder copy is gone and none answered: a bug in a handler; the client still
  // gets a well-formed answer.
  deliver(HttpResponse::Error(500, "INTERNAL", "the handler did not answer"));
}

void Responder::Send(HttpResponse response) {
  if (slot_ == nullptr || slot_->answered) return;
  slot_->answered = true;
  if (slot_->deliver) {
    // Moved out first: delivering may close the connection, which clears `deliver`.
    auto deliver = std::move(slot_->deliver);
    slot_->deliver = nullptr;
    deliver(std::move(response));
  }
}

EventStream Responder::StartEventStream() {
  if (slot_ == nullptr || slot_->answered) return EventStream();
  slot_->answered = true;
  auto start = std::move(slot_->start_stream);
  slot_->start_stream = nullptr;
  slot_->deliver = nullptr;
  return start ? EventStream(start()) : EventStream();
}

void Responder::Json(int status, const nlohmann::json& body) {
  Send(HttpResponse::Json(status, body));
}

void Responder::Error(int status, std::string_view code, std::string_view message,
                      nlohmann::json details) {
  Send(HttpResponse::Error(status, code, message, std::move(details)));
}

}  // namespace skillnode::node::http
