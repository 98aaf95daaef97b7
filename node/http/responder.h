// Responder: how a route handler answers its request, now or later.
//
// A handler gets a Responder by value and may keep it (copies share one answer), e.g. in the
// callback of a DHT lookup, and answer when the lookup completes. The first Send wins; later
// ones are ignored. If the client has gone meanwhile, Send does nothing (connected() says so
// beforehand). If every copy is dropped without an answer, the server answers 500 for it, so
// a forgotten path never hangs a client; a handler that takes too long gets a 504 after the
// server's response timeout. Loop thread only.
#ifndef SKILLNODE_NODE_HTTP_RESPONDER_H_
#define SKILLNODE_NODE_HTTP_RESPONDER_H_

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>

#include "node/http/event_stream.h"
#include "node/http/http_message.h"

namespace skillnode::node::http {

// The shared state behind a Responder; the connection fills `deliver` and clears it when it
// closes.
struct ResponseSlot {
  std::function<void(HttpResponse)> deliver;
  // Turns the answer into an event stream (nullptr when the connection cannot).
  std::function<std::shared_ptr<StreamSlot>()> start_stream;
  bool answered = false;
  ~ResponseSlot();
};

class Responder {
 public:
  // A Responder attached to nothing (Send is a no-op): for tests and internal calls.
  Responder() = default;
  explicit Responder(std::shared_ptr<ResponseSlot> slot) : slot_(std::move(slot)) {}

  void Send(HttpResponse response);
  void Json(int status, const nlohmann::json& body);
  // The API's error shape: {"error": code, "message": message, "details": details}.
  void Error(int status, std::string_view code, std::string_view message,
             nlohmann::json details = nlohmann::json::object());

  // Answers with a Server-Sent Events stream instead (event_stream.h); the returned stream is
  // not open if the request was answered already or the client has gone.
  EventStream StartEventStream();

  bool answered() const { return slot_ == nullptr || slot_->answered; }
  // False once the connection has closed (the answer would go nowhere).
  bool connected() const { return slot_ != nullptr && slot_->deliver != nullptr; }

 private:
  std::shared_ptr<ResponseSlot> slot_;
};

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_RESPONDER_H_
